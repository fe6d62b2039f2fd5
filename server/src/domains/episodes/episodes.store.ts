import type { IncludeOnlyFilter } from '@shoko-ts/contract';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from '../../db/database.js';
import { retryOnDeadlock } from '../../db/deadlock-retry.js';
import type { Database } from '../../db/schema.js';
import { listedEpisodeCount, type EpisodeStateWanted } from '../../db/user-episode-counts.js';
import { TYPE_ORDER, type AnidbEpisodeRecord, type EpisodeFilter, type EpisodeRow } from './episode-models.js';

const ROW_COLUMNS = sql.raw(`e.id, e.series_id, e.anidb_episode_id, e.is_hidden, e.title_override, e.created_at, e.updated_at,
  ae.anime_id, ae.type, ae.number, ae.length_seconds, ae.air_date, ae.rating, ae.votes, ae.description, ae.titles,
  w.watched_at, w.watch_count, w.rating AS user_rating, e.local_file_count AS files`);

const episodeRow = (r: EpisodeRow): EpisodeRow => ({ ...r, files: Number(r.files), is_hidden: Number(r.is_hidden) });

/** Episodes of anime carrying none of the tags. */
const notRestricted = (tags: number[]) =>
  sql`ae.anime_id NOT IN (SELECT rt.anime_id FROM anidb_anime_tags rt WHERE rt.tag_id IN (${sql.join(tags)}))`;

/** `only` keeps the rows matching the condition, `false` the others, `true` every row. */
const includeOnlySql = (value: IncludeOnlyFilter, matches: RawBuilder<unknown>, otherwise: RawBuilder<unknown>) =>
  value === 'only' ? [matches] : value === 'false' ? [otherwise] : [];

/**
 * `selectEpisodes`'s filters as SQL over e (episodes), ae (anidb_episodes) and w (the viewer's state): missing = no
 * local file and aired (an air day up to today), unaired = no local file and not aired. Whether each kind of episode
 * (with a file, missing, unaired) passes both filters is decided here, so the common cases are one plain condition.
 */
function filterConditions(filter: EpisodeFilter, restrictedTags: number[], today: string, typesByRank = false) {
  const aired = sql`(ae.air_date IS NOT NULL AND ae.air_date <> '' AND substr(ae.air_date, 1, 10) <= ${today})`;
  const withFile = filter.includeMissing !== 'only' && filter.includeUnaired !== 'only';
  const missing = filter.includeMissing !== 'false' && filter.includeUnaired !== 'only';
  const unaired = filter.includeUnaired !== 'false' && filter.includeMissing !== 'only';
  const presence: RawBuilder<unknown>[] = [];
  if (!withFile || !missing || !unaired) {
    const kinds = [
      ...(withFile ? [sql`e.local_file_count > 0`] : []),
      ...(missing && unaired ? [sql`e.local_file_count = 0`] : []),
      ...(missing && !unaired ? [sql`(e.local_file_count = 0 AND ${aired})`] : []),
      ...(unaired && !missing ? [sql`(e.local_file_count = 0 AND NOT ${aired})`] : []),
    ];
    presence.push(kinds.length ? sql`(${sql.join(kinds, sql` OR `)})` : sql`1 = 0`);
  }
  const types = filter.types.map((t) => t.toLowerCase());
  const typesReadAnidb = types.length > 0 && (!typesByRank || filter.types.includes('Unknown'));
  const list = [
    ...(types.length ? [typesByRank ? typesOfRank(filter.types) : sql`lower(ae.type) IN (${sql.join(types)})`] : []),
    ...includeOnlySql(filter.includeHidden, sql`e.is_hidden = 1`, sql`e.is_hidden <> 1`),
    ...presence,
    ...includeOnlySql(filter.includeWatched, sql`w.watched_at IS NOT NULL`, sql`w.watched_at IS NULL`),
    ...includeOnlySql(filter.includeVoted, sql`w.rating IS NOT NULL`, sql`w.rating IS NULL`),
    ...(restrictedTags.length ? [notRestricted(restrictedTags)] : []),
  ];
  const readsAnidb = typesReadAnidb || restrictedTags.length > 0 || (presence.length > 0 && missing !== unaired);
  return {
    list,
    readsAnidb,
    readsState: filter.includeWatched !== 'true' || filter.includeVoted !== 'true',
    stateOnly: filter.includeWatched === 'only' || filter.includeVoted === 'only',
  };
}

