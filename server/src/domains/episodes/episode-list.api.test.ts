import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { seriesTestServer } from '../series/test-support.js';

/**
 * GET Episode filters, orders and pages in SQL (issue 22); these compare every filter combination, both viewers and
 * several pages with the §5.5 rules computed here, in plain code, from the base tables.
 *
 * Invented data, series written in an order unlike their anime ids: "Harbour Lights" (anime 520) mixes every type
 * with numbers out of id order, a hidden episode, one with two releases, missing and unaired episodes (no air date,
 * an empty one, a future one) and one whose AniDB episode is gone; "Quiet Hills" (anime 510) carries tag 77, restricted
 * for the viewer; "Copper Town" (anime 530) has files for all but one episode. Both users watch and vote on some.
 */
describe('GET Episode filters and paging', () => {
  let server: TestServer;
  let keys: { admin: string; viewer: string };
  let users: { admin: number; viewer: number };
  const FILTERS = ['includeMissing', 'includeUnaired', 'includeHidden', 'includeWatched', 'includeVoted'] as const;
  const VALUES = ['true', 'false', 'only'] as const;
  const RANK = ['Episode', 'Credits', 'Special', 'Trailer', 'Parody', 'Other'];

  beforeAll(async () => {
    const setup = await seriesTestServer([77]);
    server = setup.server;
    keys = { admin: setup.key, viewer: setup.viewer.key };
    const db = server.services.db.kysely;
    const adminId = (await db.selectFrom('users').select('id').where('id', '<>', setup.viewer.id).executeTakeFirstOrThrow()).id;
    users = { admin: adminId, viewer: setup.viewer.id };
    const both = [adminId, setup.viewer.id];
    await insertSeries(db, [
      {
        animeId: 520,
        title: 'Harbour Lights',
        airDate: '2019-04-02',
        episodes: [
          { id: 5203, number: 3, file: true, watchedBy: both },
          { id: 5201, number: 1, file: 2, watchedBy: [adminId] },
          { id: 5202, number: 2, file: true, hidden: true, watchedBy: [adminId] },
          { id: 5204, number: 4 },
          { id: 5205, number: 5, airDate: '2999-12-31' },
          { id: 5206, number: 6, airDate: null },
          { id: 5207, number: 7, airDate: '' },
          { id: 5208, number: 8, airDate: '2019-06-01T12:30:00Z', hidden: true },
          { id: 5211, type: 'Special', number: 2, file: true, watchedBy: [setup.viewer.id] },
          { id: 5212, type: 'Special', number: 1 },
          { id: 5221, type: 'Credits', number: 1, file: true },
          { id: 5231, type: 'Trailer', number: 1, airDate: '2999-01-01' },
          { id: 5241, type: 'Parody', number: 1, file: true },
          { id: 5251, type: 'Other', number: 1, file: true, watchedBy: both },
          { id: 5261, type: 'Unknown', number: 1, file: true },
          { id: 5262, type: 'Mystery', number: 2 },
          { id: 5209, number: 9, file: true },
        ],
      },
      {
        animeId: 510,
        title: 'Quiet Hills',
        airDate: '2015-01-01',
        tags: [{ id: 77, name: 'gore' }],
        episodes: [{ id: 5101, file: true, watchedBy: both }, { id: 5102 }, { id: 5103, type: 'Special', number: 1, file: true }],
      },
      {
        animeId: 530,
        title: 'Copper Town',
        airDate: '2021-10-10',
        episodes: [
          { id: 5301, file: true, watchedBy: [setup.viewer.id] },
          { id: 5302, file: true },
          { id: 5303, file: true, hidden: true, watchedBy: both },
          { id: 5304 },
          { id: 5311, type: 'Special', number: 1, file: true },
        ],
      },
    ]);
    // Votes without a watch, on watched episodes and on hidden ones.
    const episodeId = async (anidb: number) =>
      (await db.selectFrom('episodes').select('id').where('anidb_episode_id', '=', anidb).executeTakeFirstOrThrow()).id;
    for (const [key, anidb, value] of [
      [keys.admin, 5203, 8],
      [keys.admin, 5204, 3],
      [keys.admin, 5202, 9],
      [keys.admin, 5302, 5],
      [keys.viewer, 5203, 6],
      [keys.viewer, 5221, 7],
      [keys.viewer, 5304, 2],
      [keys.admin, 5101, 4],
    ] as const) {
      const res = await server.request({
        method: 'POST',
        url: `/api/v3/Episode/${await episodeId(anidb)}/Vote`,
        key,
        body: { Value: value, MaxValue: 10 },
      });
      expect(res.statusCode, res.body).toBe(204);
    }
    // The AniDB episode of 5209 is gone (its Shoko episode and file stay): never listed, never counted.
    await db.deleteFrom('anidb_episodes').where('id', '=', 5209).execute();
  });

  afterAll(async () => {
    await server?.close();
  });

  /** The episodes the §5.5 rules keep for a user, in list order, computed from the base tables. */
  async function expected(userId: number, restricted: number[], query: Record<string, string>, types: string[]) {
    const db = server.services.db.kysely;
    const [episodes, anidb, links, files, states, tags] = await Promise.all([
      db.selectFrom('episodes').select(['id', 'series_id', 'anidb_episode_id', 'is_hidden']).execute(),
      db.selectFrom('anidb_episodes').select(['id', 'anime_id', 'type', 'number', 'air_date']).execute(),
      db.selectFrom('file_episode_links').select(['ed2k', 'size', 'episode_id']).execute(),
      db.selectFrom('files').select(['ed2k', 'size']).execute(),
      db.selectFrom('user_episode_states').selectAll().where('user_id', '=', userId).execute(),
      db.selectFrom('anidb_anime_tags').select(['anime_id', 'tag_id']).execute(),
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const keep = (value: string, matches: boolean) => (value === 'only' ? matches : value === 'false' ? !matches : true);
    const rank = (type: string) => (RANK.includes(type) ? RANK.indexOf(type) : RANK.length);
    const rows = episodes.flatMap((e) => {
      const ae = anidb.find((a) => a.id === e.anidb_episode_id);
      if (!ae) return [];
      if (tags.some((t) => t.anime_id === ae.anime_id && restricted.includes(t.tag_id))) return [];
      if (types.length && !types.map((t) => t.toLowerCase()).includes(ae.type.toLowerCase())) return [];
      const hasFiles = links.some(
        (l) => l.episode_id === ae.id && files.some((f) => f.ed2k === l.ed2k && Number(f.size) === Number(l.size)),
      );
      const aired = !!ae.air_date && ae.air_date.slice(0, 10) <= today;
      const state = states.find((s) => s.episode_id === e.id);
      const kept =
        keep(query.includeHidden ?? 'false', e.is_hidden === 1) &&
        keep(query.includeMissing ?? 'false', !hasFiles && aired) &&
        keep(query.includeUnaired ?? 'false', !hasFiles && !aired) &&
        keep(query.includeWatched ?? 'true', !!state?.watched_at) &&
        keep(query.includeVoted ?? 'true', state?.rating !== null && state?.rating !== undefined);
      return kept ? [{ id: e.id, series: e.series_id, rank: rank(ae.type), number: ae.number }] : [];
    });
    rows.sort((a, b) => a.series - b.series || a.rank - b.rank || a.number - b.number || a.id - b.id);
    return rows.map((r) => r.id);
  }

  async function list(key: string, query: string) {
    const res = await server.request({ method: 'GET', url: `/api/v3/Episode?${query}`, key });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { Total: number; List: Array<{ IDs: { ID: number } }> };
    return { total: body.Total, ids: body.List.map((e) => e.IDs.ID) };
  }

  const combinations = () => {
    let all: Array<Record<string, string>> = [{}];
    for (const filter of FILTERS) all = all.flatMap((q) => VALUES.map((value) => ({ ...q, [filter]: value })));
    return all;
  };
  const TYPE_LISTS = [[], ['Episode', 'Special'], ['Credits', 'Other', 'Unknown'], ['Special']];
  const PAGES = [
    { pageSize: 0, page: 1 },
    { pageSize: 2, page: 1 },
    { pageSize: 3, page: 2 },
    { pageSize: 1, page: 4 },
    { pageSize: 100, page: 1 },
    { pageSize: 5, page: 40 },
  ];

  it('gives, for every filter combination and both viewers, the ids, order and Total of the rules', async () => {
    let compared = 0;
    let nonEmpty = 0;
    for (const [index, filters] of combinations().entries()) {
      const types = TYPE_LISTS[index % TYPE_LISTS.length];
      const paging = PAGES[Math.floor(index / TYPE_LISTS.length) % PAGES.length];
      for (const [who, restricted] of [
        ['admin', []],
        ['viewer', [77]],
      ] as const) {
        const want = await expected(users[who], [...restricted], filters, types);
        const query = new URLSearchParams({ ...filters, pageSize: String(paging.pageSize), page: String(paging.page) });
        for (const type of types) query.append('type', type);
        const have = await list(keys[who], query.toString());
        const start = (paging.page - 1) * paging.pageSize;
        const page = paging.pageSize ? want.slice(start, start + paging.pageSize) : want;
        expect({ query: query.toString(), who, ...have }).toEqual({ query: query.toString(), who, total: want.length, ids: page });
        compared += 1;
        if (page.length) nonEmpty += 1;
      }
    }
    expect(compared).toBe(486);
    expect(nonEmpty).toBeGreaterThan(120);
  });

  it('gives, in Series/{id}/Episode for every filter combination, the ids, order and Total of the rules within the series', async () => {
    const db = server.services.db.kysely;
    const seriesOf = new Map((await db.selectFrom('episodes').select(['id', 'series_id']).execute()).map((e) => [e.id, e.series_id]));
    const seriesIds = [...new Set(seriesOf.values())].sort((a, b) => a - b);
    let nonEmpty = 0;
    for (const [index, filters] of combinations().entries()) {
      const types = TYPE_LISTS[index % TYPE_LISTS.length];
      const paging = PAGES[Math.floor(index / TYPE_LISTS.length) % PAGES.length];
      const seriesId = seriesIds[index % seriesIds.length];
      const want = (await expected(users.admin, [], filters, types)).filter((id) => seriesOf.get(id) === seriesId);
      const query = new URLSearchParams({ ...filters, pageSize: String(paging.pageSize), page: String(paging.page) });
      for (const type of types) query.append('type', type);
      const res = await server.request({ method: 'GET', url: `/api/v3/Series/${seriesId}/Episode?${query}`, key: keys.admin });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { Total: number; List: Array<{ IDs: { ID: number } }> };
      const start = (paging.page - 1) * paging.pageSize;
      const page = paging.pageSize ? want.slice(start, start + paging.pageSize) : want;
      const label = `${seriesId}?${query}`;
      expect({ label, total: body.Total, ids: body.List.map((e) => e.IDs.ID) }).toEqual({ label, total: want.length, ids: page });
      if (page.length) nonEmpty += 1;
    }
    expect(seriesIds.length).toBeGreaterThan(1);
    expect(nonEmpty).toBeGreaterThan(25);
  });

  it('orders by series, then Episode, Credits, Special, Trailer, Parody, Other and unknown types, then number', async () => {
    const everything = 'includeMissing=true&includeUnaired=true&includeHidden=true&pageSize=0';
    const want = await expected(users.admin, [], { includeMissing: 'true', includeUnaired: 'true', includeHidden: 'true' }, []);
    const have = await list(keys.admin, everything);
    expect(have.ids).toEqual(want);
    const db = server.services.db.kysely;
    const anidbOf = new Map(
      (await db.selectFrom('episodes').select(['id', 'anidb_episode_id']).execute()).map((e) => [e.id, e.anidb_episode_id]),
    );
    expect(have.ids.map((id) => anidbOf.get(id))).toEqual([
      ...[5201, 5202, 5203, 5204, 5205, 5206, 5207, 5208, 5221, 5212, 5211, 5231, 5241, 5251, 5261, 5262],
      ...[5101, 5102, 5103],
      ...[5301, 5302, 5303, 5304, 5311],
    ]);
    // Each page of 4 is the next slice of the whole list, and the page past the end is empty with the same Total.
    for (let page = 1; page <= 7; page++)
      expect(await list(keys.admin, `${everything.replace('pageSize=0', 'pageSize=4')}&page=${page}`)).toEqual({
        total: want.length,
        ids: want.slice((page - 1) * 4, page * 4),
      });
  });

  it('keeps the search relevance order over the filtered rows', async () => {
    const have = await list(keys.viewer, 'search=Episode 1&includeMissing=true&includeUnaired=true&pageSize=0');
    const db = server.services.db.kysely;
    const anidbOf = new Map(
      (await db.selectFrom('episodes').select(['id', 'anidb_episode_id']).execute()).map((e) => [e.id, e.anidb_episode_id]),
    );
    // Only exact titles "Episode 1" match; equal scores go by type, number and id across series (not by series).
    expect(have.ids.map((id) => anidbOf.get(id))).toEqual([5201, 5301, 5221, 5212, 5311, 5231, 5241, 5251, 5261]);
  });
});
