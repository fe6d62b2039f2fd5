import { PostgresAdapter, sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { FILE_SORT_CRITERIA, type FileExcludeType, type FileIncludeOnlyType, type FileIncludeType } from '@shoko-ts/contract';
import type { DialectName } from '../../db/database.js';
import { keyedFileCount, type FileKeyCondition } from '../../db/file-key-counts.js';
import { byIds, inTexts } from '../../db/shared-queries.js';
import type { Database, FileLocationsTable, FilesTable, ImportFoldersTable } from '../../db/schema.js';
import type { FileRow } from './files.store.js';

export interface FileFilter {
  include: FileIncludeType[];
  exclude: FileExcludeType[];
  includeOnly: FileIncludeOnlyType[];
  /** Case-insensitive text in a relative path (`_` and `-` count as spaces); results ordered by where it matches. */
  search?: string;
  /** Only these contents (`ed2k:size`). */
  contents?: Set<string>;
  /**
   * AniDB tag ids hidden from the viewer (their restrictions): files linked to an anime carrying one are left out.
   * Empty or absent for a viewer without restrictions, whose list reads no tag at all.
   */
  hiddenTags?: number[];
}

/** The list's order when none is asked: import folder name, then relative path (FILE_SORT_CRITERIA 1 and 4). */
const DEFAULT_ORDER = ['1', '4'];

/** The include_only / exclude values the key flags answer. */
const KEYED_CONDITIONS = new Set<string>(['Ignored', 'Unrecognized', 'ManualLinks']);

type KeyColumn = 'folder_name' | 'file_name' | 'relative_path';
interface KeyedPlan {
  conditions: FileKeyCondition[];
  order: KeyColumn[] | 'id' | '-id';
}

/** The orders the keys give, by criterion names: the console's, the default one and by id either way. */
const KEYED_ORDERS: Record<string, KeyedPlan['order']> = {
  'ImportFolderName,FileName,RelativePath': ['folder_name', 'file_name', 'relative_path'],
  'ImportFolderName,RelativePath': ['folder_name', 'relative_path'],
  FileID: 'id',
  '-FileID': '-id',
};

type FileId = { id: number };

interface Tables {
  f: FilesTable;
  fl: FileLocationsTable;
  fo: ImportFoldersTable;
}
type Query = SelectQueryBuilder<Tables, 'f' | 'fl' | 'fo', object>;

/**
 * `_`/`-` → space, runs of spaces → one (three halving passes cover runs of up to eight, e.g. ` - ` → ` `) and lower
 * case, as the search needle is normalised.
 */
const normalisedPath = (column: string) => {
  let expression = sql<string>`replace(replace(${sql.ref(column)}, '_', ' '), '-', ' ')`;
  for (let pass = 0; pass < 3; pass++) expression = sql<string>`replace(${expression}, '  ', ' ')`;
  return sql<string>`lower(${expression})`;
};

/**
 * SQL of the Files API's file list: filters, search and sort run in the database, and only the requested page
 * is read, so a page costs the same with 100 files or 100,000.
 */
export class FileListStore {
  private readonly dialect: DialectName;

  constructor(private readonly db: Kysely<Database>) {
    this.dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
  }

  /** The ids of a page of the list (every id for `pageSize` 0) in its order, and the list's Total. */
  async pageIds(
    filter: FileFilter,
    sortOrder: string[],
    page: { page: number; pageSize: number },
  ): Promise<{ total: number; ids: number[] }> {
    if (filter.includeOnly.some((only) => only === 'ImportLimbo' || only === 'Watched')) return { total: 0, ids: [] };
    const needle = filter.search?.trim().toLowerCase().replace(/[_-]/g, ' ').replace(/\s+/g, ' ');
    const keyed = needle === undefined ? this.keyedPlan(filter, sortOrder.length ? sortOrder : DEFAULT_ORDER) : null;
    if (keyed) return this.keyedPage(keyed, page, filter.hiddenTags ?? []);
    const byCreation = needle === undefined ? this.creationPlan(filter, sortOrder) : null;
    if (byCreation) return this.creationPage(byCreation, page);
    if (needle && !sortOrder.length) return this.searchPage(filter, needle, page);
    const base = this.filtered(filter, needle);
    const order = sortOrder.length || needle !== undefined ? sortOrder : DEFAULT_ORDER;
    if (page.pageSize === 0) {
      // The whole list: its length is the Total (the location joins are one row per file), no count needed.
      const ids = await this.orderedIds(base, order);
      return { total: ids.length, ids };
    }
    // Every condition reads the file alone, so the count needs no location join.
    const { count } = await base.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const total = Number(count);
    if (!total) return { total, ids: [] };
    return { total, ids: await this.orderedIds(base, order, page) };
  }

  /** The ids of the filtered files in the order, a page of them when asked. */
  private async orderedIds(base: Query, sortOrder: string[], page?: { page: number; pageSize: number }) {
    let ordered = this.sorted(this.withFirstLocation(base), sortOrder);
    if (page) ordered = ordered.limit(page.pageSize).offset((page.page - 1) * page.pageSize);
    // The sort carries ids only; the page's rows (media info and all) are read afterwards by id.
    return (await ordered.select('f.id').execute()).map((r) => (r as { id: number }).id);
  }

  /**
   * The files of a series' episodes as (episode, file) pairs, in the list's default order, ignored files and those
   * hidden from the viewer left out: what the list of each episode's contents holds, read from the series' episodes
   * in one statement instead of the contents' hashes bound as values (a 1,500-episode series binds 3,500 of them).
   */
  async seriesEpisodeFiles(seriesId: number, hiddenTags: number[]): Promise<Array<{ episode_id: number; id: number }>> {
    const files = this.sorted(
      this.withFirstLocation(this.filtered({ include: [], exclude: [], includeOnly: [], hiddenTags }, undefined)),
      DEFAULT_ORDER,
    ) as unknown as SelectQueryBuilder<Database & { f: FilesTable }, 'f', object>;
    return files
      .innerJoin('file_episode_links as l', (join) => join.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .innerJoin('episodes as e', 'e.anidb_episode_id', 'l.episode_id')
      .where('e.series_id', '=', seriesId)
      .select(['e.id as episode_id', 'f.id'])
      .execute();
  }

  /** The files of `ids`, in that order. */
  async rowsByIds(ids: number[]): Promise<FileRow[]> {
    const files = () => this.db.selectFrom('files').selectAll();
    const rows = await byIds(
      ids,
      (row) => row.id,
      (slice) => files().where('id', 'in', slice).execute(),
      () => files().execute(),
    );
    const byId = new Map(rows.map((row) => [row.id, row as FileRow]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * How the maintained keys (file_sort_keys, migrations 0032 and 0036) answer the request on their own: the key
   * flags its conditions read and the key columns of its order. Null when the request needs anything else (another
   * condition, a series' or episode's contents, another order), which the general path answers.
   */
  private keyedPlan(filter: FileFilter, sortOrder: string[]): KeyedPlan | null {
    if (filter.contents) return null;
    const only = new Set(filter.includeOnly);
    const exclude = new Set(filter.exclude);
    // Watched has no condition in the list (include_only=Watched answers nothing, above); the rest must be key flags.
    if ([...only].some((o) => !KEYED_CONDITIONS.has(o)) || [...exclude].some((e) => e !== 'Watched' && !KEYED_CONDITIONS.has(e)))
      return null;
    const conditions: KeyedPlan['conditions'] = [];
    if (only.has('Ignored')) conditions.push(['is_ignored', 1]);
    else if (!filter.include.includes('Ignored')) conditions.push(['is_ignored', 0]);
    if (only.has('Unrecognized')) conditions.push(['is_linked', 0]);
    if (exclude.has('Unrecognized')) conditions.push(['is_linked', 1]);
    if (only.has('ManualLinks')) conditions.push(['has_manual_link', 1]);
    if (exclude.has('ManualLinks')) conditions.push(['has_manual_link', 0]);
    const order = KEYED_ORDERS[criterionNames(sortOrder).join(',')];
    return order ? { conditions, order } : null;
  }

  /**
   * The newest (or oldest) files, File Search's list before anything is typed: when the request asks for nothing but
   * the ignored flag and the order is CreatedAt alone, a walk of files_created (migration 0058) in place of sorting
   * every file with its location (100-250 ms at 100,000 files). Null otherwise.
   */
  private creationPlan(filter: FileFilter, sortOrder: string[]): { descending: boolean; withIgnored: boolean } | null {
    if (filter.contents || filter.hiddenTags?.length || filter.includeOnly.length) return null;
    if (filter.exclude.some((e) => e !== 'Watched')) return null;
    const names = criterionNames(sortOrder);
    if (names.length !== 1 || names[0].replace(/^-/, '') !== 'CreatedAt') return null;
    return { descending: names[0].startsWith('-'), withIgnored: filter.include.includes('Ignored') };
  }

  /** A page by creation time (never null), ties by id as the general order has them; the Total from the key counts. */
  private async creationPage(
    plan: { descending: boolean; withIgnored: boolean },
    page: { page: number; pageSize: number },
  ): Promise<{ total: number; ids: number[] }> {
    const total = await keyedFileCount(this.db, this.dialect, plan.withIgnored ? [] : [['is_ignored', 0]]);
    if (!total) return { total, ids: [] };
    let q = this.db
      .selectFrom('files as f')
      .select('f.id')
      .orderBy('f.created_at', plan.descending ? 'desc' : 'asc')
      .orderBy('f.id', 'asc');
    if (!plan.withIgnored) q = q.where('f.is_ignored', '=', 0);
    if (page.pageSize > 0) q = q.limit(page.pageSize).offset((page.page - 1) * page.pageSize);
    return { total, ids: (await q.execute()).map((row) => row.id) };
  }

  /**
   * A search in its own order (where the text first appears in any of a file's paths, then id): each matching file's
   * first position is computed once from its matching locations, and the files that pass the filters are ordered by
   * it, Total as a window count, in one statement. The filters are asked of each matching file by its id (a
   * correlated lookup; PostgreSQL would otherwise hash every row of the wide files table for a few thousand matches).
   */
  private async searchPage(filter: FileFilter, needle: string, page: { page: number; pageSize: number }) {
    const passing = this.passingMatch(filter);
    let matches = this.db.selectFrom(this.matchPositions(needle).as('m'));
    if (passing) matches = matches.where(passing);
    if (page.pageSize === 0) {
      const rows = await matches.select('m.file_id as id').orderBy('m.position').orderBy('m.file_id').execute();
      return { total: rows.length, ids: rows.map((row) => row.id) };
    }
    const rows = await matches
      .select(['m.file_id as id', sql<number>`count(*) over ()`.as('total')])
      .orderBy('m.position')
      .orderBy('m.file_id')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute();
    if (rows.length) return { total: Number(rows[0].total), ids: rows.map((row) => row.id) };
    if (page.page === 1) return { total: 0, ids: [] };
    const { count } = await matches.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return { total: Number(count), ids: [] };
  }

  /**
   * The search's filters as a condition on each matching file `m.file_id` (null: every file passes). When they ask
   * nothing but the ignored flag (File Search as the console sends it), the few ignored files are read once from the
   * sort keys (kept with the files by triggers) and the matches are checked against that set: PostgreSQL spent 40 of
   * 95 ms looking up each of the ~7,200 matches of a word in the files table. Otherwise each match is looked up.
   */
  private passingMatch(filter: FileFilter): Expression<SqlBool> | null {
    const flagOnly =
      !filter.includeOnly.length && !filter.contents && !filter.hiddenTags?.length && filter.exclude.every((e) => e === 'Watched');
    if (flagOnly) {
      if (filter.include.includes('Ignored')) return null;
      return sql<SqlBool>`${sql.ref('m.file_id')} not in (select ik.file_id from file_sort_keys ik where ik.is_ignored = 1)`;
    }
    const passing = (this.filtered(filter, undefined) as unknown as SelectQueryBuilder<Database & { f: FilesTable }, 'f', object>)
      .select('f.id')
      .where('f.id', '=', sql.ref<number>('m.file_id'));
    return sql<SqlBool>`(${passing}) is not null`;
  }

  /**
   * A location's normalised path: PostgreSQL keeps it as a stored column (migration 0062_file_search_path, which its
   * trigram index is over), SQLite computes it (its trigram table of 0036 names the candidates first).
   */
  private searchPath(alias: string) {
    return this.dialect === 'postgres' ? sql.ref<string>(`${alias}.search_path`) : normalisedPath(`${alias}.relative_path`);
  }

  /**
   * Each file with a location whose normalised path holds `needle`, and the first place it appears there (1-based).
   * SQLite reads the normalised paths the trigram table keeps (migration 0036_file_search: its LIKE names the candidate
   * rows, `instr` is the exact test; FTS5's LIKE knows no escape, so a text with `%` or `\` scans the locations);
   * PostgreSQL's LIKE over the stored normalised path (0062) reads its trigram index.
   */
  private matchPositions(needle: string) {
    if (this.dialect === 'sqlite' && !/[%\\]/.test(needle)) {
      const position = sql<number>`instr(${sql.ref('x.search_path')}, ${needle})`;
      return this.db
        .selectFrom('file_location_search as x')
        .innerJoin('file_locations as s', 's.id', 'x.rowid')
        .where('x.search_path', 'like', `%${needle}%`)
        .where(position, '>', 0)
        .groupBy('s.file_id')
        .select(['s.file_id', sql<number>`min(${position})`.as('position')]);
    }
    const path = this.searchPath('s');
    const position = this.dialect === 'postgres' ? sql<number>`strpos(${path}, ${needle})` : sql<number>`instr(${path}, ${needle})`;
    const condition =
      this.dialect === 'postgres' ? sql<SqlBool>`${path} like ${`%${escapeLike(needle)}%`} escape '\\'` : sql<SqlBool>`${position} > 0`;
    return this.db
      .selectFrom('file_locations as s')
      .where(condition)
      .groupBy('s.file_id')
      .select(['s.file_id', sql<number>`min(${position})`.as('position')]);
  }

  /**
   * A page in a keyed order: an index range over file_sort_keys (files without a location last in the path orders).
   * For a viewer with hidden tags the range skips their files and the maintained count loses those of them the
   * conditions keep.
   */
  private async keyedPage(
    plan: KeyedPlan,
    page: { page: number; pageSize: number },
    hiddenTags: number[],
  ): Promise<{ total: number; ids: number[] }> {
    let base = this.db.selectFrom('file_sort_keys as k');
    // Literal values, so both databases can use the partial indexes (`is_linked = 0`, `has_manual_link = 1`).
    for (const [column, value] of plan.conditions) base = base.where(`k.${column}`, '=', sql.lit(value));
    let total = await keyedFileCount(this.db, this.dialect, plan.conditions);
    if (total && hiddenTags.length) {
      const hidden = await base
        .where(sql<SqlBool>`${sql.ref('k.file_id')} in (${this.hiddenFileIds(hiddenTags)})`)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      total -= Number(hidden.count);
    }
    if (!total) return { total, ids: [] };
    const columns = plan.order === 'id' || plan.order === '-id' ? ['file_id'] : ['no_location', ...plan.order, 'file_id'];
    const direction = plan.order === '-id' ? 'desc' : 'asc';
    const inOrder = <Q extends { orderBy: (expression: Expression<unknown>, direction: 'asc' | 'desc') => Q }>(q: Q, alias: string) =>
      columns.reduce((ordered, column) => ordered.orderBy(sql.ref(`${alias}.${column}`), direction), q);
    const paged = <Q extends { limit(n: number): Q; offset(n: number): Q }>(q: Q) =>
      page.pageSize > 0 ? q.limit(page.pageSize).offset((page.page - 1) * page.pageSize) : q;
    let rows: Array<{ id: number }>;
    if (hiddenTags.length && this.dialect === 'postgres') {
      // PostgreSQL guesses that the hidden files are half of all and would sort the whole table for a deep page; read
      // the index in order first (OFFSET 0 keeps the subquery apart) and leave the hidden files out of that stream.
      const keyed = inOrder(base.select(columns.map((column) => sql.ref(`k.${column}`).as(column))), 'k').offset(0);
      const visible = this.db
        .selectFrom(keyed.as('o'))
        .select(sql<number>`${sql.ref('o.file_id')}`.as('id'))
        .where(this.notHidden('o.file_id', hiddenTags));
      rows = await paged(inOrder(visible, 'o')).execute();
    } else {
      if (hiddenTags.length) base = base.where(this.notHidden('k.file_id', hiddenTags));
      rows = await paged(inOrder(base.select('k.file_id as id'), 'k')).execute();
    }
    const ids = rows.map((r) => r.id);
    return { total, ids };
  }

  /** The files linked to an anime carrying one of `hiddenTags`, in one query. */
  async hiddenFiles(hiddenTags: number[]): Promise<Set<number>> {
    if (!hiddenTags.length) return new Set();
    const { rows } = await this.hiddenFileIds(hiddenTags).execute(this.db);
    return new Set(rows.map((row) => row.id));
  }

  /**
   * The ids of the files linked to an anime with one of the tags: tag → anime → links → files, each step by an
   * index, computed once per query (not per file).
   */
  private hiddenFileIds(hiddenTags: number[]) {
    return sql<FileId>`select hf.id from anidb_anime_tags ht join file_episode_links hl on hl.anime_id = ht.anime_id join files hf on hf.ed2k = hl.ed2k and hf.size = hl.size where ht.tag_id in (${sql.join(hiddenTags)})`;
  }

  /**
   * SQL condition: the file `idColumn` is not linked to an anime with a hidden tag. Both databases compute the hidden
   * set once per query (SQLite as a temporary index, PostgreSQL as a hashed subplan: its estimate of the join on
   * ed2k and size is small, so the set is hashed); NOT EXISTS would let PostgreSQL choose a nested anti-join that
   * scans the whole set for every file.
   */
  private notHidden(idColumn: string, hiddenTags: number[]) {
    return sql<SqlBool>`${sql.ref(idColumn)} not in (${this.hiddenFileIds(hiddenTags)})`;
  }

  /** The first location (lowest id) of each file, as the maintained keys name it, and its folder: what sorts read. */
  private withFirstLocation(q: Query): Query {
    return (q as unknown as SelectQueryBuilder<Database & { f: FilesTable }, 'f', object>)
      .leftJoin('file_sort_keys as k', 'k.file_id', 'f.id')
      .leftJoin('file_locations as fl', 'fl.id', 'k.location_id')
      .leftJoin('import_folders as fo', 'fo.id', 'fl.import_folder_id') as unknown as Query;
  }

  private filtered(filter: FileFilter, needle: string | undefined): Query {
    const only = new Set(filter.includeOnly);
    const exclude = new Set(filter.exclude);
    let q = this.db.selectFrom('files as f') as unknown as Query;
    if (filter.hiddenTags?.length) q = q.where(this.notHidden('f.id', filter.hiddenTags));

    if (only.has('Ignored')) q = q.where('f.is_ignored', '=', 1);
    else if (!filter.include.includes('Ignored')) q = q.where('f.is_ignored', '=', 0);
    if (only.has('Variations')) q = q.where('f.is_variation', '=', 1);
    if (exclude.has('Variations')) q = q.where('f.is_variation', '=', 0);
    const locationCount = sql<number>`(select count(*) from file_locations c where c.file_id = ${sql.ref('f.id')})`;
    if (only.has('Duplicates')) q = q.where(locationCount, '>', 1);
    if (exclude.has('Duplicates')) q = q.where(locationCount, '<=', 1);
    const linked = (source?: 'User') =>
      sql<SqlBool>`exists (select 1 from file_episode_links l where l.ed2k = ${sql.ref('f.ed2k')} and l.size = ${sql.ref('f.size')}${source ? sql` and l.source = ${source}` : sql``})`;
    if (only.has('Unrecognized')) q = q.where(sql<SqlBool>`not ${linked()}`);
    if (exclude.has('Unrecognized')) q = q.where(linked());
    if (only.has('ManualLinks')) q = q.where(linked('User'));
    if (exclude.has('ManualLinks')) q = q.where(sql<SqlBool>`not ${linked('User')}`);
    if (filter.contents) {
      const hashes = [...new Set([...filter.contents].map((key) => key.split(':')[0]))];
      if (!hashes.length) return q.where(sql<SqlBool>`1 = 0`);
      q = q
        .where(inTexts(this.dialect, sql`${sql.ref('f.ed2k')}`, hashes))
        .where(inTexts(this.dialect, sql`(${sql.ref('f.ed2k')} || ':' || ${sql.ref('f.size')})`, [...filter.contents]));
    }
    if (needle) {
      const pattern = `%${escapeLike(needle)}%`;
      let matching = this.db
        .selectFrom('file_locations as s')
        .select('s.file_id')
        .where(sql<SqlBool>`${this.searchPath('s')} like ${pattern} escape '\\'`);
      // On SQLite the trigram table (migration 0036_file_search) names the candidate locations first; PostgreSQL reads
      // its trigram index of the stored normalised path (0062). FTS5's LIKE knows no escape, so a text with `%` or `\` scans.
      if (this.dialect === 'sqlite' && !/[%\\]/.test(needle))
        matching = matching.where('s.id', 'in', (eb) =>
          eb.selectFrom('file_location_search').select('rowid').where('search_path', 'like', `%${needle}%`),
        );
      q = q.where(sql<SqlBool>`${sql.ref('f.id')} in (${matching})`);
    }
    return q;
  }

  private sorted(q: Query, sortOrder: string[]): Query {
    const expressions: Array<{ expression: Expression<unknown>; descending: boolean }> = [];
    for (const raw of sortOrder) {
      const descending = raw.startsWith('-');
      const name = raw.replace(/^-/, '');
      const criterion = /^\d+$/.test(name)
        ? FILE_SORT_CRITERIA[Number(name)]
        : FILE_SORT_CRITERIA.find((c) => c.toLowerCase() === name.toLowerCase());
      const expression = criterion ? this.sortExpression(criterion) : null;
      if (expression) expressions.push({ expression, descending });
    }
    for (const { expression, descending } of expressions) {
      // Files without a value sort last in either direction.
      q = q.orderBy(sql`case when ${expression} is null then 1 else 0 end`).orderBy(expression, descending ? 'desc' : 'asc');
    }
    return q.orderBy('f.id');
  }

  private sortExpression(criterion: (typeof FILE_SORT_CRITERIA)[number]): Expression<unknown> | null {
    switch (criterion) {
      case 'ImportFolderName':
        return sql`lower(${sql.ref('fo.name')})`;
      case 'ImportFolderID':
        return sql.ref('fo.id');
      case 'AbsolutePath':
        return sql`lower(${sql.ref('fo.path')} || ${sql.ref('fl.relative_path')})`;
      case 'RelativePath':
        return sql`lower(${sql.ref('fl.relative_path')})`;
      case 'FileSize':
        return sql.ref('f.size');
      case 'DuplicateCount':
        return sql`(select count(*) from file_locations c where c.file_id = ${sql.ref('f.id')})`;
      case 'CreatedAt':
        return sql.ref('f.created_at');
      case 'ImportedAt':
        return sql.ref('f.imported_at');
      case 'ED2K':
      case 'MD5':
      case 'SHA1':
      case 'CRC32':
        return sql.ref(`f.${criterion.toLowerCase()}`);
      case 'FileName':
        return this.dialect === 'postgres'
          ? sql`lower(regexp_replace(${sql.ref('fl.relative_path')}, '^.*[\\\\/]', ''))`
          : sql`lower(replace(${sql.ref('fl.relative_path')}, rtrim(${sql.ref('fl.relative_path')}, replace(replace(${sql.ref('fl.relative_path')}, '/', ''), '\\', '')), ''))`;
      case 'FileID':
        return sql.ref('f.id');
      default:
        return null;
    }
  }
}

/** The sortOrder's criteria by name (numbers and any casing accepted), `-` kept for descending. */
function criterionNames(sortOrder: string[]): string[] {
  return sortOrder.map((raw) => {
    const name = raw.replace(/^-/, '');
    const criterion = /^\d+$/.test(name)
      ? FILE_SORT_CRITERIA[Number(name)]
      : FILE_SORT_CRITERIA.find((c) => c.toLowerCase() === name.toLowerCase());
    return `${raw.startsWith('-') ? '-' : ''}${criterion ?? raw}`;
  });
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
