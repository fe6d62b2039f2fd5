import type { FilterCondition } from '@shoko-ts/contract';
import type { Viewer } from '../../http/viewer.js';
import { SEASONS } from './filter-catalogue.js';
import { DYNAMIC_DIRECTORIES, type DynamicDirectory } from '../../db/collection-defaults.js';
import type { FilterRow, FiltersStore } from './filters.store.js';

/*
 * The sub-filters of the Years, Seasons and Tags directories are not stored: they are read from the collection as it is
 * at each request (a new year or tag shows at once), one per year a series aired in, per season and year, per AniDB
 * tag name. Each is a locked series-level filter (InYear, InSeason, HasTag, by name) with an id derived from what it
 * stands for, so the same child keeps its id: ids from CHILD_ID_BASE up, far above any stored filter's.
 */
const CHILD_ID_BASE = 1_900_000_000;
const SEASON_OFFSET = 10_000;
const TAG_OFFSET = 100_000;
const MAX_INT32 = 2_147_483_647;
const SEASON_STARTS = ['01-01', '04-01', '07-01', '10-01'];
const SEASON_ENDS = ['03-31', '06-30', '09-30', '12-31'];

/** A computed sub-filter as a row of the filters table, and (in lists) how many groups it holds. */
export interface DynamicChild {
  row: FilterRow;
  groups: number;
}

type ChildKey = { kind: 'Years'; year: number } | { kind: 'Seasons'; year: number; season: number } | { kind: 'Tags'; tagId: number };

export const isDynamicChildId = (id: number) => id >= CHILD_ID_BASE;

function decode(id: number): ChildKey | null {
  const offset = id - CHILD_ID_BASE;
  if (offset < 0 || id > MAX_INT32) return null;
  if (offset < SEASON_OFFSET) return { kind: 'Years', year: offset };
  if (offset < TAG_OFFSET) {
    const quarter = offset - SEASON_OFFSET;
    return { kind: 'Seasons', year: Math.floor(quarter / 4), season: quarter % 4 };
  }
  return { kind: 'Tags', tagId: offset - TAG_OFFSET };
}

const yearId = (year: number) => CHILD_ID_BASE + year;
const seasonId = (year: number, season: number) => CHILD_ID_BASE + SEASON_OFFSET + year * 4 + season;
const tagId = (id: number) => CHILD_ID_BASE + TAG_OFFSET + id;

/**
 * Title case as en-US TextInfo.ToTitleCase writes it (how Shoko names its tag filters): each word's first letter upper
 * case and the rest lower, words written all in capitals kept; letters, digits and apostrophes make up a word.
 */
