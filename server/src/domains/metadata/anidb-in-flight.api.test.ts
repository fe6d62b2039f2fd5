import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventedAnimeXml, startFakeAniDBHttp, type FakeAniDBHttp } from '../../../../fakes/src/anidb-http/index.js';
import { startFakeAniDBImages, type FakeAniDBImages } from '../../../../fakes/src/anidb-images/index.js';
import { completeFirstRunWithAniDB, createTestServer, setEnv, type TestServer } from '../../test/harness.js';

const ANIME = 9301;

describe('one AniDB request per anime in flight, whoever asks', () => {
  let server: TestServer;
  let anidbHttp: FakeAniDBHttp;
  let images: FakeAniDBImages;
  let key: string;
  let restoreEnv: () => void;

  beforeAll(async () => {
    // Slow answers, so the three requests for the anime overlap.
    anidbHttp = await startFakeAniDBHttp({
      anime: { [ANIME]: inventedAnimeXml({ id: ANIME, relatedAnime: [], similarAnime: [] }) },
      delayMs: 400,
    });
    images = await startFakeAniDBImages();
    restoreEnv = setEnv({ SHOKO_ANIDB_HTTP: anidbHttp.url, SHOKO_ANIDB_IMAGE_URL: images.url, SHOKO_ANIDB_UDP: '127.0.0.1:9' });
    server = await createTestServer();
    key = await completeFirstRunWithAniDB(server, { username: 'tester', password: 'secret1' });
  });

  afterAll(async () => {
    await server.close();
    await anidbHttp.close();
    await images.close();
    restoreEnv();
  });

  it('shares one request between a forced refresh, a queued import and an immediate import of the same anime', async () => {
    const refresh = (query: string) => server.request({ method: 'POST', url: `/api/v3/Series/AniDB/${ANIME}/Refresh?${query}`, key });
    const [forced, queued, immediate] = await Promise.all([
      refresh('force=true&createSeriesEntry=true'),
      refresh('createSeriesEntry=true'),
      refresh('immediate=true&createSeriesEntry=true'),
    ]);
    expect([forced.statusCode, queued.statusCode, immediate.statusCode]).toEqual([200, 200, 200]);
    expect(immediate.json()).toBe(true);
    await server.services.queue.idle();
    // And a forced immediate refresh right after is served from the copy just downloaded (one request per anime a day).
    expect((await refresh('immediate=true&force=true')).json()).toBe(true);
    expect(anidbHttp.requests.filter((request) => request.includes('request=anime'))).toHaveLength(1);
    const stored = await server.services.db.kysely.selectFrom('anidb_anime').select('id').where('id', '=', ANIME).execute();
    expect(stored).toHaveLength(1);
  });

  it('tells the queue view how much AniDB work is left and how long it takes at the pacing', async () => {
    await server.services.queue.pause();
    for (const animeId of [9401, 9402, 9403])
      await server.request({ method: 'POST', url: `/api/v3/Series/AniDB/${animeId}/Refresh?createSeriesEntry=true`, key });
    const res = await server.request({ method: 'GET', url: '/api/v3/Queue/AniDBEstimate', key });
    expect(res.statusCode).toBe(200);
    // Toward the loopback fakes nothing is paced, so the time is 0; the counts are the queue's.
    expect(res.json()).toEqual({
      Udp: { Requests: 0, Expected: 0, Seconds: 0, HeldReason: null },
      Http: { Requests: 3, Expected: 0, Seconds: 0, HeldReason: null },
      // The anime imported above brought five pictures (poster, two characters, two voice actors): five per anime to come.
      Images: { Requests: 0, Expected: 15, Seconds: 0, HeldReason: null },
      TotalSeconds: 0,
    });
    await server.services.queue.clear();
    await server.services.queue.resume();
  });
});
