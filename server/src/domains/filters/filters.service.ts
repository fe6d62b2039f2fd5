/*
 * DESIGN — the filters domain: saved filters (presets, directories) and live filters (the Preview bodies), i.e. every
 * /api/v3/Filter/* route (filters.routes.ts). A filter expression is validated and compiled to SQL by
 * live-filters.ts (compiler/, catalogue in filter-catalogue.ts, regex/fuzzy nodes tested in a worker by shared/text-match.ts);
 * the compiled filter is executed by FiltersStore (filters.store.ts), which also keeps the presets. Matches become API
 * models through CollectionReads (the groups domain's BrowseStore, given at wiring); GroupsService uses `evaluate` for its lists and sub-groups under a
 * filter, so this service never imports groups' (filters.routes.ts calls GroupsService for a group's series/sub-groups).
 * A new collection's presets come from migration 0055 (db/collection-defaults.ts); the sub-filters of its Years, Seasons
 * and Tags directories are not stored but read from the collection at each request (dynamic-directories.ts).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  CreateOrUpdateFilterBody,
  Filter,
  FilterCondition,
  FilterExpressionHelp,
  Group,
  ListResult,
  Series,
  SortingCriteria,
} from '@shoko-ts/contract';
import { FieldErrorCollector, notFound, textError, validationError } from '../../http/problem.js';
import { letters, sortName } from '../../db/name-order.js';
import type { CollectionReads } from './collection-reads.js';
import type { Viewer } from '../../http/viewer.js';
import { EXPRESSIONS, helpEntry, sortingHelp } from './filter-catalogue.js';
import { normaliseCondition, normaliseSorting } from './compiler/index.js';
import type { FilterRow, FiltersStore } from './filters.store.js';
import { DynamicDirectories, dynamicKindOf, isDynamicChildId, type DynamicChild } from './dynamic-directories.js';
import { KeptFigures } from './kept-figures.js';
import { LiveFilterCompiler, type LiveFilter } from './live-filters.js';

export type { LiveFilter } from './live-filters.js';

/** A filter body as received: Expression and Sorting are checked node by node here. */
export type FilterBodyInput = Omit<CreateOrUpdateFilterBody, 'Expression' | 'Sorting'> & { Expression?: unknown; Sorting?: unknown };

export const FILTER_NOT_FOUND = 'No Filter entry for the given filterID';

export interface Paging {
  page: number;
  pageSize: number;
}

const slice = <T>(items: T[], { page, pageSize }: Paging) => (pageSize === 0 ? items : items.slice(pageSize * (page - 1), pageSize * page));

/** How long a counted filter Size is trusted when nothing changed. */
const SIZE_TTL_MS = 10 * 60_000;

/**
 * Filter presets and the evaluation of filter expressions. Evaluation compiles the expression to SQL (see
 * LiveFilterCompiler) and returns matching ids in sort order; only the requested page is turned into API models.
 */
export class FiltersService {
  private readonly dynamic: DynamicDirectories;
  private readonly compiler: LiveFilterCompiler;

  /**
   * Counted Sizes and computed sub-filters by viewer. Every list of filters counts each one (the presets alone are nine
   * collection queries), so they are kept until the collection or a watch state changes (`forgetKeptFigures`, on the
   * read cache's signals) or for SIZE_TTL_MS.
   */
  private readonly kept: KeptFigures;

  constructor(
    private readonly browse: CollectionReads,
    private readonly store: FiltersStore,
    private readonly now: () => number = Date.now,
  ) {
    this.dynamic = new DynamicDirectories(store);
    this.kept = new KeptFigures(SIZE_TTL_MS, now);
    this.compiler = new LiveFilterCompiler(browse, store);
  }

  /** The collection or a watch state changed: every kept Size and sub-filter is computed again when next asked for. */
  forgetKeptFigures(): void {
    this.kept.clear();
  }