export function titleCase(text: string): string {
  return text.replace(/[\p{L}\p{N}'’]+/gu, (word) =>
    word === word.toUpperCase() ? word : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
  );
}

type AirSpan = { y1: number; q1: number; y2: number; q2: number };

/**
 * Years (and seasons, as year × 4 + quarter) from a series' air date to its end date, the span InYear / InSeason test;
 * an end far ahead stops at `lastYear` and at fifty years.
 */
function spanOf({ y1, q1, y2, q2 }: AirSpan, lastYear: number): { years: number[]; seasons: number[] } {
  const years: number[] = [];
  const seasons: number[] = [];
  const endYear = Math.min(y2, lastYear, y1 + 50);
  for (let y = y1; y <= endYear; y++) years.push(y);
  const last = endYear < y2 ? endYear * 4 + 3 : y2 * 4 + q2;
  for (let q = y1 * 4 + q1; q <= last; q++) seasons.push(q);
  return { years, seasons };
}

function childRow(directory: FilterRow, id: number, name: string, expression: FilterCondition): FilterRow {
  return {
    id,
    parent_id: directory.id,
    name,
    is_locked: 1,
    is_directory: 0,
    is_hidden: 0,
    apply_at_series_level: 1,
    expression: JSON.stringify(expression),
    sorting: JSON.stringify({ Type: 'Name', IsInverted: false }),
    directory_of: null,
    created_at: directory.created_at,
    updated_at: directory.updated_at,
  };
}

const yearChild = (directory: FilterRow, year: number) =>
  childRow(directory, yearId(year), String(year), { Type: 'InYear', Parameter: String(year) });
const seasonChild = (directory: FilterRow, year: number, season: number) =>
  childRow(directory, seasonId(year, season), `${SEASONS[season]} ${year}`, {
    Type: 'InSeason',
    Parameter: String(year),
    SecondParameter: SEASONS[season],
  });
const tagChild = (directory: FilterRow, tag: { id: number; name: string }) =>
  childRow(directory, tagId(tag.id), titleCase(tag.name.replace(/`/g, "'")), { Type: 'HasTag', Parameter: tag.name });

export const dynamicKindOf = (row: FilterRow): DynamicDirectory | null =>
  (DYNAMIC_DIRECTORIES as readonly string[]).includes(row.directory_of ?? '') ? (row.directory_of as DynamicDirectory) : null;

export class DynamicDirectories {
  constructor(private readonly store: FiltersStore) {}

  /** The last year a series can be listed in: next year (an end date far ahead is not a list of empty years). */
  private lastYear() {
    return new Date().getUTCFullYear() + 1;
  }

  /** The sub-filters of a computed directory the viewer's series fill, each with the number of their groups. */
  async children(directory: FilterRow, viewer: Viewer): Promise<DynamicChild[]> {
    const kind = dynamicKindOf(directory);
    if (kind === 'Tags')
      return (await this.store.seriesTagNames(viewer)).map((tag) => ({ row: tagChild(directory, tag), groups: tag.groups }));
    if (!kind) return [];
    const byKey = new Map<number, Set<number>>();
    const lastYear = this.lastYear();
    for (const { g, ...airSpan } of await this.store.seriesAirSpans(viewer, true)) {
      const span = spanOf(airSpan, lastYear);
      for (const key of kind === 'Years' ? span.years : span.seasons) {
        let groups = byKey.get(key);
        if (!groups) byKey.set(key, (groups = new Set()));
        groups.add(g!);
      }
    }
    return [...byKey].map(([key, groups]) => ({
      row: kind === 'Years' ? yearChild(directory, key) : seasonChild(directory, Math.floor(key / 4), key % 4),
      groups: groups.size,
    }));
  }

  /**
   * How many sub-filters children() lists, without counting their groups. `shared` carries what one listing of several
   * directories reads once: the Years and Seasons counts come from the same spans.
   */
  async count(directory: FilterRow, viewer: Viewer, shared: Map<string, Promise<unknown>> = new Map()): Promise<number> {
    const kind = dynamicKindOf(directory);
    if (kind === 'Tags') return this.store.seriesTagNameCount(viewer);
    if (!kind) return 0;
    let spans = shared.get('airSpans') as Promise<AirSpan[]> | undefined;
    if (!spans) shared.set('airSpans', (spans = this.store.seriesAirSpans(viewer, false)));
    const keys = new Set<number>();
    const lastYear = this.lastYear();
    for (const airSpan of await spans) {
      const span = spanOf(airSpan, lastYear);
      for (const key of kind === 'Years' ? span.years : span.seasons) keys.add(key);
    }
    return keys.size;
  }

  /** The computed sub-filter with this id, while its directory exists and the collection holds what it stands for. */
  async child(id: number): Promise<FilterRow | null> {
    const key = decode(id);
    if (!key) return null;
    const directory = await this.store.dynamicDirectory(key.kind);
    if (!directory) return null;
    if (key.kind === 'Tags') {
      const tag = await this.store.seriesTagName(key.tagId);
      return tag && tag.id === key.tagId ? tagChild(directory, tag) : null;
    }
    if (key.year > this.lastYear()) return null;
    const [start, end] =
      key.kind === 'Years'
        ? [`${key.year}-01-01`, `${key.year}-12-31`]
        : [`${key.year}-${SEASON_STARTS[key.season]}`, `${key.year}-${SEASON_ENDS[key.season]}`];
    if (!(await this.store.anySeriesAiredBetween(String(start).padStart(10, '0'), String(end).padStart(10, '0')))) return null;
    return key.kind === 'Years' ? yearChild(directory, key.year) : seasonChild(directory, key.year, key.season);
  }
}