/**
 * The episode types (the contract's names, as `episodeTypes` gives them) by the maintained rank (migration 0043: 1–6
 * the named types, 7 anything else, the AniDB importers writing only the named types and Unknown), so a series' page
 * needs no AniDB row to filter: PostgreSQL estimates the rank by its statistics but `lower(ae.type)` not at all (0.5%
 * of rows), and hashed every AniDB episode to find a 1,500-episode series' page (170 ms at 100k).
 */
function typesOfRank(types: string[]) {
  const ranks = types.map((t) => TYPE_ORDER.indexOf(t) + 1).filter((r) => r > 0);
  const terms = [
    ...(ranks.length ? [sql`e.sort_type_rank IN (${sql.join(ranks)})`] : []),
    ...(types.includes('Unknown') ? [sql`(e.sort_type_rank = 7 AND lower(ae.type) = 'unknown')`] : []),
  ];
  return terms.length ? sql`(${sql.join(terms, sql` OR `)})` : sql`1 = 0`;
}

/**
 * The watched and voted conditions when the Total is migration 0047's maintained count of the viewer's listed episodes:
 * an `only` watch or vote filter, the others at their defaults (which list exactly 0047's episodes: with AniDB data, a
 * local file, not hidden), no type and no restricted tag. Null otherwise.
 */
function maintainedTotal(filter: EpisodeFilter, restrictedTags: number[]): EpisodeStateWanted | null {
  const defaults = filter.includeMissing === 'false' && filter.includeUnaired === 'false' && filter.includeHidden === 'false';
  if (!defaults || filter.types.length || restrictedTags.length) return null;
  if (filter.includeWatched !== 'only' && filter.includeVoted !== 'only') return null;
  const wanted = (value: IncludeOnlyFilter) => (value === 'only' ? 1 : value === 'false' ? 0 : null);
  return { watched: wanted(filter.includeWatched), voted: wanted(filter.includeVoted) };
}

/** An episode as Series/{id}/NextUpEpisode weighs it. */
export type NextUpCandidate = Pick<EpisodeRow, 'id' | 'is_hidden' | 'files' | 'type' | 'number' | 'air_date' | 'watched_at'>;

