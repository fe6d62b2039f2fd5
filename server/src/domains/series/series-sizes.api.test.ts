import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeriesSizes } from '@shoko-ts/contract';
import { up as upSeriesSizes } from '../../db/migrations/0048_series_sizes.js';
import { SERIES_SIZE_TABLES } from '../../db/series-sizes.js';
import type { TestServer } from '../../test/harness.js';
import { seriesTestServer } from './test-support.js';
import { COUNT_KEY_BY_EPISODE_TYPE, emptySizes, fileSourceOf } from './series-browse.store.js';
import { insertSeries } from '../groups/synthetic.store.js';

/**
 * The Series model's Sizes, read from the maintained series figures (0048) and series aggregates, against a computation
 * from the base tables (episodes, their AniDB rows, links, files, AniDB file data and watch states) after each change;
 * and the figures migration 0048 fills from the base tables against those the refresh keeps.
 */
describe('series sizes', () => {
  let server: TestServer;
  let key: string;
  let adminId: number;
  const series: Record<number, number> = {};
  const db = () => server.services.db.kysely;
  const today = new Date().toISOString().slice(0, 10);

  const fresh = async (seriesId: number): Promise<SeriesSizes> => {
    const sizes = emptySizes();
    const episodes = await db()
      .selectFrom('episodes as e')
      .leftJoin('anidb_episodes as ae', 'ae.id', 'e.anidb_episode_id')
      .select(['e.id', 'e.anidb_episode_id', 'e.is_hidden', 'ae.type', 'ae.air_date'])
      .where('e.series_id', '=', seriesId)
      .execute();
    const links = await db()
      .selectFrom('file_episode_links as l')
      .innerJoin('files as f', (j) => j.onRef('f.ed2k', '=', 'l.ed2k').onRef('f.size', '=', 'l.size'))
      .leftJoin('anidb_files as af', (j) => j.onRef('af.ed2k', '=', 'f.ed2k').onRef('af.size', '=', 'f.size'))
      .select(['l.episode_id', 'f.id as file_id', 'af.source'])
      .where(
        'l.episode_id',
        'in',
        episodes.map((e) => e.anidb_episode_id),
      )
      .execute();
    const watched = new Set(
      (
        await db()
          .selectFrom('user_episode_states')
          .select('episode_id')
          .where('user_id', '=', adminId)
          .where('watched_at', 'is not', null)
          .execute()
      ).map((w) => w.episode_id),
    );
    const files = new Map<number, string | null>();
    for (const link of links) files.set(link.file_id, link.source);
    for (const source of files.values()) sizes.FileSources[fileSourceOf(source)]++;
    for (const episode of episodes) {
      if (episode.is_hidden) {
        sizes.Hidden++;
        continue;
      }
      const key = episode.type ? (COUNT_KEY_BY_EPISODE_TYPE[episode.type] ?? 'Others') : 'Unknown';
      sizes.Total[key]++;
      if (links.some((l) => l.episode_id === episode.anidb_episode_id)) {
        sizes.Local[key]++;
        if (watched.has(episode.id)) sizes.Watched[key]++;
      } else if ((key === 'Episodes' || key === 'Specials') && episode.air_date && episode.air_date.slice(0, 10) <= today) {
        sizes.Missing[key]++;
      }
    }
    return sizes;
  };
  const served = async (seriesId: number) => {
    const res = await server.request({ method: 'GET', url: `/api/v3/Series/${seriesId}`, key });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return (res.json() as { Sizes: SeriesSizes }).Sizes;
  };
  const expectFresh = async () => {
    // The changes are written behind the services' backs: announce them as an import does (the answer cache drops).
    server.services.bus.emit('job:finished', { type: 'AniDBGetAnime' });
    for (const id of Object.values(series)) expect(await served(id), `series ${id}`).toEqual(await fresh(id));
  };

  beforeAll(async () => {
    const setup = await seriesTestServer([]);
    server = setup.server;
    key = setup.key;
    adminId = (await db().selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const written = await insertSeries(db(), [
      {
        animeId: 701,
        title: 'Sizes One',
        fileSource: 'Blu-ray',
        episodes: [
          { id: 7001, number: 1, airDate: '2020-01-01', file: true, watchedBy: [adminId] },
          { id: 7002, number: 2, airDate: '2020-01-08', file: 2 },
          { id: 7003, number: 3, airDate: '2020-01-15' },
          { id: 7004, number: 4, airDate: '2999-01-01' },
          { id: 7005, type: 'Special', number: 1, airDate: '2020-02-01', file: true, hidden: true },
          { id: 7006, type: 'Credits', number: 1, file: true, watchedBy: [adminId] },
          { id: 7007, type: 'Special', number: 2, airDate: '2020-02-02' },
        ],
      },
      {
        animeId: 702,
        title: 'Sizes Two',
        episodes: [
          { id: 7101, number: 1, airDate: '2021-01-01', file: true },
          { id: 7102, type: 'Trailer', number: 1, file: true, watchedBy: [adminId] },
        ],
      },
      { animeId: 703, title: 'Sizes Three', episodes: [{ id: 7201, number: 1, airDate: '2021-01-01' }] },
    ]);
    for (const [animeId, w] of written) series[animeId] = w.seriesId;
  }, 60_000);
  afterAll(() => server?.close());

  it('match the base tables as files, sources, links, hiding and watch state change', async () => {
    await expectFresh();
    // AniDB's source of a file changes, one is empty, another one this server does not know.
    const [first, second, third] = await db().selectFrom('anidb_files').select(['ed2k', 'size']).orderBy('ed2k').limit(3).execute();
    await db().updateTable('anidb_files').set({ source: 'DVD' }).where('ed2k', '=', first.ed2k).execute();
    await db().updateTable('anidb_files').set({ source: '' }).where('ed2k', '=', second.ed2k).execute();
    await db().updateTable('anidb_files').set({ source: 'Betamax' }).where('ed2k', '=', third.ed2k).execute();
    await expectFresh();
    // AniDB forgets a file altogether; a file is deleted; a missing episode gains a link to an existing file.
    const [forgotten, deleted] = await db().selectFrom('files').select(['id', 'ed2k', 'size']).orderBy('id', 'desc').limit(2).execute();
    await db().deleteFrom('anidb_files').where('ed2k', '=', forgotten.ed2k).execute();
    await db().deleteFrom('files').where('id', '=', deleted.id).execute();
    await expectFresh();
    const link = await db().selectFrom('file_episode_links').selectAll().where('episode_id', '=', 7001).executeTakeFirstOrThrow();
    await db()
      .insertInto('file_episode_links')
      .values({ ...link, id: undefined, episode_id: 7003 } as never)
      .execute();
    await expectFresh();
    // Hidden and shown again, watched and unwatched through the API.
    const episodeOf = async (anidbId: number) =>
      (await db().selectFrom('episodes').select('id').where('anidb_episode_id', '=', anidbId).executeTakeFirstOrThrow()).id;
    await db()
      .updateTable('episodes')
      .set({ is_hidden: 1 })
      .where('id', '=', await episodeOf(7002))
      .execute();
    await db()
      .updateTable('episodes')
      .set({ is_hidden: 0 })
      .where('id', '=', await episodeOf(7005))
      .execute();
    await expectFresh();
    for (const [anidbId, watched] of [
      [7101, true],
      [7001, false],
    ] as const) {
      const res = await server.request({ method: 'POST', url: `/api/v3/Episode/${await episodeOf(anidbId)}/Watched/${watched}`, key });
      expect(res.statusCode).toBe(200);
    }
    await expectFresh();
    // AniDB moves an unaired episode into the past, turns a special into another type and empties a type (Unknown).
    await db().updateTable('anidb_episodes').set({ air_date: '2020-03-01' }).where('id', '=', 7004).execute();
    await db().updateTable('anidb_episodes').set({ type: 'Other' }).where('id', '=', 7007).execute();
    await db().updateTable('anidb_episodes').set({ type: '' }).where('id', '=', 7102).execute();
    await expectFresh();
  });

  it('are filled by migration 0048 as the refresh keeps them', async () => {
    const snapshot = async () =>
      Promise.all(
        SERIES_SIZE_TABLES.map(async (table) => {
          const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db());
          return rows.map((r) => JSON.stringify(r)).sort();
        }),
      );
    await served(series[701]);
    const kept = await snapshot();
    expect(kept[0].length).toBeGreaterThan(0);
    expect(kept[1].length).toBeGreaterThan(0);
    expect(kept[2].length).toBeGreaterThan(0);
    for (const table of SERIES_SIZE_TABLES) await sql`DROP TABLE ${sql.table(table)}`.execute(db());
    await upSeriesSizes(db() as never, { dialect: server.services.db.dialect });
    expect(await snapshot()).toEqual(kept);
  });
});
