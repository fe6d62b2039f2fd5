/*
 * Shoko's saved filters (table FilterPreset) as rows of our `filters` table.
 *
 * Shoko stores Expression and SortingExpression as Newtonsoft JSON of its filter classes with TypeNameHandling.Objects
 * and a binder that writes only the class name: `{"$type":"AndExpression","Left":{...},"Right":{...}}` (older or
 * hand-made rows may carry `Namespace.Class, Assembly`, which Shoko also reads). Each class has typed properties
 * (a DateTime, a TimeSpan in .NET's constant format `d.hh:mm:ss`, a double, a few enums as numbers or names); API v3
 * turns them into the FilterCondition strings our filters domain evaluates, and so does this module, so an imported
 * filter is stored exactly as one saved through `POST /api/v3/Filter` and checked by the same validation.
 */
import type { FilterCondition, SortingCriteria } from '@shoko-ts/contract';
import { FieldErrorCollector } from '../../http/problem.js';
import {
  CREATOR_ROLES,
  EXPRESSION_BY_ID,
  SEASONS,
  SORTING_CRITERIA,
  stripExpressionId,
  FilterCompiler,
  FilterError,
  normaliseCondition,
  normaliseSorting,
} from '../filters/index.js';

export interface ShokoFilterPresetRow {
  FilterPresetID: number;
  ParentFilterPresetID: number | null;
  Name: string;
  FilterType: number;
  Locked: number;
  Hidden: number;
  ApplyAtSeriesLevel: number;
  Expression: string | null;
  SortingExpression: string | null;
}

export interface ImportedFilter {
  name: string;
  isDirectory: boolean;
  isHidden: boolean;
  isLocked: boolean;
  applyAtSeriesLevel: boolean;
  /** JSON of the validated FilterCondition, as the filters table stores it. */
  expression: string | null;
  /** JSON of the validated SortingCriteria. */
  sorting: string | null;
}

/** The Directory bit of Shoko's GroupFilterType flags (None 0, UserDefined 1, ContinueWatching 2, All 4, Directory 8). */
export const SHOKO_FILTER_TYPE_DIRECTORY = 8;

/** Shoko's ImageEntityType, stored as its number by HasAvailableImage / HasPreferredImage. */
const IMAGE_ENTITY_TYPES = ['None', 'Backdrop', 'Banner', 'Logo', 'Art', 'Disc', 'Poster', 'Thumbnail', 'Person', 'Character'];
/** Shoko's CharacterAppearanceType in enum order (it is written by name, but a number still reads). */
const APPEARANCE_TYPES = ['Unknown', 'Main_Character', 'Minor_Character', 'Background_Character', 'Cameo'];
/** Class names Shoko 5.0 wrote that later releases renamed, by our id of the current name. */
const RENAMED_CLASSES: Record<string, string> = { UserVerifiedTmdbEpisodeLink: 'UserVerifiedTmdbEpisodeLinks' };
/** Classes whose first parameter is not a property named Parameter. */
const PARAMETER_PROPERTY: Record<string, string> = {
  HasCharacter: 'CharacterID',
  HasCharacterWithAppearance: 'CharacterID',
  HasCreator: 'CreatorID',
  HasCreatorWithRole: 'CreatorID',
  InSeason: 'Year',
};
const SECOND_PARAMETER: Record<string, { property: string; names: readonly string[] }> = {
  InSeason: { property: 'Season', names: SEASONS },
  HasCharacterWithAppearance: { property: 'Appearance', names: APPEARANCE_TYPES },
  HasCreatorWithRole: { property: 'Role', names: CREATOR_ROLES },
};
const SORTING_SUFFIX = 'SortingSelector';

/** A Shoko expression our filters cannot express; its message is the import report's reason. */
class UnsupportedExpression extends Error {}

type ShokoNode = Record<string, unknown>;

const isNode = (value: unknown): value is ShokoNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The class name of a node's `$type`: the bare name, or the last dotted part before the assembly. */
function className(node: ShokoNode): string {
  const type = node.$type;
  if (typeof type !== 'string' || !type.trim()) throw new UnsupportedExpression('a filter expression without a $type');
  return type.split(',')[0].trim().split('.').pop()!;
}

