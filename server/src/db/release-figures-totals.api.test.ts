import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ListResult, SeriesWithEpisodeCount } from '@shoko-ts/contract';
import { generateCollection } from '../domains/groups/synthetic.js';
import { seriesTestServer } from '../domains/series/test-support.js';
import type { TestServer } from '../test/harness.js';
import { refreshSeriesAggregates } from './aggregates.js';
import { addReleases, scannedReleaseSeries } from './release-figures.test-support.js';

const RM = '/api/v3/ReleaseManagement';
const DAY = 24 * 60 * 60 * 1000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The totals of release management's multiples and duplicates lists (migration 0045): an unrestricted viewer reads a
 * maintained total (less the series not finished by today), a viewer with restricted tags a count of the list. After
 * each change — files, links, variations, locations, an anime's end date, the day passing it, an anime stored late or
 * removed, a series deleted, the viewer's restrictions — the paged answers (every page's Total, the ids in order) are
 * compared with a scan of the base tables, and the maintained total with one recomputed from every series.
 */
describe('release-management list totals', () => {
  let server: TestServer;
  let admin: string;
  let viewer: { id: number; key: string };
  let restrictedTags: number[] = [];

  beforeAll(async () => {
    const setup = await seriesTestServer([]);
    server = setup.server;
    admin = setup.key;
    viewer = setup.viewer;
    await generateCollection(db(), { series: 16, files: 260, seed: 23, placeFiles: true });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await server?.close();
  });

  const db = () => server.services.db.kysely;

  /** Every page of a list at `pageSize` 3: each page's Total, and the `[id, count]` rows in order. */
  async function paged(url: string, key: string) {
    const rows: Array<[number, number]> = [];
    const totals = new Set<number>();
    for (let page = 1; ; page++) {
      const res = await server.request({ method: 'GET', url: `${url}&pageSize=3&page=${page}`, key });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as ListResult<SeriesWithEpisodeCount>;
      totals.add(body.Total);
      rows.push(...body.List.map((s): [number, number] => [s.IDs.ID, s.EpisodeCount]));
      if (body.List.length < 3) return { totals: [...totals], rows };
    }
  }

  async function totalsRow() {
    return db().selectFrom('series_release_totals').selectAll().execute();
  }

  let checks = 0;
  /** Returns the unrestricted multiples list (with variations), to show that the changes changed something. */
  async function expectTotals() {
    checks += 1;
    let multiples: Array<[number, number]> = [];
    for (const [type, ignoreVariations] of [
      ['MultipleReleases', true],
      ['MultipleReleases', false],
      ['DuplicateFiles', false],
    ] as const) {
      for (const onlyFinished of [false, true]) {
        const url = `${RM}/${type}/Series?ignoreVariations=${ignoreVariations}&onlyFinishedSeries=${onlyFinished}`;
        for (const [key, tags] of [
          [admin, []],
          [viewer.key, restrictedTags],
        ] as const) {
          const want = await scannedReleaseSeries(db(), type, { ignoreVariations, onlyFinished, restrictedTags: tags });
          const served = await paged(url, key);
          const label = `${url} ${key === admin ? 'admin' : `viewer hiding ${tags.join(',')}`} (check ${checks})`;
          expect(served.rows, label).toEqual(want);
          expect(served.totals, label).toEqual([want.length]);
          if (key === admin && type === 'MultipleReleases' && !ignoreVariations && !onlyFinished) multiples = want;
        }
      }
    }
    // The totals kept through the figure rows' triggers equal those of a recompute of every series.
    const kept = await totalsRow();
    await sql`INSERT INTO aggregate_dirty_series (series_id) SELECT id FROM series`.execute(db());
    await refreshSeriesAggregates(db(), server.services.db.dialect);
    expect(await totalsRow(), `totals (check ${checks})`).toEqual(kept);
    return multiples;
  }

  async function seriesWithMultiples() {
    const { rows } = await sql<{ series_id: number; anime_id: number }>`SELECT r.series_id, s.anime_id FROM series_release_figures r
      JOIN series s ON s.id = r.series_id WHERE r.multiple_count > 0 ORDER BY r.series_id`.execute(db());
    return rows;
  }

  it('equal the lists a scan of the base tables gives, for every viewer, change and day', async () => {
    const first = await expectTotals();
    expect(first.length).toBeGreaterThan(3);
    expect((await scannedReleaseSeries(db(), 'DuplicateFiles', {})).length).toBeGreaterThan(1);

    // Two new files on an episode with one file at most (of a series without several releases if there is one), one
    // of them then a variation.
    const { rows: plain } = await sql<{ id: number }>`SELECT e.id FROM episodes e
      WHERE (SELECT COUNT(*) FROM file_episode_links l WHERE l.episode_id = e.anidb_episode_id) <= 1
      ORDER BY CASE WHEN e.series_id IN (SELECT series_id FROM series_release_figures WHERE multiple_count > 0) THEN 1 ELSE 0 END, e.id
      LIMIT 1`.execute(db());
    const added = await addReleases(server, admin, plain[0]!.id, [
      [8181, 'AB'.repeat(16)],
      [8282, 'BA'.repeat(16)],
    ]);
    await expectTotals();
    await db().updateTable('files').set({ is_variation: 1 }).where('id', '=', added[0]!).execute();

    // A location more for a file of the first series with multiples; the other copy of a file stored twice removed.
    const [target, other] = await seriesWithMultiples();
    const folder = await db().selectFrom('import_folders').select('id').limit(1).executeTakeFirstOrThrow();
    const { rows: targetFiles } = await sql<{
      id: number;
    }>`SELECT f.id FROM files f JOIN file_episode_links l ON l.ed2k = f.ed2k AND l.size = f.size
      JOIN episodes e ON e.anidb_episode_id = l.episode_id WHERE e.series_id = ${target!.series_id} ORDER BY f.id LIMIT 1`.execute(db());
    await db()
      .insertInto('file_locations')
      .values({ file_id: targetFiles[0]!.id, import_folder_id: folder.id, relative_path: 'totals/copy.mkv', is_accessible: 1, mtime_ms: 0 })
      .execute();
    const { rows: copies } = await sql<{ id: number }>`SELECT MAX(id) AS id FROM file_locations GROUP BY file_id HAVING COUNT(*) > 1
      ORDER BY MAX(id) LIMIT 1`.execute(db());
    await db().deleteFrom('file_locations').where('id', '=', copies[0]!.id).execute();
    await expectTotals();

    // An anime ending tomorrow is not finished today, and is the day after, with nothing written in between.
    const now = Date.now();
    await db()
      .updateTable('anidb_anime')
      .set({ end_date: dayOf(now + DAY) })
      .where('id', '=', target!.anime_id)
      .execute();
    await db().updateTable('anidb_anime').set({ end_date: null }).where('id', '=', other!.anime_id).execute();
    await expectTotals();
    vi.useFakeTimers({ toFake: ['Date'], now: now + 2 * DAY });
    try {
      await expectTotals();
    } finally {
      vi.useRealTimers();
    }

    // The viewer's restrictions hide the tags of the target's anime.
    const { rows: tags } = await sql<{ tag_id: number }>`SELECT tag_id FROM anidb_anime_tags WHERE anime_id = ${target!.anime_id}
      ORDER BY tag_id LIMIT 1`.execute(db());
    restrictedTags = tags.map((t) => Number(t.tag_id));
    const res = await server.request({
      method: 'PATCH',
      url: `/api/v3/User/${viewer.id}`,
      key: admin,
      body: [{ op: 'replace', path: '/RestrictedTags', value: restrictedTags }],
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectTotals();

    // A series whose anime is not stored is in no list until it is, and leaves with it.
    const anime = await db().selectFrom('anidb_anime').selectAll().where('id', '=', other!.anime_id).executeTakeFirstOrThrow();
    await db().updateTable('series').set({ anime_id: 990_001 }).where('id', '=', other!.series_id).execute();
    await expectTotals();
    await db()
      .insertInto('anidb_anime')
      .values({ ...anime, id: 990_001, end_date: '2001-02-03' })
      .execute();
    await expectTotals();
    await db().deleteFrom('anidb_anime').where('id', '=', 990_001).execute();
    await expectTotals();

    // A series deleted with its episodes.
    await db().deleteFrom('episodes').where('series_id', '=', target!.series_id).execute();
    await db().deleteFrom('series').where('id', '=', target!.series_id).execute();
    const last = await expectTotals();
    expect(last).not.toEqual(first);
  });
});
