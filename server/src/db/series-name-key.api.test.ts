import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListResult, SeriesWithEpisodeCount } from '@shoko-ts/contract';
import { serverWithCollection } from '../test/generated-collection.js';
import type { TestServer } from '../test/harness.js';

/**
 * The maintained name key of each series (migration 0040: lower(title override, else AniDB main title, else '')).
 * After each kind of change — an override set and cleared through the API, an AniDB title renamed, an anime stored
 * after its series, an anime deleted, a series moved to another anime or group, a series inserted — every row's key is
 * compared with the expression computed from the base tables, and a release-management page with the order by it.
 */
describe('maintained series name keys', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    ({ server, admin } = await serverWithCollection({ series: 8, files: 60, seed: 5, placeFiles: true }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.services.db.kysely;

  async function expectKeysFresh() {
    const { rows } = await sql<{ id: number; kept: string; fresh: string }>`SELECT s.id, s.name_key AS kept,
        lower(COALESCE(s.title_override, a.main_title, '')) AS fresh
      FROM series s LEFT JOIN anidb_anime a ON a.id = s.anime_id ORDER BY s.id`.execute(db());
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => [r.id, r.kept])).toEqual(rows.map((r) => [r.id, r.fresh]));
  }

  /** Release management's duplicates list (every series with a stored file twice) in the order of the fresh names. */
  async function expectPageOrderFresh() {
    const res = await server.request({
      method: 'GET',
      url: '/api/v3/ReleaseManagement/MultipleReleases/Series?ignoreVariations=false&pageSize=3&page=2',
      key: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as ListResult<SeriesWithEpisodeCount>;
    const { rows } = await sql<{ id: number }>`SELECT s.id FROM series s JOIN anidb_anime a ON a.id = s.anime_id
      JOIN series_release_figures r ON r.series_id = s.id WHERE r.multiple_count > 0
      ORDER BY lower(COALESCE(s.title_override, a.main_title)), a.id`.execute(db());
    expect(page.Total).toBe(rows.length);
    expect(page.List.map((s) => s.IDs.ID)).toEqual(rows.slice(3, 6).map((r) => r.id));
  }

  it('holds after the generated collection is stored', async () => {
    await expectKeysFresh();
    await expectPageOrderFresh();
  });

  it('follows title overrides set and cleared through the API', async () => {
    const [first, second] = (await db().selectFrom('series').select('id').orderBy('id').limit(2).execute()).map((s) => s.id);
    for (const [id, title] of [
      [first, 'ÄAA First Override'],
      [second, 'zz last override'],
    ] as const) {
      const res = await server.request({
        method: 'POST',
        url: `/api/v3/Series/${id}/OverrideTitle`,
        key: admin,
        body: { Title: title },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await expectKeysFresh();
    await expectPageOrderFresh();
    const res = await server.request({ method: 'POST', url: `/api/v3/Series/${first}/OverrideTitle`, key: admin, body: { Title: '' } });
    expect(res.statusCode, res.body).toBe(200);
    await expectKeysFresh();
    await expectPageOrderFresh();
  });

  it('follows AniDB titles renamed, stored late, deleted, and series moved to another anime or group', async () => {
    const series = await db()
      .selectFrom('series')
      .select(['id', 'anime_id', 'group_id'])
      .where('title_override', 'is', null)
      .orderBy('id')
      .execute();
    const [renamed, moved, orphan] = series.slice(-3);
    await db().updateTable('anidb_anime').set({ main_title: 'Aaa Renamed Title' }).where('id', '=', renamed.anime_id).execute();
    await expectKeysFresh();
    await expectPageOrderFresh();

    // The anime row leaves and comes back (as a metadata refresh that replaces it would do).
    const anime = await db().selectFrom('anidb_anime').selectAll().where('id', '=', orphan.anime_id).executeTakeFirstOrThrow();
    await db().deleteFrom('anidb_anime').where('id', '=', orphan.anime_id).execute();
    await expectKeysFresh();
    await db()
      .insertInto('anidb_anime')
      .values({ ...anime, main_title: 'Mmm Stored Again' })
      .execute();
    await expectKeysFresh();

    // A series pointed at another (new) anime, and moved to another group.
    await db()
      .insertInto('anidb_anime')
      .values({ ...anime, id: 990_001, main_title: 'Bbb Other Anime' })
      .execute();
    await db().updateTable('series').set({ anime_id: 990_001 }).where('id', '=', moved.id).execute();
    await db().updateTable('series').set({ group_id: series[0].group_id }).where('id', '=', renamed.id).execute();
    await expectKeysFresh();
    await expectPageOrderFresh();
  });

  it('is set for a series inserted before and after its anime', async () => {
    const group = await db().selectFrom('groups').select('id').orderBy('id').executeTakeFirstOrThrow();
    const anime = await db().selectFrom('anidb_anime').selectAll().orderBy('id').executeTakeFirstOrThrow();
    const stamp = new Date().toISOString();
    await db()
      .insertInto('series')
      .values({ anime_id: 990_002, group_id: group.id, title_override: null, created_at: stamp, updated_at: stamp })
      .execute();
    await expectKeysFresh();
    await db()
      .insertInto('anidb_anime')
      .values({ ...anime, id: 990_002, main_title: 'Ccc Late Anime' })
      .execute();
    await db()
      .insertInto('anidb_anime')
      .values({ ...anime, id: 990_003, main_title: 'Ddd Early Anime' })
      .execute();
    await db()
      .insertInto('series')
      .values({ anime_id: 990_003, group_id: group.id, title_override: 'Eee Override First', created_at: stamp, updated_at: stamp })
      .execute();
    await expectKeysFresh();
    await expectPageOrderFresh();
  });
});
