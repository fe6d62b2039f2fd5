import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardEpisode } from '@shoko-ts/contract';
import { refreshMaintainedFigures } from '../../db/maintained-figures.js';
import { suspendMarkTriggers } from '../../db/mark-triggers.js';
import type { Database } from '../../db/schema.js';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';
import { resumePositionText } from '../files/index.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { restrictedClause, type IncludeOnly } from './dashboard-sql.store.js';

type Page = { Total: number; List: DashboardEpisode[] };
/** What an entry says of the session it shows: series, episode, file, resume position. */
type Entry = [number | null, number | null, number | null, string | null];

/**
 * Continue Watching reads maintained rows (db/continue-watching.ts). After every kind of change that can make them
 * stale, each parameter set's answer is compared with the rule computed from the base tables at read time (the
 * query the endpoint ran before the rows were maintained).
 */
describe('Continue Watching from maintained rows', () => {
  let server: TestServer;
  let db: Kysely<Database>;
  const keys: Record<number, string> = {};
  const users: number[] = [];
  const series: Record<string, { seriesId: number; episodeIds: number[] }> = {};

  const request = async (method: 'GET' | 'POST' | 'DELETE', url: string, userId: number) => {
    const res = await server.request({ method, url, key: keys[userId] });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };
  const fileOf = async (anidbEpisodeId: number, release = 0) =>
    (
      await db
        .selectFrom('files')
        .select('id')
        .where('size', '=', 100_000_000 + release * 10_000_000 + anidbEpisodeId)
        .executeTakeFirstOrThrow()
    ).id;
  const scrobble = async (userId: number, anidbEpisodeId: number, query: string, release = 0) => {
    // Each report its own millisecond, so the latest activity is well defined.
    await new Promise((resolve) => setTimeout(resolve, 3));
    await request('GET', `/api/v3/File/${await fileOf(anidbEpisodeId, release)}/Scrobble?${query}`, userId);
  };

  /**
   * The rule, from the base tables: the user's files with a non-zero resume position, by each episode of the collection
   * their content is linked to (of the episode's own anime) and of the kinds asked for; per series the most recently
   * updated one (then the higher file id, the link's order, the AniDB episode id); series by the later of that update
   * and the series' latest watch-state update, then by id.
   */
  async function rule(userId: number, options: { specials: boolean; others: boolean; restricted: IncludeOnly }): Promise<Entry[]> {
    const types = [
      'Episode',
      ...(options.specials ? ['Special'] : []),
      ...(options.others ? ['Other', 'Credits', 'Trailer', 'Parody'] : []),
    ];
    const { rows } = await sql<{ sid: number; eid: number; fid: number; pos: number }>`
      WITH sessions AS (
        SELECT e.id AS eid, e.series_id AS sid, u.file_id AS fid, u.resume_position_ms AS pos, u.updated_at AS touched,
          ROW_NUMBER() OVER (PARTITION BY e.series_id ORDER BY u.updated_at DESC, u.file_id DESC, l.ordering, ae.id) AS rn
        FROM user_file_states u JOIN files f ON f.id = u.file_id JOIN file_episode_links l ON l.ed2k = f.ed2k AND l.size = f.size
          JOIN episodes e ON e.anidb_episode_id = l.episode_id JOIN anidb_episodes ae ON ae.id = e.anidb_episode_id
          JOIN series s ON s.id = e.series_id
        WHERE u.user_id = ${userId} AND u.resume_position_ms > 0 AND s.anime_id = ae.anime_id AND ae.type IN (${sql.join(types)}))
      SELECT c.sid, c.eid, c.fid, c.pos FROM sessions c JOIN series s ON s.id = c.sid JOIN anidb_anime a ON a.id = s.anime_id
      WHERE c.rn = 1 AND ${restrictedClause(options.restricted)}
      ORDER BY (SELECT MAX(t.last) FROM (SELECT n.last_activity AS last FROM series_next_up n
        WHERE n.series_id = c.sid AND n.user_id = ${userId} UNION ALL SELECT c.touched) t) DESC, s.id`.execute(db);
    return rows.map((r) => [Number(r.sid), Number(r.eid), Number(r.fid), resumePositionText(Number(r.pos))]);
  }

  const entry = (e: DashboardEpisode): Entry => [e.IDs.ShokoSeries, e.IDs.ShokoEpisode, e.IDs.ShokoFile, e.ResumePosition];

  /** Every parameter set, both users: the endpoint answers what the rule says. Answers the first user's default list. */
  let round = 0;
  async function expectTheRule(): Promise<Entry[]> {
    // The test also writes base tables directly, which the read cache does not hear of: every round asks new URLs.
    round++;
    // The rule reads series_next_up, which the endpoint brings up to date first: ask once before computing it.
    await request('GET', `/api/v3/Dashboard/ContinueWatchingEpisodes?round=${round}`, users[0]);
    for (const userId of users)
      for (const specials of [true, false])
        for (const others of [false, true])
          for (const restricted of ['false', 'true', 'only'] as const) {
            const expected = await rule(userId, { specials, others, restricted });
            const query = `includeSpecials=${specials}&includeOthers=${others}&includeRestricted=${restricted}&round=${round}`;
            const all = (await request('GET', `/api/v3/Dashboard/ContinueWatchingEpisodes?pageSize=100&${query}`, userId)).json() as Page;
            expect({ Total: all.Total, List: all.List.map(entry) }, `user ${userId} ${query}`).toEqual({
              Total: expected.length,
              List: expected,
            });
            // Next Up reads the same rows: without sessions it leaves their series out, combined it shows each session.
            if (restricted === 'true') {
              const nextUp = async (onlyUnwatched: boolean) =>
                (
                  (
                    await request('GET', `/api/v3/Dashboard/NextUpEpisodes?pageSize=100&onlyUnwatched=${onlyUnwatched}&${query}`, userId)
                  ).json() as Page
                ).List.map(entry);
              const inProgress = new Set(expected.map(([sid]) => sid));
              expect(
                (await nextUp(true)).filter(([sid]) => inProgress.has(sid)),
                `Next Up, user ${userId} ${query}`,
              ).toEqual([]);
              expect(
                (await nextUp(false)).filter(([sid]) => inProgress.has(sid)),
                `Next Up combined, user ${userId} ${query}`,
              ).toEqual(expected);
            }
            if (restricted === 'false') {
              const second = (
                await request('GET', `/api/v3/Dashboard/ContinueWatchingEpisodes?pageSize=2&page=2&${query}`, userId)
              ).json() as Page;
              expect({ Total: second.Total, List: second.List.map(entry) }, `user ${userId} page 2 ${query}`).toEqual({
                Total: expected.length,
                List: expected.slice(2, 4),
              });
            }
          }
    return rule(users[0], { specials: true, others: false, restricted: 'false' });
  }
  const seriesOrder = (entries: Entry[]) =>
    entries.map(([sid]) => Object.keys(series).find((name) => series[name].seriesId === sid) ?? `#${sid}`);

  beforeAll(async () => {
    server = await createTestServer();
    db = server.services.db.kysely;
    const adminKey = await completeFirstRun(server);
    const second = await createUser(server, adminKey, 'second', 'second-pass');
    const admin = await db.selectFrom('users').select('id').where('id', '<>', second.id).executeTakeFirstOrThrow();
    users.push(admin.id, second.id);
    keys[admin.id] = adminKey;
    keys[second.id] = second.key;
    const written = await insertSeries(db, [
      {
        animeId: 1,
        title: 'Alpha',
        episodes: [
          { id: 101, file: 2 },
          { id: 102, file: true },
          { id: 103, type: 'Special', number: 1, file: true },
          { id: 104, type: 'Credits', number: 1, file: true },
          { id: 105, type: 'Other', number: 2, file: true },
        ],
      },
      {
        animeId: 2,
        title: 'Beta',
        episodes: [
          { id: 201, file: true },
          { id: 202, file: true },
          { id: 203, file: true },
        ],
      },
      { animeId: 3, title: 'Restricted', episodes: [{ id: 301, file: true }] },
      {
        animeId: 4,
        title: 'Delta',
        episodes: [
          { id: 401, file: true },
          { id: 402, file: true },
        ],
      },
      { animeId: 5, title: 'Epsilon', episodes: [{ id: 501, file: true }, { id: 502 }] },
    ]);
    for (const [name, animeId] of [
      ['Alpha', 1],
      ['Beta', 2],
      ['Restricted', 3],
      ['Delta', 4],
      ['Epsilon', 5],
    ] as const)
      series[name] = written.get(animeId)!;
    await db.updateTable('anidb_anime').set({ restricted: 1 }).where('id', '=', 3).execute();
  });
  afterAll(async () => server?.close());

  // About 700 requests: minutes on a loaded machine with PostgreSQL.
  it('answers what the rule says after sessions, watching, unwatching, deletions, link changes and a bulk write', async () => {
    const [first, second] = users;
    expect(await expectTheRule()).toEqual([]);

    // Sessions of every kind for the first user, one shared series with the second.
    await scrobble(first, 101, 'event=pause&resumePosition=00:03:00');
    await scrobble(first, 201, 'resumePosition=00:10:00');
    await scrobble(first, 103, 'resumePosition=00:01:00');
    await scrobble(first, 104, 'resumePosition=00:00:30');
    await scrobble(first, 301, 'resumePosition=00:04:00');
    await scrobble(second, 202, 'resumePosition=00:07:00');
    await scrobble(first, 105, 'resumePosition=00:02:00');
    expect(seriesOrder(await expectTheRule())).toEqual(['Alpha', 'Beta']);

    // Watching another episode of Beta moves it first (the series' watch activity), Alpha's session stays.
    await new Promise((resolve) => setTimeout(resolve, 3));
    await request('POST', `/api/v3/Episode/${series.Beta.episodeIds[2]}/Watched/true`, first);
    expect(seriesOrder(await expectTheRule())).toEqual(['Beta', 'Alpha']);

    // Resuming another release of Alpha E1 makes it Alpha's session and moves Alpha first.
    await scrobble(first, 101, 'resumePosition=00:05:00', 1);
    const resumed = await expectTheRule();
    expect(seriesOrder(resumed)).toEqual(['Alpha', 'Beta']);
    expect(resumed[0][2]).toBe(await fileOf(101, 1));

    // Finishing it ends that session (the older special takes over); unwatching the episode changes the activity.
    await scrobble(first, 101, 'event=stop&watched=true', 1);
    await expectTheRule();
    await new Promise((resolve) => setTimeout(resolve, 3));
    await request('POST', `/api/v3/Episode/${series.Beta.episodeIds[2]}/Watched/false`, first);
    await expectTheRule();
    // A resume position back to zero ends a session too.
    await scrobble(first, 105, 'resumePosition=00:00:00');
    await expectTheRule();

    // A second user's sessions stay theirs.
    await scrobble(second, 401, 'resumePosition=00:06:00');
    await scrobble(second, 101, 'resumePosition=00:08:00');
    await expectTheRule();

    // A deleted file takes its sessions with it.
    await db
      .deleteFrom('files')
      .where('id', '=', await fileOf(103))
      .execute();
    await expectTheRule();

    // A file's content linked to an episode of another series starts a session there; unlinked, it ends.
    const link = {
      ed2k: (
        await db
          .selectFrom('files')
          .select('ed2k')
          .where('id', '=', await fileOf(201))
          .executeTakeFirstOrThrow()
      ).ed2k,
      size: 100_000_201,
      anime_id: 5,
      episode_id: 502,
      percentage: 100,
      ordering: 1,
      source: 'User' as const,
      release_group_id: null,
    };
    await db.insertInto('file_episode_links').values(link).execute();
    expect(seriesOrder(await expectTheRule())).toContain('Epsilon');
    // An episode that moves to another series takes its session along.
    await db.updateTable('episodes').set({ series_id: series.Delta.seriesId }).where('id', '=', series.Epsilon.episodeIds[1]).execute();
    await expectTheRule();
    await db.deleteFrom('file_episode_links').where('episode_id', '=', 502).execute();
    await expectTheRule();

    // A deleted series takes its sessions with it (the second user's Delta session).
    await request('DELETE', `/api/v3/Series/${series.Delta.seriesId}`, first);
    await expectTheRule();

    // A bulk write like the Shoko import's: the marking triggers off, every series marked at the end, then the
    // maintained figures brought up to date as the import does; nothing is left for the first reader.
    await db.transaction().execute(async (trx) => {
      const { markEverythingAndResume } = await suspendMarkTriggers(trx, server.services.db.dialect);
      const files = await trx.selectFrom('files').select('id').orderBy('id').execute();
      const now = Date.now();
      await trx
        .insertInto('user_file_states')
        .values(
          files.flatMap((f, i) =>
            users.map((userId, u) => ({
              user_id: userId,
              file_id: f.id,
              resume_position_ms: (i + u) % 3 ? 60_000 * (i + 1) : 0,
              watched_at: null,
              watch_count: 0,
              updated_at: new Date(now + 1_000 * ((i * 7 + u * 3) % 11)).toISOString(),
            })),
          ),
        )
        .onConflict((oc) =>
          oc.columns(['user_id', 'file_id']).doUpdateSet((eb) => ({
            resume_position_ms: eb.ref('excluded.resume_position_ms'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
      await markEverythingAndResume();
    });
    await refreshMaintainedFigures(db, server.services.db.dialect);
    const pending = await sql<{ count: unknown }>`SELECT COUNT(*) AS count FROM continue_watching_dirty`.execute(db);
    expect(Number(pending.rows[0].count)).toBe(0);
    expect((await expectTheRule()).length).toBeGreaterThan(1);
  }, 180_000);

  it('fills the rows of a database from before them when it is upgraded', async () => {
    const sessions = await expectTheRule();
    expect(sessions.length).toBeGreaterThan(1);
    // Back to the schema before migration 0061, the sessions kept.
    const dialect = server.services.db.dialect;
    if (dialect === 'postgres') {
      await sql`DROP TRIGGER user_file_states_continue_watching ON user_file_states`.execute(db);
      await sql`DROP FUNCTION user_file_states_continue_watching()`.execute(db);
    } else
      for (const event of ['insert', 'delete', 'update'])
        await sql`DROP TRIGGER ${sql.id(`user_file_states_continue_watching_${event}`)}`.execute(db);
    await sql`DROP TABLE continue_watching`.execute(db);
    await sql`DROP TABLE continue_watching_dirty`.execute(db);
    await sql`DELETE FROM kysely_migration WHERE name = '0061_continue_watching'`.execute(db);
    await server.close({ keepData: true });
    server = await createTestServer({ restartOf: server });
    await request('GET', '/api/v3/Init/StartServer', users[0]);
    await server.services.init.waitForStartup();
    expect(server.services.state.current).toBe('Started');
    db = server.services.db.kysely;
    expect(await expectTheRule()).toEqual(sessions);
  }, 180_000);
});