/** Shoko episodes: their rows with the AniDB episode data, file counts and one user's watch state and rating. */
export class EpisodesStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  async episodeRef(id: number) {
    return (
      (await this.db
        .selectFrom('episodes as e')
        .leftJoin('series as s', 's.id', 'e.series_id')
        .select(['e.id', 'e.series_id', 'e.anidb_episode_id', 's.anime_id'])
        .where('e.id', '=', id)
        .executeTakeFirst()) ?? null
    );
  }

  /**
   * Episode rows (with AniDB data only) of one series, a set of episode ids, or (with `restrictedTags`) every series
   * carrying none of those AniDB tags, for one user.
   */
  async rows(where: { seriesId?: number; episodeIds?: number[]; restrictedTags?: number[] }, userId: number): Promise<EpisodeRow[]> {
    if (where.episodeIds && !where.episodeIds.length) return [];
    const condition =
      where.seriesId !== undefined
        ? sql`e.series_id = ${where.seriesId}`
        : where.episodeIds
          ? sql`e.id IN (${sql.join(where.episodeIds)})`
          : where.restrictedTags?.length
            ? notRestricted(where.restrictedTags)
            : sql`1 = 1`;
    const { rows } = await sql<EpisodeRow>`
      SELECT ${ROW_COLUMNS}
      FROM episodes e
        JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
        LEFT JOIN user_episode_states w ON w.episode_id = e.id AND w.user_id = ${userId}
      WHERE ${condition}`.execute(this.db);
    return rows.map(episodeRow);
  }

  /**
   * What Series/{id}/NextUpEpisode picks by, for each episode of the series and one user: no titles or descriptions,
   * and the user's state looked up per episode. Joined, PostgreSQL hashed every state of the user (135,000 at 400,000
   * files) for a 1,500-episode series: 82 ms, 6 ms looked up (EXPLAIN ANALYZE).
   */
  async nextUpCandidates(seriesId: number, userId: number): Promise<NextUpCandidate[]> {
    const { rows } = await sql<NextUpCandidate>`
      SELECT e.id, e.is_hidden, e.local_file_count AS files, ae.type, ae.number, ae.air_date,
        (SELECT w.watched_at FROM user_episode_states w WHERE w.episode_id = e.id AND w.user_id = ${userId}) AS watched_at
      FROM episodes e
        JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
      WHERE e.series_id = ${seriesId}
      ORDER BY e.id`.execute(this.db);
    return rows.map((r) => ({ ...r, files: Number(r.files), is_hidden: Number(r.is_hidden) }));
  }

  /**
   * Episode (GET) without a search: the rows passing the §5.5 filters (as `selectEpisodes` applies them) for one
   * viewer, by series, type rank, number and id, one page of them (`pageSize` 0: all), and how many pass. The order and
   * the file counts are migration 0043's maintained columns, so a page walks `episodes_list_order` and stops; the
   * Total of the clients' watched (or voted) list with default filters is 0047's maintained count of the viewer.
   * With `seriesId`, only that series' episodes: the page walks its part of the index (a 1,500-episode series' page
   * reads 26 rows, not 1,500).
   */
  async filteredPage(
    filter: EpisodeFilter,
    viewer: { userId: number; restrictedTags: number[] },
    paging: { page: number; pageSize: number },
    today: string,
    seriesId?: number,
  ): Promise<{ total: number; rows: EpisodeRow[] }> {
    const conditions = filterConditions(filter, viewer.restrictedTags, today, seriesId !== undefined);
    if (seriesId !== undefined) conditions.list.unshift(sql`e.series_id = ${seriesId}`);
    const where = conditions.list.length ? sql.join(conditions.list, sql` AND `) : sql`1 = 1`;
    const limit = paging.pageSize > 0 ? sql`LIMIT ${paging.pageSize} OFFSET ${(paging.page - 1) * paging.pageSize}` : sql``;
    const order = sql`ORDER BY e.series_id, e.sort_type_rank, e.sort_number, e.id`;
    // A series' page is found on the episodes (and only what its conditions read) before the rest is joined: joined
    // first, PostgreSQL hashed every AniDB episode for a late page of a long series (90 ms at 100k).
    const selected =
      seriesId === undefined
        ? sql`${where} ${order} ${limit}`
        : sql`e.id IN (SELECT e.id ${this.readFrom(conditions, where, viewer.userId)} ${order} ${limit}) ${order}`;
    const page = sql<EpisodeRow>`
      SELECT ${ROW_COLUMNS}
      FROM episodes e
        JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
        LEFT JOIN user_episode_states w ON w.episode_id = e.id AND w.user_id = ${viewer.userId}
      WHERE ${selected}`;
    if (paging.pageSize === 0) {
      const { rows } = await page.execute(this.db);
      return { total: rows.length, rows: rows.map(episodeRow) };
    }
    const maintained = seriesId === undefined ? maintainedTotal(filter, viewer.restrictedTags) : null;
    const total = maintained
      ? listedEpisodeCount(this.db, this.dialect, viewer.userId, maintained)
      : this.total(conditions, where, viewer.userId);
    // Side by side on PostgreSQL's pool (SQLite runs one statement at a time either way).
    const [{ rows }, count] = await Promise.all([page.execute(this.db), total]);
    return { total: count, rows: rows.map(episodeRow) };
  }

  /**
   * `FROM … WHERE …` of the listed episodes passing `where`, joining only what its conditions read; an `only` watch or
   * vote filter starts from the viewer's states. Without AniDB conditions it tests that the AniDB episode exists by its
   * maintained rank (null without one).
   */
  private readFrom(conditions: ReturnType<typeof filterConditions>, where: RawBuilder<unknown>, userId: number) {
    const join = conditions.stateOnly ? sql`JOIN` : sql`LEFT JOIN`;
    const states = conditions.readsState ? sql`${join} user_episode_states w ON w.episode_id = e.id AND w.user_id = ${userId}` : sql``;
    const anidb = conditions.readsAnidb ? sql`JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id` : sql``;
    const listed = conditions.readsAnidb ? where : sql`e.sort_type_rank IS NOT NULL AND ${where}`;
    return sql`FROM episodes e ${anidb} ${states} WHERE ${listed}`;
  }

  /**
   * The Total counted from the base tables (readFrom). A count of the viewer's watched or voted episodes by episode columns alone runs without
   * hash joins on PostgreSQL, which would hash those states against a scan of every episode; it merges the two
   * index-only scans (the states' partial index, episodes_list_filter) or probes by id instead: 11 instead of 27 ms of
   * CPU for 33,391 watched at 100k.
   */
  private async total(conditions: ReturnType<typeof filterConditions>, where: RawBuilder<unknown>, userId: number): Promise<number> {
    const count = sql<{ total: number | string }>`SELECT COUNT(*) AS total ${this.readFrom(conditions, where, userId)}`;
    if (this.dialect !== 'postgres' || !conditions.stateOnly || conditions.readsAnidb)
      return Number((await count.execute(this.db)).rows[0].total);
    return this.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_hashjoin = off`.execute(trx);
      return Number((await count.execute(trx)).rows[0].total);
    });
  }

  /** One AniDB episode; null when unknown. */
  async anidbEpisode(id: number): Promise<AnidbEpisodeRecord | null> {
    return (await this.db.selectFrom('anidb_episodes').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** The Shoko episode of an AniDB episode; null when there is none. */
  async episodeIdOfAnidb(anidbEpisodeId: number): Promise<number | null> {
    const row = await this.db.selectFrom('episodes').select('id').where('anidb_episode_id', '=', anidbEpisodeId).executeTakeFirst();
    return row?.id ?? null;
  }

  /** A page of AniDB episodes (of some types, every type when empty) by anime, raw type order and number, and how many match. */
  async anidbEpisodePage(
    types: string[],
    paging: { page: number; pageSize: number },
  ): Promise<{ total: number; rows: AnidbEpisodeRecord[] }> {
    let query = this.db.selectFrom('anidb_episodes');
    if (types.length) query = query.where('type', 'in', types);
    const { total } = await query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
    const typeRank = sql<number>`CASE type WHEN 'Episode' THEN 1 WHEN 'Credits' THEN 2 WHEN 'Special' THEN 3 WHEN 'Trailer' THEN 4 WHEN 'Parody' THEN 5 WHEN 'Other' THEN 6 ELSE 7 END`;
    let page = query.selectAll().orderBy('anime_id').orderBy(typeRank).orderBy('number').orderBy('id');
    if (paging.pageSize > 0) page = page.limit(paging.pageSize).offset((paging.page - 1) * paging.pageSize);
    return { total: Number(total), rows: await page.execute() };
  }

  /** The AniDB anime whose end date has passed (finished airing). */
  async finishedAnimeIds(today: string): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('anidb_anime')
      .select('id')
      .where('end_date', 'is not', null)
      .where('end_date', '<', today)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** The file contents linked to AniDB episodes, in link order. */
  async linkedContents(anidbEpisodeIds: number[]): Promise<Array<{ ed2k: string; size: number; episode_id: number }>> {
    const result: Array<{ ed2k: string; size: number; episode_id: number }> = [];
    for (let i = 0; i < anidbEpisodeIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('file_episode_links')
        .select(['ed2k', 'size', 'episode_id'])
        .where('episode_id', 'in', anidbEpisodeIds.slice(i, i + 500))
        .orderBy('ordering')
        .orderBy('id')
        .execute();
      result.push(...rows.map((r) => ({ ...r, size: Number(r.size) })));
    }
    return result;
  }

  /** Sets (or with null clears) an episode's title override. */
  async setTitleOverride(episodeId: number, title: string | null): Promise<void> {
    await this.db
      .updateTable('episodes')
      .set({ title_override: title, updated_at: new Date().toISOString() })
      .where('id', '=', episodeId)
      .execute();
  }

  /** Episodes of a series with at least one file linked by hand (a link not from AniDB). */
  async manuallyLinkedEpisodeIds(seriesId: number): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('episodes as e')
      .innerJoin('file_episode_links as l', 'l.episode_id', 'e.anidb_episode_id')
      .select('e.id')
      .distinct()
      .where('e.series_id', '=', seriesId)
      .where('l.source', '<>', 'AniDB')
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Sets or clears the watched state of episodes for one user; answers the episodes whose state changed. */
  async setWatched(userId: number, episodeIds: number[], watched: boolean): Promise<number[]> {
    if (!episodeIds.length) return [];
    const now = new Date().toISOString();
    const write = () =>
      this.db.transaction().execute(async (trx) => {
        const existing = new Map(
          (
            await trx
              .selectFrom('user_episode_states')
              .select(['episode_id', 'watch_count', 'watched_at'])
              .where('user_id', '=', userId)
              .where('episode_id', 'in', episodeIds)
              .execute()
          ).map((r) => [r.episode_id, r]),
        );
        const fresh = episodeIds.filter((id) => !existing.has(id));
        if (watched && fresh.length)
          await trx
            .insertInto('user_episode_states')
            .values(
              fresh.map((id) => ({ user_id: userId, episode_id: id, watched_at: now, watch_count: 1, rating: null, updated_at: now })),
            )
            .execute();
        const toUpdate = [...existing.values()].filter((r) => (watched ? !r.watched_at : !!r.watched_at)).map((r) => r.episode_id);
        const changed = [...(watched ? fresh : []), ...toUpdate];
        if (!toUpdate.length) return changed;
        if (watched)
          await trx
            .updateTable('user_episode_states')
            .set({ watched_at: now, watch_count: sql`watch_count + 1`, updated_at: now })
            .where('user_id', '=', userId)
            .where('episode_id', 'in', toUpdate)
            .execute();
        else
          await trx
            .updateTable('user_episode_states')
            .set({ watched_at: null, updated_at: now })
            .where('user_id', '=', userId)
            .where('episode_id', 'in', toUpdate)
            .execute();
        return changed;
      });
    return retryOnDeadlock(write);
  }

  async setHidden(episodeId: number, hidden: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('episodes')
      .set({ is_hidden: hidden ? 1 : 0, updated_at: new Date().toISOString() })
      .where('id', '=', episodeId)
      .where('is_hidden', '=', hidden ? 0 : 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Sets (or with null clears) the user's episode rating, keeping the watch state. */
  async vote(userId: number, episodeId: number, value: number | null) {
    const now = new Date().toISOString();
    const existing = await this.db
      .selectFrom('user_episode_states')
      .select('episode_id')
      .where('user_id', '=', userId)
      .where('episode_id', '=', episodeId)
      .executeTakeFirst();
    if (existing)
      await this.db
        .updateTable('user_episode_states')
        .set({ rating: value, updated_at: now })
        .where('user_id', '=', userId)
        .where('episode_id', '=', episodeId)
        .execute();
    else if (value !== null)
      await this.db
        .insertInto('user_episode_states')
        .values({ user_id: userId, episode_id: episodeId, watched_at: null, watch_count: 0, rating: value, updated_at: now })
        .execute();
  }
}
