import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAniDBImages, type FakeAniDBImages } from '../../../../fakes/src/anidb-images/index.js';
import { startFakeTmdb, type FakeTmdb } from '../../../../fakes/src/tmdb/index.js';
import { sampleShows, TIDEWATER_SHOW_ID } from '../../../../fakes/src/tmdb/sample-data.js';
import { completeFirstRun, createTestServer, createUser, login, setEnv, type TestServer } from '../../test/harness.js';
import { seedAnidbAnime } from '../../test/seed-anidb.js';

const OPEN = 7101;
const RESTRICTED = 7102;

/** Image downloads through the loopback CDN and the Image routes, without a whole import. */
describe('images', () => {
  let server: TestServer;
  let cdn: FakeAniDBImages;
  let tmdb: FakeTmdb;
  let adminKey: string;
  let userKey: string;
  let restoreEnv: () => void;

  const get = (url: string) => server.request({ method: 'GET', url });

  /** A series whose AniDB anime has a poster on the loopback CDN (`<id>01.jpg`). */
  async function seedSeries(id: number, restricted: boolean) {
    await seedAnidbAnime(server, {
      id,
      type: 'TVSeries',
      title: `Invented Lantern Tale ${id}`,
      airDate: null,
      restricted,
      picture: `${id}01.jpg`,
      episodes: [],
    });
  }

  beforeAll(async () => {
    cdn = await startFakeAniDBImages();
    cdn.missing.add('880001.jpg');
    tmdb = await startFakeTmdb({ shows: sampleShows });
    restoreEnv = setEnv({ SHOKO_ANIDB_IMAGE_URL: cdn.url, SHOKO_TMDB_IMAGE_URL: tmdb.imageUrl });
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    await createUser(server, adminKey, 'viewer', 'viewer-pass');
    userKey = await login(server, 'viewer', 'viewer-pass');
    await seedSeries(OPEN, false);
    await seedSeries(RESTRICTED, true);
  });

  afterAll(async () => {
    await server.close();
    await cdn.close();
    await tmdb.close();
    restoreEnv();
  });

  it('downloads queued AniDB pictures into <home>/images and skips names that are not plain file names', async () => {
    const images = server.services.images.service;
    await images.queueAniDBImage({ type: 'Poster', id: OPEN, picture: `${OPEN}01.jpg` });
    await images.queueAniDBImage({ type: 'Poster', id: RESTRICTED, picture: `${RESTRICTED}01.jpg` });
    await images.queueAniDBImage({ type: 'Character', id: 88000, picture: '880001.jpg' });
    await images.queueAniDBImage({ type: 'Staff', id: 88001, picture: '../../etc/passwd' });
    await images.queueAniDBImage({ type: 'Staff', id: 88002, picture: null });
    await server.services.queue.idle();

    expect(cdn.requests.sort()).toEqual(['710101.jpg', '710201.jpg', '880001.jpg']);
    const dir = path.join(server.home, 'images', 'AniDB', 'Poster');
    expect(fs.readdirSync(dir).sort()).toEqual([`${OPEN}.png`, `${RESTRICTED}.png`]);
    expect(fs.existsSync(path.join(server.home, 'images', 'AniDB', 'Character'))).toBe(false);

    // Stored already: queueing again asks the CDN nothing.
    await images.queueAniDBImage({ type: 'Poster', id: OPEN, picture: `${OPEN}01.jpg` });
    await server.services.queue.idle();
    expect(cdn.requests).toHaveLength(3);
  });

  it('serves stored images to anyone with their content type and a plain 404 otherwise', async () => {
    const poster = await get(`/api/v3/Image/AniDB/Poster/${OPEN}`);
    expect(poster.statusCode).toBe(200);
    expect(poster.headers['content-type']).toBe('image/png');
    expect(poster.headers['cache-control']).toBe('public,max-age=3600');
    expect(poster.rawPayload.equals(fs.readFileSync(path.join(server.home, 'images', 'AniDB', 'Poster', `${OPEN}.png`)))).toBe(true);

    const missing = await get('/api/v3/Image/AniDB/Character/88000');
    expect([missing.statusCode, missing.headers['content-type'], missing.body]).toEqual([
      404,
      'text/plain; charset=utf-8',
      'The requested resource does not exist.',
    ]);
    expect((await get(`/api/v3/Image/TMDB/Poster/${OPEN}`)).statusCode).toBe(404);
  });

  it('rejects unknown sources and types naming the field, and never leaves the image store', async () => {
    const source = await get('/api/v3/Image/Bogus/Poster/1');
    expect(source.statusCode).toBe(400);
    expect(source.json().errors.source).toEqual(["The value 'Bogus' is not valid."]);
    const type = await get('/api/v3/Image/AniDB/Wallpaper/1');
    expect(type.statusCode).toBe(400);
    expect(type.json().errors).toHaveProperty('type');
    expect((await get('/api/v3/Image/Random/Avatar')).json().errors).toHaveProperty('imageType');
    expect((await get('/api/v3/Image/Random/Nonsense/Metadata')).json().errors).toHaveProperty('imageType');

    fs.writeFileSync(
      path.join(server.home, 'secret.png'),
      fs.readFileSync(path.join(server.home, 'images', 'AniDB', 'Poster', `${OPEN}.png`)),
    );
    for (const url of [
      '/api/v3/Image/AniDB/Poster/..%2F..%2Fsecret',
      '/api/v3/Image/AniDB/Poster/-1',
      '/api/v3/Image/AniDB/Poster/0',
      '/api/v3/Image/AniDB/..%2F..%2F..%2FPoster/1',
      '/api/v3/Image/..%2F..%2F/Poster/1',
      `/api/v3/Image/AniDB/Poster/${OPEN}.png`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.headers['content-type'], url).not.toMatch(/^image\//);
    }
  });

  it('picks random images only from unrestricted, enabled series images, and only admins switch images', async () => {
    for (let i = 0; i < 5; i++) {
      const random = (await get('/api/v3/Image/Random/Poster/Metadata')).json();
      expect(random).toMatchObject({ ID: OPEN, Source: 'AniDB', Type: 'Poster', Series: { Name: `Invented Lantern Tale ${OPEN}` } });
    }
    expect((await get('/api/v3/Image/Random/Poster/Metadata?includeRestricted=only')).json()).toMatchObject({ ID: RESTRICTED });
    expect((await get('/api/v3/Image/Random/Poster/Metadata?includeRestricted=maybe')).json().errors).toHaveProperty('includeRestricted');
    const bytes = await get('/api/v3/Image/Random/Poster');
    expect([bytes.statusCode, bytes.headers['content-type']]).toEqual([200, 'image/png']);
    // None to send: a 500 with the contract's text, for the bytes and the metadata alike.
    for (const url of ['/api/v3/Image/Random/Character', '/api/v3/Image/Random/Character/Metadata']) {
      const none = await get(url);
      expect([none.statusCode, none.headers['content-type'], none.body], url).toEqual([
        500,
        expect.stringMatching(/^text\/plain/),
        'Unable to find a random image to send.',
      ]);
    }

    const url = `/api/v3/Image/AniDB/Poster/${OPEN}/Enabled`;
    expect((await server.request({ method: 'POST', url, body: { Enabled: false } })).statusCode).toBe(401);
    expect((await server.request({ method: 'POST', url, key: userKey, body: { Enabled: false } })).statusCode).toBe(403);
    expect(
      (await server.request({ method: 'POST', url: '/api/v3/Image/User/Avatar/1/Enabled', key: adminKey, body: { Enabled: false } })).json()
        .errors,
    ).toHaveProperty('type');
    const badSource = await server.request({
      method: 'POST',
      url: '/api/v3/Image/Bogus/Poster/1/Enabled',
      key: adminKey,
      body: { Enabled: false },
    });
    expect([badSource.statusCode, badSource.json().errors.source]).toEqual([400, ["The value 'Bogus' is not valid."]]);
    expect((await server.request({ method: 'POST', url, key: adminKey, body: { Enabled: false } })).statusCode).toBe(204);
    expect((await get('/api/v3/Image/Random/Poster/Metadata')).statusCode).toBe(500);
    expect((await server.request({ method: 'POST', url, key: adminKey, body: { Enabled: true } })).statusCode).toBe(204);
    expect((await get('/api/v3/Image/Random/Poster/Metadata')).json()).toMatchObject({ ID: OPEN });
  });

  it('downloads the TMDB images of a show as the TMDB settings allow and serves them, random backdrops included', async () => {
    const db = server.services.db.kysely;
    const image = (image_type: 'Poster' | 'Backdrop' | 'Logo', file_path: string, vote_average: number) => ({
      parent_type: 'Show' as const,
      parent_id: TIDEWATER_SHOW_ID,
      image_type,
      file_path,
      language: null,
      width: 100,
      height: 150,
      vote_average,
      vote_count: 1,
    });
    await db
      .insertInto('tmdb_images')
      .values([
        image('Poster', '/tidewaterPosterJa.png', 1),
        image('Poster', '/tidewaterPoster1.png', 5.4),
        image('Backdrop', '/tidewaterBackdrop1.png', 0),
        image('Logo', '/tidewaterLogo.png', 0),
      ])
      .execute();
    await db.insertInto('xref_anidb_tmdb_show').values({ anime_id: OPEN, show_id: TIDEWATER_SHOW_ID, source: 'User' }).execute();
    await server.services.settings.update((settings) => {
      settings.TMDB.MaxAutoPosters = 1;
      settings.TMDB.AutoDownloadLogos = false;
    });
    await server.services.images.service.queueTmdbImages({ type: 'Show', id: TIDEWATER_SHOW_ID });
    await server.services.queue.idle();

    const rows = await db
      .selectFrom('tmdb_images')
      .select(['id', 'image_type', 'file_path'])
      .where('parent_id', '=', TIDEWATER_SHOW_ID)
      .execute();
    const idOf = (filePath: string) => rows.find((row) => row.file_path === filePath)!.id;
    const imageRequests = tmdb.requests.filter((r) => r.includes('/t/p/'));
    // Only the best-voted poster, the backdrop, and no logo.
    expect(imageRequests.map((r) => r.replace(/^.*\/t\/p\/original/, '')).sort()).toEqual([
      '/tidewaterBackdrop1.png',
      '/tidewaterPoster1.png',
    ]);
    expect((await get(`/api/v3/Image/TMDB/Poster/${idOf('/tidewaterPoster1.png')}`)).headers['content-type']).toBe('image/png');
    expect((await get(`/api/v3/Image/TMDB/Poster/${idOf('/tidewaterPosterJa.png')}`)).statusCode).toBe(404);
    expect((await get(`/api/v3/Image/TMDB/Logo/${idOf('/tidewaterLogo.png')}`)).statusCode).toBe(404);
    expect((await get(`/api/v3/Image/TMDB/Fanart/${idOf('/tidewaterBackdrop1.png')}`)).statusCode).toBe(200);
    expect((await get('/api/v3/Image/Random/Backdrop/Metadata')).json()).toMatchObject({
      ID: idOf('/tidewaterBackdrop1.png'),
      Source: 'TMDB',
      Type: 'Backdrop',
      Series: { Name: `Invented Lantern Tale ${OPEN}` },
    });
    expect((await get('/api/v3/Image/Random/Backdrop')).statusCode).toBe(200);
  });
});