  /**
   * Counts the top-level filters and computes the sub-filters of Years, Seasons and Tags for every account once the
   * server has started, so a first visit finds them ready. One figure at a time with `pause` (a turn of the event loop)
   * before each: on SQLite a figure's statements run synchronously and the promises between them resolve without
   * going back to the event loop, so a warm-up that never paused held every request until it ended (6-8 s after a
   * 100,000-file Shoko import, whose folder brings four accounts and Shoko's filters). Only the warm-up pauses: a
   * request computes its figures at once, or shares the computation of the one the warm-up is on.
   */
  async warmKeptFigures(pause: () => Promise<unknown> = () => nextTurn()): Promise<void> {
    const topLevel = await this.store.children(null);
    const directories = topLevel.filter((row) => dynamicKindOf(row));
    const options = { withConditions: false, includeEmptyGroups: true };
    for (const userId of await this.store.userIds()) {
      await pause();
      const viewer = await this.browse.viewer(userId);
      // As a list of the top level shows them (hidden ones are not counted), reading once what they share.
      const shared = new Map<string, Promise<unknown>>();
      for (const row of topLevel.filter((r) => !r.is_hidden)) {
        await pause();
        await this.toModel(row, viewer, options, undefined, shared);
      }
      for (const directory of directories) {
        await pause();
        await this.dynamicChildren(directory, viewer);
      }
    }
  }

  private dynamicChildren(directory: FilterRow, viewer: Viewer): Promise<DynamicChild[]> {
    const key = ['children', viewer.userId, viewer.restrictedTags.join(','), directory.id].join('|');
    return this.kept.get(key, () => this.dynamic.children(directory, viewer));
  }

  private keptSize(row: FilterRow, viewer: Viewer, includeEmptyGroups: boolean, count: () => Promise<number>): Promise<number> {
    const key = ['size', viewer.userId, viewer.restrictedTags.join(','), row.id, includeEmptyGroups, row.expression, row.is_directory];
    return this.kept.get(key.join('|'), count);
  }

  /** Validates a CreateOrUpdateFilterBody's expression and sorting (400 keyed Expression / Sorting). */
  parseLive(body: FilterBodyInput | null | undefined): LiveFilter {
    const errors = new FieldErrorCollector();
    const expression = normaliseCondition(body?.Expression, errors);
    const sorting = normaliseSorting(body?.Sorting, errors);
    errors.throwIfAny();
    const live = { applyAtSeriesLevel: !!body?.ApplyAtSeriesLevel, isDirectory: !!body?.IsDirectory, expression, sorting };
    this.compiler.check(live);
    return live;
  }

  /**
   * Matching ids in filter order: series ids (series level) or group ids at every level (group level), each with its
   * group (the series' group, or the group itself) and top-level group. `withinGroups` limits series-level evaluation to series of those groups.
   */
  async evaluate(
    live: LiveFilter,
    viewer: Viewer,
    options: { onlyWithFiles?: boolean; withinGroups?: number[] } = {},
  ): Promise<Array<{ id: number; group: number; top: number }>> {
    if (live.isDirectory) return [];
    const compiled = await this.compiler.compile(live, viewer, options);
    const rows = await this.store.matches(compiled);
    const tops = compiled.nested ? await this.browse.topGroups(rows.map((r) => r.gid)) : null;
    return rows.map((r) => ({ id: r.id, group: r.gid, top: tops?.get(r.gid) ?? r.gid }));
  }

  /**
   * One page of top-level groups and their total, paged inside the database: a match is lifted to its group's top-level
   * group there (in a flat collection that is its group), so the page never leaves SQL.
   */
  private async pagedTopGroups(
    live: LiveFilter,
    viewer: Viewer,
    paging: Paging,
    options: { includeEmpty: boolean },
  ): Promise<{ total: number; ids: number[] }> {
    if (live.isDirectory) return { total: 0, ids: [] };
    const compiled = await this.compiler.compile(live, viewer, { onlyWithFiles: !options.includeEmpty });
    return this.store.pageOfMatchingGroups(compiled, paging);
  }

  /**
   * Id, name and parent of the matching groups, in no order: the group-level matches themselves, or with `lift` the
   * top-level groups of the matches. One query, but for the groups of series-level matches in a nested collection
   * without `lift`, read here.
   */
  async matchingGroups(
    live: LiveFilter,
    viewer: Viewer,
    options: { includeEmpty: boolean; lift: boolean },
  ): Promise<Array<{ id: number; name: string; parent_id: number | null }>> {
    if (live.isDirectory) return [];
    const compiled = await this.compiler.compile(live, viewer, { onlyWithFiles: !options.includeEmpty });
    const rows = await this.store.matchingGroupRows(compiled, options.lift);
    if (rows) return rows;
    const matches = await this.store.matches(compiled);
    const tops = options.lift ? await this.browse.topGroups(matches.map((m) => m.gid)) : null;
    const ids = [...new Set(matches.map((m) => tops?.get(m.gid) ?? m.gid))];
    return ids.length ? this.browse.groupsByIds(ids) : [];
  }

