import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveSeriesToNewAnime, serverWithCollection } from '../test/generated-collection.js';
import type { TestServer } from '../test/harness.js';
import { dashboardAggregateStatements } from './dashboard-aggregates.js';

/**
 * The dashboard's maintained rows (migration 0035, db/dashboard-aggregates.ts): after each kind of change they equal a
 * fresh computation over every series, and RecentlyAddedEpisodes, RecentlyAddedSeries and NextUpEpisodes answer what
 * the whole-collection queries they replaced answer (kept below as the reference), order and totals included, for
 * every combination of Next Up's options and for two users.
 */
describe('maintained dashboard rows', () => {
  let server: TestServer;
  let admin: string;
  let other: { id: number; key: string };

  beforeAll(async () => {
    ({ server, admin, other } = await serverWithCollection({ series: 10, files: 90, seed: 5 }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.services.db.kysely;
  const rows = async <T>(query: RawBuilder<T>) => (await query.execute(db())).rows;
  const num = (value: unknown) => (value === null ? null : Number(value));

  // The reference: the queries the endpoints ran before 0035, over the base tables (unrestricted viewer, restricted
  // anime left out as the endpoints' default).
  const recentEpisodes = () =>
    rows(sql<{ file_id: number; anidb_episode_id: number; episode_id: number | null }>`SELECT f.id AS file_id, ae.id AS anidb_episode_id,
        e.id AS episode_id
      FROM files f JOIN file_episode_links l ON l.ed2k = f.ed2k AND l.size = f.size
        JOIN anidb_episodes ae ON ae.id = l.episode_id JOIN anidb_anime a ON a.id = ae.anime_id
        JOIN series s ON s.anime_id = ae.anime_id LEFT JOIN episodes e ON e.series_id = s.id AND e.anidb_episode_id = ae.id
      WHERE f.imported_at IS NOT NULL AND COALESCE(a.restricted, 0) = 0 ORDER BY f.imported_at DESC, f.id DESC, l.ordering`);
  const recentSeries = () =>
    rows(sql<{ id: number }>`SELECT s.id AS id, MAX(f.imported_at) AS latest FROM series s JOIN anidb_anime a ON a.id = s.anime_id
        JOIN file_episode_links l ON l.anime_id = s.anime_id JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size
      WHERE f.imported_at IS NOT NULL AND COALESCE(a.restricted, 0) = 0 GROUP BY s.id ORDER BY latest DESC, s.id DESC`);
  const nextUp = (userId: number, o: { specials: boolean; others: boolean; missing: boolean; onlyUnwatched: boolean }) => {
    const types = ['Episode', ...(o.specials ? ['Special'] : []), ...(o.others ? ['Other', 'Credits', 'Trailer', 'Parody'] : [])];
    const local = o.missing
      ? sql.raw('1 = 1')
      : sql.raw(
          'EXISTS (SELECT 1 FROM file_episode_links l JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size WHERE l.episode_id = e.anidb_episode_id)',
        );
    return rows(sql<{ episode_id: number; file_id: number | null }>`WITH sessions AS (
        SELECT e.id AS eid, e.series_id AS sid, ae.type AS etype, ae.number AS enumber, ae.id AS aid, u.file_id AS fid, u.updated_at AS touched,
          ROW_NUMBER() OVER (PARTITION BY e.series_id ORDER BY u.updated_at DESC, u.file_id DESC, l.ordering, ae.id) AS rn
        FROM user_file_states u JOIN files f ON f.id = u.file_id JOIN file_episode_links l ON l.ed2k = f.ed2k AND l.size = f.size
          JOIN anidb_episodes ae ON ae.id = l.episode_id JOIN series s ON s.anime_id = ae.anime_id JOIN episodes e ON e.series_id = s.id AND e.anidb_episode_id = ae.id
        WHERE u.user_id = ${userId} AND u.resume_position_ms > 0 AND ae.type IN (${sql.join(types)})),
      activity AS (SELECT t.sid AS sid, MAX(t.last) AS last FROM (
          SELECT e.series_id AS sid, w.updated_at AS last FROM user_episode_states w JOIN episodes e ON e.id = w.episode_id
          WHERE w.user_id = ${userId} AND w.watched_at IS NOT NULL
          UNION ALL SELECT sid, touched AS last FROM sessions) t GROUP BY t.sid),
      candidates AS (
        SELECT u.*, ROW_NUMBER() OVER (PARTITION BY u.sid ORDER BY u.prio, CASE WHEN u.etype = 'Episode' THEN 0 ELSE 1 END, u.enumber, u.aid) AS rn FROM (
          SELECT e.id AS eid, e.series_id AS sid, ae.type AS etype, ae.number AS enumber, ae.id AS aid, CAST(NULL AS INTEGER) AS fid, 1 AS prio
          FROM episodes e JOIN activity act ON act.sid = e.series_id JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
          WHERE e.is_hidden = 0 AND ae.type IN (${sql.join(types)}) AND ${local}
            AND NOT EXISTS (SELECT 1 FROM user_episode_states w WHERE w.episode_id = e.id AND w.user_id = ${userId} AND w.watched_at IS NOT NULL)
          ${o.onlyUnwatched ? sql.raw('') : sql`UNION ALL SELECT eid, sid, etype, enumber, aid, fid, 0 AS prio FROM sessions WHERE rn = 1`}) u)
      SELECT e.id AS episode_id, c.fid AS file_id FROM candidates c JOIN activity act ON act.sid = c.sid JOIN episodes e ON e.id = c.eid
        JOIN series s ON s.id = e.series_id JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id JOIN anidb_anime a ON a.id = s.anime_id
      WHERE c.rn = 1 AND NOT (c.prio = 1 AND c.etype = 'Episode' AND c.enumber = 1)
        ${o.onlyUnwatched ? sql.raw('AND c.sid NOT IN (SELECT sid FROM sessions)') : sql.raw('')} AND COALESCE(a.restricted, 0) = 0
      ORDER BY act.last DESC, s.id`);
  };

  const watched = async (userId: number) => {
    const [row] = await rows(sql<{
      count: unknown;
      seconds: unknown;
    }>`SELECT COUNT(*) AS count, COALESCE(SUM(ae.length_seconds), 0) AS seconds
      FROM user_episode_states w JOIN episodes e ON e.id = w.episode_id JOIN series s ON s.id = e.series_id
        JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
      WHERE w.user_id = ${userId} AND w.watched_at IS NOT NULL`);
    return { WatchedEpisodes: Number(row!.count), WatchedHours: Math.round(Number(row!.seconds) / 360) / 10 };
  };

  /** The maintained rows, and the same rows computed afresh for every series (rolled back). */
  async function maintained() {
    const read = async (trx: typeof server.services.db.kysely) => ({
      imports: (await trx.selectFrom('series_recent_imports').selectAll().orderBy('series_id').execute()).map((r) => ({
        ...r,
        imported_link_count: Number(r.imported_link_count),
      })),
      nextUp: await trx.selectFrom('series_next_up').selectAll().orderBy('series_id').orderBy('user_id').execute(),
    });
    const have = await read(db());
    let fresh: typeof have | undefined;
    await db()
      .transaction()
      .execute(async (trx) => {
        for (const statement of dashboardAggregateStatements(sql`(SELECT id FROM series)`)) await statement.execute(trx);
        fresh = await read(trx);
        throw new Error('rollback');
      })
      .catch((error: Error) => {
        if (error.message !== 'rollback') throw error;
      });
    return { have, fresh: fresh! };
  }

  const OPTIONS = [false, true].flatMap((specials) =>
    [false, true].flatMap((others) =>
      [false, true].flatMap((missing) => [false, true].map((onlyUnwatched) => ({ specials, others, missing, onlyUnwatched }))),
    ),
  );

  // Between the first and last check, a few combinations (the defaults, everything, missing, sessions) stand for all.
  const SOME = OPTIONS.filter((o, i) => i === 0 || i === OPTIONS.length - 1 || (o.specials && !o.others && o.missing !== o.onlyUnwatched));

  /** Every endpoint answer equals the reference; the maintained rows equal a fresh computation. Returns the sizes. */
  async function expectConsistent(options = SOME) {
    const dashboard = server.services.dashboard;
    const sizes = { episodes: 0, series: 0, nextUp: 0 };
    for (const userId of [1, other.id]) {
      const episodes = await dashboard.recentlyAddedEpisodes(userId, { page: 1, pageSize: 1000 });
      const want = await recentEpisodes();
      expect(episodes.Total).toBe(want.length);
      expect(episodes.List.map((e) => [e.IDs.ShokoFile, e.IDs.ID, e.IDs.ShokoEpisode])).toEqual(
        want.map((r) => [num(r.file_id), num(r.anidb_episode_id), num(r.episode_id)]),
      );
      // A page further on and an empty page (the count alone).
      const page = await dashboard.recentlyAddedEpisodes(userId, { page: 2, pageSize: 3 });
      expect(page.List.map((e) => e.IDs.ShokoFile)).toEqual(want.slice(3, 6).map((r) => num(r.file_id)));
      expect((await dashboard.recentlyAddedEpisodes(userId, { page: 1, pageSize: 0 })).Total).toBe(want.length);

      const series = await dashboard.recentlyAddedSeries(userId, { page: 1, pageSize: 1000 });
      const wantSeries = (await recentSeries()).map((r) => num(r.id));
      expect(series.Total).toBe(wantSeries.length);
      expect(series.List.map((s) => s.IDs.ID)).toEqual(wantSeries);
      expect((await dashboard.recentlyAddedSeries(userId, { page: 9, pageSize: 50 })).Total).toBe(wantSeries.length);

      for (const o of options) {
        const query = {
          page: 1,
          pageSize: 100,
          includeSpecials: o.specials,
          includeOthers: o.others,
          includeMissing: o.missing,
          onlyUnwatched: o.onlyUnwatched,
          includeRewatching: false,
        };
        const answer = await dashboard.nextUp(userId, query);
        const wantNext = await nextUp(userId, o);
        expect({ o, Total: answer.Total }).toEqual({ o, Total: wantNext.length });
        expect({ o, ids: answer.List.map((e) => e.IDs.ShokoEpisode) }).toEqual({ o, ids: wantNext.map((r) => num(r.episode_id)) });
        const sessionFiles = answer.List.map((e, i) => (wantNext[i]?.file_id === null ? null : e.IDs.ShokoFile));
        expect(sessionFiles).toEqual(wantNext.map((r) => num(r.file_id)));
        expect((await dashboard.nextUp(userId, { ...query, page: 50, pageSize: 1 })).Total).toBe(wantNext.length);
        if (o.specials && !o.others && !o.missing && o.onlyUnwatched) sizes.nextUp += wantNext.length;
      }
      expect(await dashboard.stats(userId)).toMatchObject(await watched(userId));
      sizes.episodes += want.length;
      sizes.series += wantSeries.length;
    }
    expect(await db().selectFrom('aggregate_dirty_series').selectAll().execute()).toEqual([]);
    const { have, fresh } = await maintained();
    expect(have).toEqual(fresh);
    return sizes;
  }

  const call = async (method: 'POST' | 'DELETE', url: string, key = admin, body?: unknown) => {
    const res = await server.request({ method, url, key, body });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('answer as the base tables do after imports, links, watch state, sessions, hidden and renumbered episodes and series moves', async () => {
    const kysely = db();
    // Import times spread out (ties included), some files not imported yet.
    const files = await kysely.selectFrom('files').select('id').orderBy('id').execute();
    for (const [i, f] of files.entries())
      await kysely
        .updateTable('files')
        .set({ imported_at: i % 7 === 3 ? null : `2030-01-${String(1 + (i % 5)).padStart(2, '0')}T00:00:00.000Z` })
        .where('id', '=', f.id)
        .execute();
    const first = await expectConsistent(OPTIONS);
    expect(first.episodes).toBeGreaterThan(0);
    expect(first.series).toBeGreaterThan(0);
    expect(first.nextUp).toBeGreaterThan(0);

    // A file imported later, a second file of a linked episode's content, a new file linked and later unlinked.
    await kysely.updateTable('files').set({ imported_at: '2031-05-05T00:00:00.000Z' }).where('id', '=', files.at(-3)!.id).execute();
    await kysely.updateTable('files').set({ imported_at: null }).where('id', '=', files.at(-1)!.id).execute();
    await expectConsistent();
    const linked = await kysely.selectFrom('file_episode_links').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow();
    const { id: _id, ...template } = await kysely
      .selectFrom('files')
      .selectAll()
      .where('ed2k', '=', linked.ed2k)
      .where('size', '=', linked.size)
      .executeTakeFirstOrThrow();
    await kysely
      .insertInto('files')
      .values({ ...template, imported_at: '2031-06-01T00:00:00.000Z' })
      .execute();
    const fresh = await kysely
      .insertInto('files')
      .values({ ...template, ed2k: 'EF'.repeat(16), size: 777, imported_at: '2031-07-01T00:00:00.000Z' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const episodes = await kysely
      .selectFrom('episodes as e')
      .innerJoin('anidb_episodes as ae', 'ae.id', 'e.anidb_episode_id')
      .select(['e.id', 'e.series_id', 'ae.id as aid', 'ae.type', 'ae.number'])
      .orderBy('e.series_id')
      .orderBy('ae.type')
      .orderBy('ae.number')
      .execute();
    const target = episodes.at(-1)!;
    await call('POST', `/api/v3/File/${fresh.id}/Link`, admin, { EpisodeIDs: [target.id] });
    await expectConsistent();

    // Watch state of both users through the API: first episodes watched (the next one is suggested), others unwatched.
    const bySeries = new Map<number, typeof episodes>();
    for (const e of episodes) bySeries.set(e.series_id, [...(bySeries.get(e.series_id) ?? []), e]);
    const seriesIds = [...bySeries.keys()];
    for (const [i, sid] of seriesIds.entries()) {
      const own = bySeries.get(sid)!;
      await call('POST', `/api/v3/Episode/${own[0]!.id}/Watched/${i % 3 !== 0}`);
      if (own[1]) await call('POST', `/api/v3/Episode/${own[1].id}/Watched/true`, i % 2 ? admin : other.key);
    }
    await call('DELETE', `/api/v3/File/${fresh.id}/Link`);
    await expectConsistent();
    // A rating updates a watch state's time only (Next Up orders by it).
    const rated = await kysely
      .selectFrom('user_episode_states')
      .select(['episode_id', 'user_id'])
      .where('watched_at', 'is not', null)
      .orderBy('episode_id')
      .executeTakeFirstOrThrow();
    await kysely
      .updateTable('user_episode_states')
      .set({ updated_at: '2040-01-01T00:00:00.000Z' })
      .where('episode_id', '=', rated.episode_id)
      .where('user_id', '=', rated.user_id)
      .execute();
    await expectConsistent();

    // A special renumbered before the others (of a series nothing else changes now).
    const special = episodes.filter((e) => e.type === 'Special' && e.number > 1).at(-1)!;
    await kysely.updateTable('anidb_episodes').set({ number: 0 }).where('id', '=', special.aid).execute();
    await expectConsistent();

    // A watched episode's length.
    await kysely
      .updateTable('anidb_episodes')
      .set({ length_seconds: 7777 })
      .where('id', '=', (qb) => qb.selectFrom('episodes').select('anidb_episode_id').where('id', '=', rated.episode_id))
      .execute();
    await expectConsistent();

    // Hidden episodes, an episode turned into credits, a session.
    for (const sid of seriesIds.slice(0, 4)) {
      const next = bySeries.get(sid)!.find((e) => e.type === 'Episode' && e.number === 2);
      if (next) await call('POST', `/api/v3/Episode/${next.id}/SetHidden?value=true`);
    }
    const episode3 = episodes.filter((e) => e.type === 'Episode' && e.number === 3);
    for (const e of episode3.slice(0, 3))
      await kysely.updateTable('anidb_episodes').set({ type: 'Credits' }).where('id', '=', e.aid).execute();
    const sessionFile = await kysely
      .selectFrom('files as f')
      .innerJoin('file_episode_links as l', (j) => j.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .innerJoin('episodes as e', 'e.anidb_episode_id', 'l.episode_id')
      .select(['f.id', 'e.series_id'])
      .where('e.series_id', '=', seriesIds[1]!)
      .orderBy('f.id', 'desc')
      .executeTakeFirstOrThrow();
    await kysely
      .insertInto('user_file_states')
      .values({
        user_id: 1,
        file_id: sessionFile.id,
        resume_position_ms: 5000,
        watched_at: null,
        watch_count: 0,
        updated_at: '2035-01-01T00:00:00.000Z',
      })
      .execute();
    await expectConsistent();

    // A file record deleted, a link's anime changed, a series moved to an anime without files.
    await call('DELETE', `/api/v3/File/${files[5]!.id}?removeFiles=false`);
    const animes = await kysely.selectFrom('anidb_anime').selectAll().orderBy('id').execute();
    await kysely.updateTable('file_episode_links').set({ anime_id: animes[2]!.id }).where('id', '=', linked.id).execute();
    await expectConsistent();
    await moveSeriesToNewAnime(kysely, animes[0]!.id);
    const last = await expectConsistent(OPTIONS);
    expect(last.series).toBeLessThan(first.series);
    // Dozens of changes, each checked against a fresh computation: past the 30 s default on PostgreSQL with both cores busy (ci34).
  }, 120_000);
});
