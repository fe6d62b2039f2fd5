import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListResult, Series, SeriesWithEpisodeCount } from '@shoko-ts/contract';
import { generateCollection } from '../domains/groups/synthetic.js';
import { completeFirstRun, createTestServer, getJson, type TestServer } from '../test/harness.js';
import { refreshSeriesAggregates } from './aggregates.js';
import { RELEASE_FIGURE_TABLES } from './release-figures.js';
import { addReleases, scannedReleaseSeries, type ScanOptions } from './release-figures.test-support.js';

const RM = '/api/v3/ReleaseManagement';

/**
 * Release management's series lists and the Utilities series lists read maintained figures (migration 0034,
 * db/release-figures.ts). After each kind of change (links, variations, locations, files, episodes, air dates, release
 * groups) their answers are compared with the grouped scans of the base tables they used to run, and the maintained
 * rows with a recompute of every series from scratch.
 */
describe('maintained release-management figures', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await createTestServer();
    admin = await completeFirstRun(server);
    await generateCollection(server.services.db.kysely, { series: 10, files: 90, seed: 11, placeFiles: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.services.db.kysely;
  const get = <T>(url: string) => getJson<T>(server, url, admin);

  const scanned = (type: string, options: ScanOptions) => scannedReleaseSeries(db(), type, options);

  /** The Utilities lists as computed before 0034, by series id. */
  async function scannedUtility(userOnly: boolean) {
    const { rows } = await sql<{
      id: number;
    }>`SELECT s.id FROM series s WHERE ${userOnly ? sql`` : sql`NOT`} EXISTS (SELECT 1 FROM episodes e
      JOIN file_episode_links l ON l.episode_id = e.anidb_episode_id JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size
      WHERE e.series_id = s.id ${userOnly ? sql`AND l.source = 'User'` : sql``})`.execute(db());
    return rows.map((r) => r.id).sort((a, b) => a - b);
  }

  async function maintainedRows() {
    const rows = [];
    for (const table of RELEASE_FIGURE_TABLES) {
      const { rows: found } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db());
      rows.push(...found.map((r) => JSON.stringify([table, ...Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])])));
    }
    return rows.sort();
  }

  let checks = 0;
  async function expectFresh() {
    checks += 1;
    const lists: Array<[string, string, ScanOptions]> = [
      ['MultipleReleases', 'ignoreVariations=true', { ignoreVariations: true }],
      ['MultipleReleases', 'ignoreVariations=false', {}],
      ['MultipleReleases', 'ignoreVariations=false&onlyFinishedSeries=true', { onlyFinished: true }],
      ['DuplicateFiles', '', {}],
      ['MissingEpisodes', 'collecting=false', {}],
      ['MissingEpisodes', 'collecting=true', { collecting: true }],
      ['MissingEpisodes', 'collecting=true&onlyFinishedSeries=true', { collecting: true, onlyFinished: true }],
    ];
    for (const [type, query, options] of lists) {
      const served = await get<ListResult<SeriesWithEpisodeCount>>(`${RM}/${type}/Series?${query}&pageSize=0`);
      const want = await scanned(type, options);
      expect(
        served.List.map((s) => [s.IDs.ID, s.EpisodeCount]),
        `${type}?${query} (check ${checks})`,
      ).toEqual(want);
      expect(served.Total).toBe(want.length);
    }
    for (const [kind, userOnly] of [
      ['WithoutFiles', false],
      ['WithManuallyLinkedFiles', true],
    ] as const) {
      const served = await get<ListResult<Series>>(`/api/v3/Series/${kind}?pageSize=0`);
      expect(
        served.List.map((s) => s.IDs.ID).sort((a, b) => a - b),
        `${kind} (check ${checks})`,
      ).toEqual(await scannedUtility(userOnly));
    }
    // Every mark was consumed, and the rows kept by marks equal those of a recompute of every series.
    expect(await db().selectFrom('aggregate_dirty_series').selectAll().execute()).toEqual([]);
    const kept = await maintainedRows();
    await sql`INSERT INTO aggregate_dirty_series (series_id) SELECT id FROM series`.execute(db());
    await refreshSeriesAggregates(db(), server.services.db.dialect);
    expect(kept, `maintained rows (check ${checks})`).toEqual(await maintainedRows());
    return kept;
  }

  it('answer as the base tables do after links, variations, locations, files, episodes, air dates and groups change', async () => {
    const first = await expectFresh();
    expect(first.some((row) => row.includes('series_release_figures'))).toBe(true);
    const episodes = await db()
      .selectFrom('episodes as e')
      .innerJoin('anidb_episodes as ae', 'ae.id', 'e.anidb_episode_id')
      .select(['e.id', 'e.series_id', 'e.anidb_episode_id', 'ae.anime_id', 'ae.number', 'ae.type'])
      .where('ae.type', '=', 'Episode')
      .orderBy('e.series_id')
      .orderBy('ae.number')
      .execute();
    const seriesIds = [...new Set(episodes.map((e) => e.series_id))];
    const of = (seriesId: number) => episodes.filter((e) => e.series_id === seriesId);
    const filesOf = async (anidbEpisodeId: number) =>
      (
        await sql<{
          id: number;
        }>`SELECT f.id FROM files f JOIN file_episode_links l ON l.ed2k = f.ed2k AND l.size = f.size WHERE l.episode_id = ${anidbEpisodeId} ORDER BY f.id`.execute(
          db(),
        )
      ).rows.map((r) => r.id);

    // Two new files on one episode, linked by hand: several releases and a manual link; then one becomes a variation.
    const target = of(seriesIds[0]!)[0]!;
    const added = await addReleases(server, admin, target.id, [
      [7171, 'EF'.repeat(16)],
      [7272, 'FE'.repeat(16)],
    ]);
    await expectFresh();
    await db().updateTable('files').set({ is_variation: 1 }).where('id', '=', added[0]!).execute();
    await expectFresh();

    // A file stored twice, then a copy moved to another file, then removed.
    const folder = await db().selectFrom('import_folders').select('id').limit(1).executeTakeFirstOrThrow();
    const copy = await db()
      .insertInto('file_locations')
      .values({ file_id: added[1]!, import_folder_id: folder.id, relative_path: 'extra/copy.mkv', is_accessible: 1, mtime_ms: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('file_locations')
      .values({ file_id: added[1]!, import_folder_id: folder.id, relative_path: 'extra/copy2.mkv', is_accessible: 1, mtime_ms: 0 })
      .execute();
    await expectFresh();
    const other = (await Promise.all(of(seriesIds[1]!).map((e) => filesOf(e.anidb_episode_id)))).flat()[0] ?? added[0]!;
    await db().updateTable('file_locations').set({ file_id: other }).where('id', '=', copy.id).execute();
    await expectFresh();
    await db().deleteFrom('file_locations').where('id', '=', copy.id).execute();

    // Missing episodes: files of a series' middle episodes leave; one of them airs in the future, one is hidden; the
    // series' last episode gets a release group, so the earlier missing ones count as collecting; numbers change.
    const series = of(seriesIds[2]!).length >= 4 ? of(seriesIds[2]!) : episodes.filter((e) => of(e.series_id).length >= 4);
    const [first1, second, third, fourth] = series;
    for (const episode of [first1!, second!, third!]) {
      await db().deleteFrom('file_episode_links').where('episode_id', '=', episode.anidb_episode_id).execute();
    }
    await db().updateTable('anidb_episodes').set({ air_date: '2999-01-01' }).where('id', '=', third!.anidb_episode_id).execute();
    await expectFresh();
    await db()
      .updateTable('file_episode_links')
      .set({ source: 'AniDB', release_group_id: 5 })
      .where('episode_id', '=', fourth!.anidb_episode_id)
      .execute();
    await db().updateTable('episodes').set({ is_hidden: 1 }).where('id', '=', second!.id).execute();
    await expectFresh();
    await db().updateTable('anidb_episodes').set({ number: 999 }).where('id', '=', first1!.anidb_episode_id).execute();
    await db().updateTable('anidb_anime').set({ end_date: '2999-12-31' }).where('id', '=', first1!.anime_id).execute();
    await expectFresh();

    // A file deleted (its locations go with it), an episode deleted.
    await db().deleteFrom('files').where('id', '=', added[1]!).execute();
    await db().deleteFrom('episodes').where('id', '=', fourth!.id).execute();
    const last = await expectFresh();
    expect(last).not.toEqual(first);
  });
});
