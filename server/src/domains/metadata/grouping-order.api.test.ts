import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventedAnimeXml, startFakeAniDBHttp, type FakeAniDBHttp } from '../../../../fakes/src/anidb-http/index.js';
import { startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../fakes/src/anidb-udp/index.js';
import { completeFirstRunWithAniDB, createTestServer, setEnv, type TestServer } from '../../test/harness.js';

const FIRST = 9301;
const SECOND = 9302;

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
      anime: {
        [FIRST]: inventedAnimeXml({
          id: FIRST,
          title: 'Hoshizora Ferry',
          relatedAnime: [{ id: SECOND, relation: 'Sequel', title: 'Hoshizora Ferry 2' }],
        }),
        [SECOND]: inventedAnimeXml({
          id: SECOND,
          title: 'Hoshizora Ferry 2',
          startDate: '2023-01-10',
          relatedAnime: [{ id: FIRST, relation: 'Prequel', title: 'Hoshizora Ferry' }],
        }),
      },
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
});
