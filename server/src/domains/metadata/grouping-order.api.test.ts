import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventedAnimeXml, startFakeAniDBHttp, type FakeAniDBHttp } from '../../../../fakes/src/anidb-http/index.js';
import { startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../fakes/src/anidb-udp/index.js';
import { completeFirstRunWithAniDB, createTestServer, setEnv, type TestServer } from '../../test/harness.js';

const FIRST = 9301;
const SECOND = 9302;
const SIDE_A = 9303;
const SIDE_B = 9304;

/** A first season and its sequel (aired later), related both ways, as the AniDB HTTP fake serves them. */
const sequelPair = (first: number, second: number, title: string) => ({
  [first]: inventedAnimeXml({ id: first, title, relatedAnime: [{ id: second, relation: 'Sequel', title: `${title} 2` }] }),
  [second]: inventedAnimeXml({
    id: second,
    title: `${title} 2`,
    startDate: '2023-01-10',
    relatedAnime: [{ id: first, relation: 'Prequel', title }],
  }),
});

/** Imports end in any order; a group's name must not depend on which of its series arrived first. */
describe('auto-grouping when a sequel is imported before its first season', () => {
  let server: TestServer;
  let udp: FakeAniDBUdp;
  let anidbHttp: FakeAniDBHttp;
  let key: string;
  let restoreEnv: () => void;

  beforeAll(async () => {
    udp = await startFakeAniDBUdp({ users: { tester: 'secret1' } });
    anidbHttp = await startFakeAniDBHttp({
      anime: { ...sequelPair(FIRST, SECOND, 'Hoshizora Ferry'), ...sequelPair(SIDE_A, SIDE_B, 'Kumori Lantern') },
    });
    restoreEnv = setEnv({ SHOKO_ANIDB_UDP: `${udp.host}:${udp.port}`, SHOKO_ANIDB_HTTP: anidbHttp.url });
    server = await createTestServer();
    key = await completeFirstRunWithAniDB(server, { username: 'tester', password: 'secret1' });
  });

  afterAll(async () => {
    await server.close();
    await udp.close();
    await anidbHttp.close();
    restoreEnv();
  });

  it('names the group after the first season once it joins', async () => {
    const refresh = (animeId: number) =>
      server.request({ method: 'POST', url: `/api/v3/Series/AniDB/${animeId}/Refresh?createSeriesEntry=true&immediate=true`, key });
    expect((await refresh(SECOND)).statusCode).toBe(200);
    const series = () => server.services.db.kysely.selectFrom('series').select(['anime_id', 'group_id']).orderBy('id').execute();
    const [sequel] = await series();
    const groupName = async (id: number) => (await server.request({ method: 'GET', url: `/api/v3/Group/${id}`, key })).json().Name;
    expect(await groupName(sequel!.group_id)).toBe('Hoshizora Ferry 2');

    expect((await refresh(FIRST)).statusCode).toBe(200);
    const both = await series();
    expect(both.map((s) => s.anime_id)).toEqual([SECOND, FIRST]);
    expect(new Set(both.map((s) => s.group_id))).toEqual(new Set([sequel!.group_id]));
    expect(await groupName(sequel!.group_id)).toBe('Hoshizora Ferry');
  });

  it('puts two related anime imported side by side into one group', async () => {
    const refresh = (animeId: number, create: boolean) =>
      server.request({
        method: 'POST',
        url: `/api/v3/Series/AniDB/${animeId}/Refresh?createSeriesEntry=${create}&immediate=true`,
        key,
      });
    // Downloaded first without series, so the two imports below read the cache and run at the same time.
    for (const id of [SIDE_A, SIDE_B]) expect((await refresh(id, false)).statusCode).toBe(200);
    const answers = await Promise.all([refresh(SIDE_A, true), refresh(SIDE_B, true)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const series = await server.services.db.kysely
      .selectFrom('series')
      .select(['anime_id', 'group_id'])
      .where('anime_id', 'in', [SIDE_A, SIDE_B])
      .execute();
    expect(series).toHaveLength(2);
    expect(new Set(series.map((s) => s.group_id)).size).toBe(1);
  });
});