  /** Top-level groups of the matches, first occurrence keeping its position, or by upper-cased name then id. */
  async matchingTopGroups(live: LiveFilter, viewer: Viewer, options: { includeEmpty: boolean; orderByName?: boolean }): Promise<number[]> {
    if (options.orderByName) {
      const named = (await this.matchingGroups(live, viewer, { includeEmpty: options.includeEmpty, lift: true })).map((g) => ({
        id: g.id,
        key: g.name.toUpperCase(),
      }));
      return named.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id)).map((g) => g.id);
    }
    const matches = await this.evaluate(live, viewer, { onlyWithFiles: !options.includeEmpty });
    return [...new Set(matches.map((m) => m.top))];
  }

  /**
   * A page of the matching groups (with `lift`: the top-level groups of the matches; with `topLevelOnly`: only those
   * without a parent) by sort name then id, and their total, read as a range of the order-key index. Null when the
   * collection is nested and lifting needs the group tree.
   */
  async groupPageByName(
    live: LiveFilter,
    viewer: Viewer,
    options: { includeEmpty: boolean; lift: boolean; topLevelOnly: boolean; page: number; pageSize: number },
  ): Promise<{ total: number; ids: number[] } | null> {
    if (live.isDirectory) return { total: 0, ids: [] };
    const compiled = await this.compiler.compile(live, viewer, { onlyWithFiles: !options.includeEmpty });
    return this.store.pageOfGroupsByName(compiled, options);
  }

  /** As groupPageByName, counted by the first character of the sort names; null when the tree is needed. */
  async groupLettersByName(
    live: LiveFilter,
    viewer: Viewer,
    options: { includeEmpty: boolean; lift: boolean; topLevelOnly: boolean },
  ): Promise<Record<string, number> | null> {
    if (live.isDirectory) return {};
    const compiled = await this.compiler.compile(live, viewer, { onlyWithFiles: !options.includeEmpty });
    return this.store.groupLettersByName(compiled, options);
  }

  /** Top-level groups of a filter's matches counted by the first character of their sort names. */
  async groupLetters(live: LiveFilter, viewer: Viewer, includeEmpty: boolean): Promise<Record<string, number>> {
    const counted = await this.groupLettersByName(live, viewer, { includeEmpty, lift: true, topLevelOnly: false });
    if (counted) return counted;
    const rows = await this.matchingGroups(live, viewer, { includeEmpty, lift: true });
    return letters(rows.map((g) => sortName(g.name)));
  }

  async previewGroups(
    live: LiveFilter,
    viewer: Viewer,
    paging: Paging,
    options: { includeEmpty: boolean; orderByName?: boolean },
  ): Promise<ListResult<Group>> {
    const paged = options.orderByName ? null : await this.pagedTopGroups(live, viewer, paging, options);
    if (paged) return { Total: paged.total, List: await this.browse.groupModels(paged.ids, viewer) };
    const ids = await this.matchingTopGroups(live, viewer, options);
    return { Total: ids.length, List: await this.browse.groupModels(slice(ids, paging), viewer) };
  }

  /** Matching series ids: by name (Preview/Series) or in the filter's own order (`keepOrder`, Preview/Series/OnlyIDs). */
  async previewSeriesIds(live: LiveFilter, viewer: Viewer, options: { includeMissing: boolean; keepOrder?: boolean }): Promise<number[]> {
    if (live.applyAtSeriesLevel) {
      const ordered: LiveFilter = options.keepOrder ? live : { ...live, sorting: { Type: 'Name', IsInverted: false } };
      return (await this.evaluate(ordered, viewer, { onlyWithFiles: !options.includeMissing })).map((m) => m.id);
    }
    const groups = await this.evaluate(live, viewer, { onlyWithFiles: !options.includeMissing });
    const groupIds = groups.map((g) => g.id);
    return (
      await this.evaluate({ applyAtSeriesLevel: true, isDirectory: false, expression: null, sorting: null }, viewer, {
        withinGroups: groupIds,
        onlyWithFiles: !options.includeMissing,
      })
    ).map((m) => m.id);
  }

  async previewSeries(live: LiveFilter, viewer: Viewer, paging: Paging, options: { includeMissing: boolean }): Promise<ListResult<Series>> {
    if (live.applyAtSeriesLevel && !live.isDirectory) {
      // By name, as previewSeriesIds orders them: only the page is read.
      const compiled = await this.compiler.compile(live, viewer, { onlyWithFiles: !options.includeMissing });
      const { total, ids } = await this.store.pageOfSeriesByName(compiled, paging);
      return { Total: total, List: await this.browse.seriesModels(ids, viewer) };
    }
    const ids = await this.previewSeriesIds(live, viewer, options);
    return { Total: ids.length, List: await this.browse.seriesModels(slice(ids, paging), viewer) };
  }

  /** Series of one group under a live filter (contract §7.7): group-level filters are not evaluated. */
  async previewGroupSeries(
    groupId: number,
    live: LiveFilter,
    viewer: Viewer,
    options: { recursive: boolean; includeMissing: boolean; includeAniDB: boolean; includeTMDB: boolean },
  ): Promise<Series[]> {
    let ids: number[];
    if (!live.applyAtSeriesLevel) {
      ids = await this.browse.groupSeriesIds(groupId, options.recursive, viewer);
    } else {
      const direct = (await this.evaluate(live, viewer, { withinGroups: [groupId] })).map((m) => m.id);
      if (direct.length || !options.recursive) ids = direct;
      else {
        const tree = (await this.browse.descendants([groupId])).get(groupId)!.filter((id) => id !== groupId);
        ids = (await this.evaluate(live, viewer, { withinGroups: tree })).map((m) => m.id);
      }
    }
    const models = await this.browse.seriesModels(ids, viewer, { includeAniDB: options.includeAniDB, includeTMDB: options.includeTMDB });
    return options.includeMissing ? models : models.filter((s) => s.Size > 0);
  }

  /** The catalogue with the options the current collection offers. */
  async expressions(viewer: Viewer): Promise<FilterExpressionHelp[]> {
    const options = await this.store.expressionOptions();
    const { customTags, years, releaseGroups, tmdbImageTypes, anidbPoster } = options;
    // A restricted account is offered only the tags of series it may see: the others would name what is hidden from it.
    const tags = viewer.restrictedTags.length ? await this.store.seriesTagNames(viewer) : options.tags;
    const imageTypes = ['Poster', 'Backdrop', 'Banner', 'Logo'].filter(
      (type) => (type === 'Poster' && anidbPoster) || tmdbImageTypes.some((t) => t.image_type === type),
    );
    const yearSet = new Set<number>();
    const thisYear = new Date().getUTCFullYear();
    for (const row of years) {
      const start = Number(row.air_date!.slice(0, 4));
      const end = Math.min(Number((row.end_date ?? row.air_date!).slice(0, 4)), thisYear + 1);
      for (let y = start; y <= Math.max(start, end) && y - start < 50; y++) yearSet.add(y);
    }
    const sortedYears = [...yearSet].sort((a, b) => a - b).map(String);
    const seasons = sortedYears.flatMap((y) => ['Winter', 'Spring', 'Summer', 'Fall'].map((s) => [y, s]));
    const dynamic: Record<string, { parameters?: string[]; pairs?: string[][] }> = {
      HasTag: { parameters: [...new Set(tags.map((t) => t.name.replace(/`/g, "'")))] },
      HasCustomTag: { parameters: [...new Set(customTags.map((t) => t.name))] },
      InYear: { parameters: sortedYears },
      InSeason: { pairs: seasons },
      HasReleaseGroupName: { parameters: [...new Set(releaseGroups.map((g) => g.name))] },
      HasAvailableImage: { parameters: imageTypes },
      HasPreferredImage: { parameters: imageTypes },
    };
    return EXPRESSIONS.map((spec) => helpEntry(spec, dynamic[spec.id]));
  }

  sortingCriteria() {
    return sortingHelp();
  }

  // ---------------------------------------------------------------- presets

  /**
   * A filter's model; `knownSize` when its Size was counted with others (the sub-filters of a computed directory),
   * `shared` what the models of one list read once (see DynamicDirectories.count).
   */
  private async toModel(
    row: FilterRow,
    viewer: Viewer,
    options: { withConditions: boolean; includeEmptyGroups: boolean },
    knownSize?: number,
    shared?: Map<string, Promise<unknown>>,
  ): Promise<Filter> {
    const live = this.rowLive(row);
    const size =
      knownSize ??
      (await this.keptSize(row, viewer, options.includeEmptyGroups, async () =>
        row.is_directory
          ? dynamicKindOf(row)
            ? this.dynamic.count(row, viewer, shared)
            : this.store.childCount(row.id)
          : (await this.matchingGroups(live, viewer, { includeEmpty: options.includeEmptyGroups, lift: true })).length,
      ));
    const filter: Filter = {
      IDs: row.parent_id ? { ID: row.id, ParentFilter: row.parent_id } : { ID: row.id },
      Name: row.name,
      Size: size,
      IsLocked: !!row.is_locked,
      IsDirectory: !!row.is_directory,
      IsHidden: !!row.is_hidden,
      ApplyAtSeriesLevel: !!row.apply_at_series_level,
    };
    if (options.withConditions) {
      if (live.expression) filter.Expression = live.expression;
      if (live.sorting) filter.Sorting = live.sorting;
    }
    return filter;
  }

  rowLive(row: FilterRow): LiveFilter {
    return {
      applyAtSeriesLevel: !!row.apply_at_series_level,
      isDirectory: !!row.is_directory,
      expression: row.expression ? (JSON.parse(row.expression) as FilterCondition) : null,
      sorting: row.sorting ? (JSON.parse(row.sorting) as SortingCriteria) : null,
    };
  }

  /** A saved filter's conditions, or (id 0) no filter at all, evaluated per group or per series. */
  async savedOrNone(id: number, applyAtSeriesLevel = false): Promise<LiveFilter> {
    if (id === 0) return { applyAtSeriesLevel, isDirectory: false, expression: null, sorting: null };
    return this.rowLive(await this.row(id));
  }

  /** GET Filter/{id}/Parent: the direct parent or the top-level ancestor (contract §4.14). */
  async parent(
    id: number,
    viewer: Viewer,
    options: { topLevel: boolean; withConditions: boolean; includeEmptyGroups: boolean },
  ): Promise<Filter> {
    const row = await this.row(id);
    if (row.parent_id === null) throw validationError('filterID', 'Unable to get parent Filter for a top level Filter.');
    const chain = [id, ...(await this.store.ancestors(row.parent_id))];
    const parent = await this.store.get(options.topLevel ? chain[chain.length - 1] : row.parent_id);
    if (!parent || parent.id === id || (options.topLevel && parent.parent_id !== null)) throw textError(500, 'Unable to get parent Filter');
    return this.toModel(parent, viewer, options);
  }

  /** GET Filter/{id}/Filter: a directory's sub-filters, without those named after a tag hidden from the viewer. */
  async children(id: number, viewer: Viewer, options: Paging & { showHidden: boolean }): Promise<ListResult<Filter>> {
    const parent = await this.row(id);
    if (!parent.is_directory) return { Total: 0, List: [] };
    const hiddenNames = (await this.store.anidbTagNames(viewer.restrictedTags)).map((name) => name.toLowerCase());
    const listOptions = { ...options, includeEmpty: true, includeEmptyGroups: true, withConditions: false, hiddenNames };
    if (!dynamicKindOf(parent)) return this.list(parent.id, viewer, listOptions);
    // Computed sub-filters come with their group counts, all read at once.
    const children = (await this.dynamicChildren(parent, viewer))
      .filter((c) => !hiddenNames.includes(c.row.name.toLowerCase()))
      .sort((a, b) => (a.row.name < b.row.name ? -1 : a.row.name > b.row.name ? 1 : a.row.id - b.row.id));
    const page = slice(children, options);
    return { Total: children.length, List: await Promise.all(page.map((c) => this.toModel(c.row, viewer, listOptions, c.groups))) };
  }

  /** A stored filter, or a sub-filter computed from the collection (dynamic-directories.ts). */
  async row(id: number): Promise<FilterRow> {
    const row = isDynamicChildId(id) ? await this.dynamic.child(id) : await this.store.get(id);
    if (!row) throw notFound(FILTER_NOT_FOUND);
    return row;
  }

  async list(
    parentId: number | null,
    viewer: Viewer,
    options: Paging & {
      includeEmpty: boolean;
      includeEmptyGroups: boolean;
      showHidden: boolean;
      withConditions: boolean;
      hiddenNames?: string[];
    },
  ): Promise<ListResult<Filter>> {
    const rows = (await this.store.children(parentId))
      .filter((r) => options.showHidden || !r.is_hidden)
      .filter((r) => !options.hiddenNames?.includes(r.name.toLowerCase()));
    const shared = new Map<string, Promise<unknown>>();
    let models = await Promise.all(rows.map((r) => this.toModel(r, viewer, options, undefined, shared)));
    if (!options.includeEmpty) models = models.filter((m) => m.Size > 0);
    return { Total: models.length, List: slice(models, options) };
  }

  async get(id: number, viewer: Viewer, options: { withConditions: boolean; includeEmptyGroups: boolean }): Promise<Filter> {
    return this.toModel(await this.row(id), viewer, options);
  }

  async save(existingId: number | null, body: FilterBodyInput, viewer: Viewer): Promise<Filter> {
    const existing = existingId === null ? null : await this.row(existingId);
    const errors = new FieldErrorCollector();
    if (existing?.is_locked) errors.add('IsLocked', 'Locked filters cannot be edited.');
    const name = (body.Name ?? existing?.name ?? '').trim();
    if (!name) errors.add('Name', 'The Name field is required.');
    const parentId = body.ParentID === undefined ? (existing?.parent_id ?? null) : body.ParentID || null;
    if (parentId !== null) {
      const parent = await this.store.get(parentId);
      if (!parent) errors.add('ParentID', `No filter with ID ${parentId}.`);
      else if (!parent.is_directory) errors.add('ParentID', 'The parent filter is not a directory.');
      else if (parent.is_locked) errors.add('ParentID', 'The parent filter is locked.');
      else if (existingId !== null && (await this.store.ancestors(parentId)).includes(existingId))
        errors.add('ParentID', 'A filter cannot be moved below itself.');
    }
    const isDirectory = body.IsDirectory ?? false;
    if (isDirectory && body.Expression) errors.add('Expression', 'Directory filters cannot have an expression.');
    if (isDirectory && body.Sorting) errors.add('Sorting', 'Directory filters cannot have a sorting.');
    if (existing?.is_directory && !isDirectory && (await this.store.childCount(existing.id)) > 0)
      errors.add('IsDirectory', 'A directory with sub-filters cannot become a filter.');
    const expression = normaliseCondition(body.Expression, errors);
    const sorting = normaliseSorting(body.Sorting, errors);
    errors.throwIfAny();
    const live: LiveFilter = {
      applyAtSeriesLevel: !!body.ApplyAtSeriesLevel,
      isDirectory,
      expression: isDirectory ? null : (expression ?? (existing ? this.rowLive(existing).expression : null)),
      sorting: isDirectory ? null : (sorting ?? (existing ? this.rowLive(existing).sorting : null)),
    };
    this.compiler.check(live);
    const values = {
      parent_id: parentId,
      name,
      is_directory: isDirectory ? 1 : 0,
      is_hidden: body.IsHidden ? 1 : 0,
      apply_at_series_level: live.applyAtSeriesLevel ? 1 : 0,
      expression: live.expression ? JSON.stringify(live.expression) : null,
      sorting: live.sorting ? JSON.stringify(live.sorting) : null,
    };
    const id = existing ? (await this.store.update(existing.id, values), existing.id) : await this.store.insert(values);
    return this.get(id, viewer, { withConditions: true, includeEmptyGroups: true });
  }

  /** The JSON Patch target of a filter (contract §7.4): directories without Expression/Sorting. */
  async asBody(id: number): Promise<CreateOrUpdateFilterBody> {
    const row = await this.row(id);
    const live = this.rowLive(row);
    return {
      Name: row.name,
      ParentID: row.parent_id,
      IsDirectory: !!row.is_directory,
      IsHidden: !!row.is_hidden,
      ApplyAtSeriesLevel: live.applyAtSeriesLevel,
      ...(row.is_directory ? {} : { Expression: live.expression, Sorting: live.sorting }),
    };
  }

  async delete(id: number): Promise<void> {
    await this.row(id);
    if (isDynamicChildId(id))
      throw validationError('filterID', 'This filter is computed from the collection and cannot be deleted; its directory can.');
    await this.store.delete(id);
  }
}