/** Name of an enum stored by number (Newtonsoft's default) or by name (StringEnumConverter). */
function enumName(value: unknown, names: readonly string[], what: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isInteger(value) && names[value] !== undefined) return names[value];
  throw new UnsupportedExpression(`${what} ${JSON.stringify(value)} is not a known value`);
}

/** .NET's TimeSpan constant format (`[-][d.]hh:mm:ss[.fffffff]`) in the general long format API v3 uses. */
function timeSpanParameter(value: unknown, type: string): string {
  const match = typeof value === 'string' ? /^(-)?(?:(\d+)[.:])?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,7}))?$/.exec(value.trim()) : null;
  if (!match) throw new UnsupportedExpression(`${type}: ${JSON.stringify(value)} is not a TimeSpan`);
  const [, sign = '', days = '0', hours, minutes, seconds, fraction = ''] = match;
  return `${sign}${Number(days)}:${hours.padStart(2, '0')}:${minutes}:${seconds}.${fraction.padEnd(7, '0')}`;
}

function numberParameter(value: unknown, type: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new UnsupportedExpression(`${type}: ${JSON.stringify(value)} is not a number`);
  return String(value);
}

function dateParameter(value: unknown, type: string): string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value))
    throw new UnsupportedExpression(`${type}: ${JSON.stringify(value)} is not a date`);
  return value.slice(0, 10);
}

function child(node: ShokoNode, side: 'Left' | 'Right'): FilterCondition | undefined {
  const value = node[side];
  return value === null || value === undefined ? undefined : toCondition(value);
}

/** One Shoko expression node and its children as a FilterCondition (not yet validated). */
function toCondition(value: unknown): FilterCondition {
  if (!isNode(value)) throw new UnsupportedExpression('a filter expression that is not an object');
  const shokoClass = className(value);
  const stripped = stripExpressionId(shokoClass);
  const id = RENAMED_CLASSES[stripped] ?? stripped;
  const spec = EXPRESSION_BY_ID.get(id);
  if (!spec) throw new UnsupportedExpression(`unsupported filter expression type '${shokoClass}'`);
  const left = spec.left ? child(value, 'Left') : undefined;
  const right = spec.right ? child(value, 'Right') : undefined;

  // Bool parameters cannot travel through API v3, so they become structure that evaluates the same.
  if (id === 'Constant') return value.Parameter === true ? { Type: 'Not', Left: { Type: 'Constant' } } : { Type: 'Constant' };
  if (id === 'Equals' && !right) {
    if (!left) throw new UnsupportedExpression('EqualsExpression without Left');
    return value.Parameter === true ? left : { Type: 'Not', Left: left };
  }
  if (id === 'SetOverlaps' || id === 'StringIn') {
    const set = value.Parameter;
    if (Array.isArray(set) && set.length > 0)
      throw new UnsupportedExpression(
        `unsupported filter expression type '${shokoClass}' with a string-set Parameter (${JSON.stringify(set)})`,
      );
  }

  const condition: FilterCondition = { Type: id };
  if (left) condition.Left = left;
  if (right) condition.Right = right;
  const raw = value[PARAMETER_PROPERTY[id] ?? 'Parameter'];
  // Number and date comparisons read Right when there is one (their Parameter is then an unused default).
  const parameterUnused = right !== undefined && (spec.right === 'NumberSelector' || spec.right === 'DateSelector');
  if (!parameterUnused && raw !== null && raw !== undefined) {
    if (spec.parameter === 'String')
      condition.Parameter = id === 'HasAvailableImage' || id === 'HasPreferredImage' ? enumName(raw, IMAGE_ENTITY_TYPES, id) : String(raw);
    else if (spec.parameter === 'Number') condition.Parameter = numberParameter(raw, shokoClass);
    else if (spec.parameter === 'Date') condition.Parameter = dateParameter(raw, shokoClass);
    else if (spec.parameter === 'TimeSpan') condition.Parameter = timeSpanParameter(raw, shokoClass);
  }
  const second = SECOND_PARAMETER[id];
  if (second && value[second.property] !== null && value[second.property] !== undefined)
    condition.SecondParameter = enumName(value[second.property], second.names, `${shokoClass}.${second.property}`);
  return condition;
}

