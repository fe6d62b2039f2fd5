import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, ListResult, Series } from '@shoko-ts/contract';
import { serverWithCollection } from '../test/generated-collection.js';
import { getJson, type TestServer } from '../test/harness.js';
import { groupOrderKey, refreshOrderKeys, seriesOrderKey, sortName } from './name-order.js';
import { insertGroup } from './shared-queries.js';

/**
 * The name-order keys of series and groups (migration 0042, db/name-order.ts). After each kind of change — title
 * overrides set and cleared through the API, AniDB titles renamed, an anime deleted and stored again, series moved to
 * another anime or group, groups renamed through the API and in the table, new series and groups, names outside ASCII
 * (case mappings JS and the databases disagree on, characters beyond U+FFFF against U+FF21, whose UTF-8 and UTF-16
 * orders differ) — every stored key is compared with a fresh computation from the base tables once the missing ones
 * are filled, and GET Series, Group?topLevelOnly and Group/Letters with the order of the fresh names in code.
 */
describe('maintained name-order keys', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    ({ server, admin } = await serverWithCollection({ series: 10, files: 60, seed: 7, placeFiles: true }));
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.services.db.kysely;
  const get = <T>(url: string) => getJson<T>(server, url, admin);
  const byKey = <T extends { id: number; key: string }>(a: T, b: T) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id - b.id);

  async function expectFresh() {
    // Changes made straight in the tables raise no event: drop cached answers as a job's end does.
    server.services.bus.emit('job:finished', { type: 'AniDBGetAnime' });
    await refreshOrderKeys(db());
    const { rows: series } = await sql<{ id: number; kept: string | null; title_override: string | null; main_title: string | null }>`
      SELECT s.id, s.order_key AS kept, s.title_override, a.main_title FROM series s LEFT JOIN anidb_anime a ON a.id = s.anime_id
      ORDER BY s.id`.execute(db());
    expect(series.length).toBeGreaterThan(0);
    expect(series.map((r) => [r.id, r.kept])).toEqual(series.map((r) => [r.id, seriesOrderKey(r.title_override, r.main_title)]));
    const { rows: groups } = await sql<{ id: number; kept: string | null; name: string; parent_id: number | null }>`
      SELECT id, order_key AS kept, name, parent_id FROM groups ORDER BY id`.execute(db());
    expect(groups.map((r) => [r.id, r.kept])).toEqual(groups.map((r) => [r.id, groupOrderKey(r.name)]));

    // The lists in the order of the names, computed here with JS's own case mapping and comparison.
    const names = series
      .map((r) => ({ id: r.id, key: (r.title_override ?? r.main_title ?? '').toLowerCase() }))
      .sort(byKey)
      .map((r) => r.id);
    const list = await get<ListResult<Series>>('/api/v3/Series?pageSize=0');
    expect(list.List.map((s) => s.IDs.ID)).toEqual(names);
    const page = await get<ListResult<Series>>('/api/v3/Series?pageSize=3&page=2');
    expect(page.Total).toBe(names.length);
    expect(page.List.map((s) => s.IDs.ID)).toEqual(names.slice(3, 6));

    const tops = groups
      .filter((g) => g.parent_id === null)
      .map((g) => ({ id: g.id, key: sortName(g.name) }))
      .sort(byKey);
    const groupPage = await get<ListResult<Group>>('/api/v3/Group?topLevelOnly=true&includeEmpty=true&pageSize=0');
    expect(groupPage.List.map((g) => g.IDs.ID)).toEqual(tops.map((g) => g.id));
    const letters: Record<string, number> = {};
    for (const g of tops) letters[g.key.charAt(0)] = (letters[g.key.charAt(0)] ?? 0) + 1;
    const served = await get<Record<string, number>>('/api/v3/Group/Letters?topLevelOnly=true&includeEmpty=true');
    expect(Object.entries(served)).toEqual(Object.entries(letters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  it('holds after the generated collection is stored', async () => {
    await expectFresh();
  });

  it('follows title overrides set and cleared through the API, with names outside ASCII', async () => {
    const ids = (await db().selectFrom('series').select('id').orderBy('id').execute()).map((s) => s.id);
    const titles = ['Ärger', 'ärger', 'Émile', 'zebra', 'Straße', 'İstanbul', '\u{1F600} smile', '\uFF21 wide', 'ΣΑΣ', 'a'];
    for (const [i, title] of titles.entries()) {
      const res = await server.request({
        method: 'POST',
        url: `/api/v3/Series/${ids[i]}/OverrideTitle`,
        key: admin,
        body: { Title: title },
      });
      expect(res.statusCode, res.body).toBe(200);
      await expectFresh();
    }
    const res = await server.request({ method: 'POST', url: `/api/v3/Series/${ids[0]}/OverrideTitle`, key: admin, body: { Title: '' } });
    expect(res.statusCode, res.body).toBe(200);
    await expectFresh();
  });

  it('follows AniDB titles renamed, deleted and stored again, and series moved to another anime or group', async () => {
    const series = await db().selectFrom('series').select(['id', 'anime_id', 'group_id']).orderBy('id').execute();
    const last = series[series.length - 1];
    await db().updateTable('series').set({ title_override: null }).where('id', '=', last.id).execute();
    await expectFresh();
    await db().updateTable('anidb_anime').set({ main_title: 'Ñandú' }).where('id', '=', last.anime_id).execute();
    await expectFresh();
    const anime = await db().selectFrom('anidb_anime').selectAll().where('id', '=', last.anime_id).executeTakeFirstOrThrow();
    await db().deleteFrom('anidb_anime').where('id', '=', last.anime_id).execute();
    await expectFresh();
    await db()
      .insertInto('anidb_anime')
      .values({ ...anime, main_title: 'ÿ stored again' })
      .execute();
    await expectFresh();
    await db()
      .insertInto('anidb_anime')
      .values({ ...anime, id: 990_101, main_title: 'Bbb Other Anime' })
      .execute();
    await db().updateTable('series').set({ anime_id: 990_101, group_id: series[0].group_id }).where('id', '=', last.id).execute();
    await expectFresh();
  });

  it('follows groups renamed through the API and in the table, and new series and groups', async () => {
    const groups = await db().selectFrom('groups').select('id').orderBy('id').execute();
    for (const [i, name] of ['éclair', 'Éclair', '#hash', '1st group', '\u{1F600} group', '\uFF21 group'].entries()) {
      if (!groups[i]) break;
      const res = await server.request({
        method: 'PATCH',
        url: `/api/v3/Group/${groups[i].id}`,
        key: admin,
        body: [{ op: 'replace', path: '/Name', value: name }],
      });
      expect(res.statusCode, res.body).toBe(200);
      await expectFresh();
    }
    await db()
      .updateTable('groups')
      .set({ name: 'ßeta' })
      .where('id', '=', groups[groups.length - 1].id)
      .execute();
    await expectFresh();
    const stamp = new Date().toISOString();
    const group = { id: await insertGroup(db(), { parent_id: null, name: 'Ωmega', description: '', has_custom_name: 1 }, stamp) };
    const anime = await db().selectFrom('anidb_anime').selectAll().orderBy('id').executeTakeFirstOrThrow();
    await db()
      .insertInto('anidb_anime')
      .values({ ...anime, id: 990_102, main_title: 'Ωmega anime' })
      .execute();
    await db()
      .insertInto('series')
      .values({ anime_id: 990_102, group_id: group.id, title_override: 'Ωmega series', created_at: stamp, updated_at: stamp })
      .execute();
    await expectFresh();
  });
});