/** A Shoko sorting chain (`XSortingSelector` with Descending and Next) as SortingCriteria. */
function toSorting(value: unknown): SortingCriteria {
  if (!isNode(value)) throw new UnsupportedExpression('a sorting expression that is not an object');
  const shokoClass = className(value);
  const type = shokoClass.endsWith(SORTING_SUFFIX) ? shokoClass.slice(0, -SORTING_SUFFIX.length) : '';
  if (!SORTING_CRITERIA.some((c) => c.type === type)) throw new UnsupportedExpression(`unsupported sorting type '${shokoClass}'`);
  const sorting: SortingCriteria = { Type: type, IsInverted: value.Descending === true };
  if (value.Next !== null && value.Next !== undefined) sorting.Next = toSorting(value.Next);
  return sorting;
}

function parseColumn(text: string | null, column: string): unknown {
  if (text === null || !text.trim() || text.trim() === 'null') return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new UnsupportedExpression(`${column} is not valid JSON`);
  }
}

/** The checks `POST /api/v3/Filter` applies (FiltersService.parseLive): node by node, then a compile. */
function validate(
  condition: FilterCondition | null,
  sorting: SortingCriteria | null,
  applyAtSeriesLevel: boolean,
): { ok: true; expression: FilterCondition | null; sorting: SortingCriteria | null } | { ok: false; reason: string } {
  const errors = new FieldErrorCollector();
  const expression = normaliseCondition(condition, errors);
  const normalisedSorting = normaliseSorting(sorting, errors);
  if (!errors.empty) {
    const reason = Object.entries(errors.errors)
      .map(([field, messages]) => `${field}: ${messages.join(' ')}`)
      .join('; ');
    return { ok: false, reason };
  }
  const compiler = new FilterCompiler({
    level: applyAtSeriesLevel ? 'series' : 'group',
    userId: 0,
    today: new Date().toISOString().slice(0, 10),
    dialect: 'sqlite',
    nested: false,
  });
  try {
    if (expression) compiler.bool(expression);
    compiler.orderBy(normalisedSorting);
  } catch (error) {
    if (error instanceof FilterError) return { ok: false, reason: error.message };
    throw error;
  }
  return { ok: true, expression, sorting: normalisedSorting };
}

/**
 * One FilterPreset row as a filter of ours, or the reason it cannot be imported (an expression or sorting type we do
 * not know, a string-set parameter API v3 cannot carry, or a condition our filter validation rejects). The parent is
 * the caller's to resolve from ParentFilterPresetID. Directories keep no conditions, as in `POST /api/v3/Filter`.
 */
export function mapShokoFilterPreset(row: ShokoFilterPresetRow): { ok: true; filter: ImportedFilter } | { ok: false; reason: string } {
  const isDirectory = (row.FilterType & SHOKO_FILTER_TYPE_DIRECTORY) !== 0;
  const applyAtSeriesLevel = !!row.ApplyAtSeriesLevel;
  let condition: FilterCondition | null = null;
  let sorting: SortingCriteria | null = null;
  if (!isDirectory) {
    try {
      const expression = parseColumn(row.Expression, 'Expression');
      const sortingExpression = parseColumn(row.SortingExpression, 'SortingExpression');
      condition = expression === null ? null : toCondition(expression);
      sorting = sortingExpression === null ? null : toSorting(sortingExpression);
    } catch (error) {
      if (error instanceof UnsupportedExpression) return { ok: false, reason: error.message };
      throw error;
    }
  }
  const checked = validate(condition, sorting, applyAtSeriesLevel);
  if (!checked.ok) return checked;
  return {
    ok: true,
    filter: {
      name: row.Name.trim() || `Filter ${row.FilterPresetID}`,
      isDirectory,
      isHidden: !!row.Hidden,
      isLocked: !!row.Locked,
      applyAtSeriesLevel,
      expression: checked.expression ? JSON.stringify(checked.expression) : null,
      sorting: checked.sorting ? JSON.stringify(checked.sorting) : null,
    },
  };
}
