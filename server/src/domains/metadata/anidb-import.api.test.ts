import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inventedAnimeXml, inventedEpisodeId, startFakeAniDBHttp, type FakeAniDBHttp } from '../../../../fakes/src/anidb-http/index.js';
import { fileCommands, startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../fakes/src/anidb-udp/index.js';
import { startFakeAniDBTitles, type FakeAniDBTitles } from '../../../../fakes/src/anidb-titles/index.js';
import { startFakeAniDBImages, type FakeAniDBImages } from '../../../../fakes/src/anidb-images/index.js';
import { aniDBFakesEnv, completeFirstRunWithAniDB, createTestServer, setEnv, type TestServer } from '../../test/harness.js';
import { MetadataScheduler, recheckDelay } from './metadata-scheduler.js';

const md4 = (data: Buffer) => createHash('md4').update(data).digest('hex').toUpperCase();
const ANIME = 9001;
const SEQUEL = 9002;

/** A whole import against the loopback AniDB: UDP FILE lookups and HTTP anime records, with a restart in between. */
describe('importing against the AniDB fakes', () => {
  let server: TestServer;
  let udp: FakeAniDBUdp;
  let anidbHttp: FakeAniDBHttp;
  let titles: FakeAniDBTitles;
  let images: FakeAniDBImages;
  let key: string;
  let media: string;
  const episode1 = randomBytes(30_000);
  const special1 = randomBytes(31_000);
  const sequel1 = randomBytes(32_000);
  let restoreEnv: () => void;

  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });
  const animeRequests = () => anidbHttp.requests.filter((r) => r.includes('request=anime'));
  /** A scheduler over the running server whose clock is `offsetMs` ahead. */
  const scheduler = (offsetMs: number) =>
    new MetadataScheduler({
      ...server.services.metadata,
      db: server.services.db.kysely,
      settings: server.services.settings,
      bus: server.services.bus,
      logger: server.services.logs.logger,
      now: () => Date.now() + offsetMs,
    });

  beforeAll(async () => {
    udp = await startFakeAniDBUdp({
      users: { tester: 'secret1' },
      commands: fileCommands(
        [
          {
            size: episode1.length,
            ed2k: md4(episode1),
            fileId: 11,
            animeId: ANIME,
            episodeId: inventedEpisodeId(ANIME, '1'),
            groupId: 7001,
          },
          { size: special1.length, ed2k: md4(special1), fileId: 12, animeId: ANIME, episodeId: inventedEpisodeId(ANIME, 'S1') },
          {
            size: sequel1.length,
            ed2k: md4(sequel1),
            fileId: 13,
            animeId: SEQUEL,
            episodeId: inventedEpisodeId(SEQUEL, '1'),
            groupId: 7001,
          },
        ],
        [{ id: 7001, name: 'Lighthouse Keepers Subs', shortName: 'LKS' }],
      ),
    });
    anidbHttp = await startFakeAniDBHttp({
      anime: {
        [ANIME]: inventedAnimeXml({ id: ANIME }),
        [SEQUEL]: inventedAnimeXml({
          id: SEQUEL,
          title: 'Kiri no Toudai Yuubinkyoku 2',
          // A sequel airs later: the group's main series (and so its name) is the first season, whichever import ends first.
          startDate: '2022-10-04',
          relatedAnime: [{ id: ANIME, relation: 'Prequel', title: 'Kiri no Toudai Yuubinkyoku' }],
        }),
      },
    });
    titles = await startFakeAniDBTitles({
      anime: [
        {
          id: ANIME,
          titles: [
            { type: 'main', language: 'x-jat', value: 'Kiri no Toudai Yuubinkyoku' },
            { type: 'official', language: 'en', value: 'The Post Office in the Foggy Lighthouse' },
          ],
        },
        { id: SEQUEL, titles: [{ type: 'main', language: 'x-jat', value: 'Kiri no Toudai Yuubinkyoku 2' }] },
        {
          id: 9500,
          titles: [
            { type: 'main', language: 'x-jat', value: 'Kumo no Ue no Toshokan' },
            { type: 'syn', language: 'en', value: 'Cloud Library' },
          ],
        },
      ],
    });
    images = await startFakeAniDBImages();
    images.missing.add('4900201.jpg');
    restoreEnv = setEnv(aniDBFakesEnv({ udp, http: anidbHttp, titles, images }));
    server = await createTestServer();
    key = await completeFirstRunWithAniDB(server, { username: 'tester', password: 'secret1' });
    media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-anidb-import-'));
    fs.writeFileSync(path.join(media, 'Kiri 01.mkv'), episode1);
    fs.writeFileSync(path.join(media, 'Kiri S1.mkv'), special1);
    fs.writeFileSync(path.join(media, 'Kiri 2 - 01.mkv'), sequel1);
  });

  afterAll(async () => {
    await server.close();
    await udp.close();
    await anidbHttp.close();
    await titles.close();
    await images.close();
    fs.rmSync(media, { recursive: true, force: true });
    restoreEnv();
  });

  it('hashes, identifies and stores the anime with episodes, titles, tags, cast, relations and links', async () => {
    const folder = (await api('POST', '/api/v3/ImportFolder', { Name: 'Anime', Path: media })).json();
    await api('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`);
    await server.services.queue.idle();

    expect((await api('GET', '/api/v3/File?pageSize=0&include_only=Unrecognized')).json().Total).toBe(0);
    const db = server.services.db.kysely;
    const anime = await db.selectFrom('anidb_anime').selectAll().where('id', '=', ANIME).executeTakeFirstOrThrow();
    expect(anime).toMatchObject({
      type: 'TV',
      main_title: 'Kiri no Toudai Yuubinkyoku',
      episode_count: 3,
      rating: 738,
      rating_votes: 142,
      temp_rating: 752,
      restricted: 0,
    });
    expect(JSON.parse(anime.resources)).toEqual(
      expect.arrayContaining([
        { Type: 'english-metadata', Name: 'AnimeNewsNetwork', URL: 'https://www.animenewsnetwork.com/encyclopedia/anime.php?id=99001' },
        { Type: 'source', Name: 'Official Site (JP)', URL: 'https://example.test/kiri-yuubin/ja' },
      ]),
    );
    const titles = await db.selectFrom('anidb_anime_titles').select(['language', 'type']).where('anime_id', '=', ANIME).execute();
    expect(new Set(titles.map((t) => t.language))).toEqual(new Set(['x-jat', 'ja', 'en']));

    const episodes = await db
      .selectFrom('anidb_episodes')
      .select(['type', 'number', 'length_seconds'])
      .where('anime_id', '=', ANIME)
      .orderBy('id')
      .execute();
    expect(episodes.map((e) => `${e.type}:${e.number}`)).toEqual([
      'Episode:1',
      'Episode:2',
      'Episode:3',
      'Special:1',
      'Special:2',
      'Credits:1',
      'Credits:2',
      'Trailer:1',
      'Parody:1',
      'Other:1',
    ]);
    expect(episodes[0].length_seconds).toBe(24 * 60);

    const tags = await db
      .selectFrom('anidb_anime_tags')
      .innerJoin('anidb_tags', 'anidb_tags.id', 'anidb_anime_tags.tag_id')
      .selectAll()
      .where('anime_id', '=', ANIME)
      .execute();
    expect(tags.find((t) => t.name === 'lighthouse')).toMatchObject({ parent_id: 39001, weight: 500 });
    expect(tags.find((t) => t.name === 'ghost protagonist')).toMatchObject({ is_spoiler: 1 });
    expect(tags.find((t) => t.name === 'the sender is the narrator')).toMatchObject({ is_local_spoiler: 1, is_spoiler: 0 });

    const cast = await db
      .selectFrom('anidb_anime_characters')
      .innerJoin('anidb_characters', 'anidb_characters.id', 'character_id')
      .selectAll()
      .where('anime_id', '=', ANIME)
      .execute();
    expect(cast.map((c) => [c.name, c.appearance, c.picture])).toEqual([
      ['Hayase Mio', 'main character in', '4900101.jpg'],
      ['Ojiisan the Keeper', 'secondary cast in', '4900201.jpg'],
    ]);
    const staff = await db
      .selectFrom('anidb_anime_staff')
      .innerJoin('anidb_creators', 'anidb_creators.id', 'creator_id')
      .select(['name', 'role', 'character_id'])
      .where('anime_id', '=', ANIME)
      .execute();
    expect(staff).toEqual(
      expect.arrayContaining([
        { name: 'Minase Kaori', role: 'Seiyuu', character_id: 49001 },
        { name: 'Aomine Tsukasa', role: 'Direction', character_id: null },
      ]),
    );
    expect(await db.selectFrom('anidb_similar').select('similar_anime_id').where('anime_id', '=', ANIME).execute()).toEqual([
      { similar_anime_id: ANIME + 100 },
    ]);

    // The sequel joined the first series' group through its Prequel relation.
    const series = await db.selectFrom('series').select(['anime_id', 'group_id']).orderBy('anime_id').execute();
    expect(series.map((s) => s.anime_id)).toEqual([ANIME, SEQUEL]);
    expect(series[0].group_id).toBe(series[1].group_id);
    const file = (await api('GET', '/api/v3/File?pageSize=0&include=XRefs&includeDataFrom=AniDB'))
      .json()
      .List.find((f: { Size: number }) => f.Size === episode1.length);
    const seriesOfAnime = (await db.selectFrom('series').select('id').where('anime_id', '=', ANIME).executeTakeFirstOrThrow()).id;
    expect(file.SeriesIDs).toEqual([
      {
        SeriesID: { ID: seriesOfAnime, AniDB: ANIME, TMDB: { Movie: [], Show: [] } },
        EpisodeIDs: [
          expect.objectContaining({
            AniDB: inventedEpisodeId(ANIME, '1'),
            ED2K: md4(episode1),
            Source: 'AniDB',
            ReleaseGroup: 7001,
            Percentage: { Start: 0, End: 100, Size: 100, Group: 1 },
          }),
        ],
      },
    ]);
    expect(file.SeriesIDs[0].EpisodeIDs[0].ID).toEqual(expect.any(Number));
    expect(file.AniDB).toMatchObject({ ID: 11, Source: 'Web', Version: 1, AudioLanguages: ['japanese'], SubLanguages: ['english'] });
    // The group's names were asked once (GROUP), for both files of that group.
    expect(file.AniDB.ReleaseGroup).toEqual({ ID: 7001, Name: 'Lighthouse Keepers Subs', ShortName: 'LKS', Source: 'AniDB' });
    expect(udp.received.filter((line) => line.startsWith('GROUP ')).length).toBe(1);
    expect((await api('GET', `/api/v3/File/${file.ID}?includeDataFrom=Bogus`)).statusCode).toBe(400);

    const seriesFiles = (await api('GET', `/api/v3/Series/${seriesOfAnime}/File?pageSize=0`)).json();
    expect(seriesFiles.List.map((f: { Size: number }) => f.Size).sort()).toEqual([episode1.length, special1.length]);
    expect((await api('GET', '/api/v3/Series/99999/File')).statusCode).toBe(404);

    // A search typed as the file is named finds it, though ` - ` becomes a run of spaces when paths are normalised.
    expect((await api('GET', `/api/v3/File/Search/${encodeURIComponent('Kiri 2 - 01')}?pageSize=0`)).json().Total).toBe(1);

    // Series › File Actions: an AniDB re-check and a re-hash of every file, rename/move jobs per the settings.
    const seriesFileIds = seriesFiles.List.map((f: { ID: number }) => f.ID).sort();
    const fileLookups = () => udp.received.filter((line) => line.startsWith('FILE ')).length;
    const lookupsBefore = fileLookups();
    const rehash = vi.spyOn(server.services.importer, 'queueRehash');
    const relocate = vi.spyOn(server.services.renamer, 'queueRenameOnImport');
    expect((await api('POST', `/api/v3/Series/${seriesOfAnime}/File/Rescan`)).statusCode).toBe(200);
    expect((await api('POST', `/api/v3/Series/${seriesOfAnime}/File/Rehash`)).statusCode).toBe(200);
    expect((await api('POST', `/api/v3/Series/${seriesOfAnime}/File/Relocate`)).statusCode).toBe(200);
    expect(rehash).toHaveBeenCalledTimes(2);
    expect(relocate.mock.calls[0][0].sort()).toEqual(seriesFileIds);
    expect(await relocate.mock.results[0].value).toBe(0);
    await server.services.queue.idle();
    expect(fileLookups()).toBeGreaterThanOrEqual(lookupsBefore + 2);
    rehash.mockRestore();
    relocate.mockRestore();
    expect((await api('POST', '/api/v3/Series/99999/File/Rehash')).statusCode).toBe(404);
    const episodeId = file.SeriesIDs[0].EpisodeIDs[0].ID;
    expect((await api('GET', `/api/v3/Episode/${episodeId}/File`)).json().List.map((f: { ID: number }) => f.ID)).toEqual([file.ID]);
    expect((await api('GET', `/api/v3/ImportFolder/${folder.ID}/File?pageSize=0`)).json().Total).toBe(3);
    expect((await api('GET', `/api/v3/ImportFolder/${folder.ID}`)).json()).toMatchObject({
      Size: 2,
      FileSize: episode1.length + special1.length + sequel1.length,
    });
    expect((await api('GET', '/api/v3/ImportFolder/999/File')).statusCode).toBe(404);

    // The collection API shows the imported group and series in contract shape.
    const group = (await api('GET', `/api/v3/Group/${series[0].group_id}`)).json();
    expect(group).toMatchObject({ Name: 'Kiri no Toudai Yuubinkyoku', Size: 2, IDs: { ID: series[0].group_id } });
    const groupSeries = (await api('GET', `/api/v3/Group/${series[0].group_id}/Series?includeDataFrom=AniDB`)).json();
    expect(groupSeries.map((x: { IDs: { AniDB: number } }) => x.IDs.AniDB).sort()).toEqual([ANIME, SEQUEL]);
    const first = groupSeries.find((x: { IDs: { AniDB: number } }) => x.IDs.AniDB === ANIME);
    expect(first).toMatchObject({
      Name: 'Kiri no Toudai Yuubinkyoku',
      Sizes: { Local: { Episodes: 1, Specials: 1 } },
      AniDB: { ID: ANIME, Type: 'TV', EpisodeCount: 3, Restricted: false },
    });
    expect(first.Links).toEqual(expect.arrayContaining([expect.objectContaining({ Type: 'english-metadata', Name: 'AnimeNewsNetwork' })]));

    const localEpisodes = await db
      .selectFrom('episodes')
      .innerJoin('series', 'series.id', 'episodes.series_id')
      .select('anidb_episode_id')
      .where('series.anime_id', '=', ANIME)
      .execute();
    expect(localEpisodes).toHaveLength(10);
  });

  it('downloads the poster and cast pictures and serves them to anyone, with random picks for backgrounds', async () => {
    expect(images.requests.sort()).toEqual(['4900101.jpg', '4900201.jpg', '5900101.jpg', '5900201.jpg', '900101.jpg', '900201.jpg'].sort());
    const poster = await server.request({ method: 'GET', url: `/api/v3/Image/AniDB/Poster/${ANIME}` });
    expect(poster.statusCode).toBe(200);
    expect(poster.headers['content-type']).toBe('image/png');
    expect(poster.headers['cache-control']).toBe('public,max-age=3600');
    expect(poster.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect((await server.request({ method: 'GET', url: '/api/v3/image/anidb/character/49001' })).statusCode).toBe(200);
    // The CDN had no picture for the second character: nothing stored, a plain 404.
    const missing = await server.request({ method: 'GET', url: '/api/v3/Image/AniDB/Character/49002' });
    expect([missing.statusCode, missing.body]).toEqual([404, 'The requested resource does not exist.']);
    expect((await server.request({ method: 'GET', url: '/api/v3/Image/Bogus/Poster/1' })).statusCode).toBe(400);
    expect((await server.request({ method: 'GET', url: '/api/v3/Image/AniDB/Poster/..%2F..%2Fsettings-server.json' })).statusCode).toBe(
      400,
    );

    const random = (await server.request({ method: 'GET', url: '/api/v3/Image/Random/Poster/Metadata' })).json();
    expect(random).toMatchObject({
      Source: 'AniDB',
      Type: 'Poster',
      Series: { Name: expect.stringContaining('Kiri no Toudai Yuubinkyoku') },
    });
    expect([ANIME, SEQUEL]).toContain(random.ID);
    expect((await server.request({ method: 'GET', url: '/api/v3/Image/Random/Poster' })).statusCode).toBe(200);
    expect((await server.request({ method: 'GET', url: '/api/v3/Image/Random/Avatar' })).statusCode).toBe(400);
    // No backdrop yet: Shoko's 500 with its text (contract collection.md, Image/Random).
    expect((await server.request({ method: 'GET', url: '/api/v3/Image/Random/Backdrop/Metadata' })).statusCode).toBe(500);

    expect(
      (await server.request({ method: 'POST', url: `/api/v3/Image/AniDB/Poster/${ANIME}/Enabled`, body: { Enabled: false } })).statusCode,
    ).toBe(401);
    expect((await api('POST', `/api/v3/Image/AniDB/Poster/${ANIME}/Enabled`, { Enabled: false })).statusCode).toBe(204);
    expect((await api('POST', '/api/v3/Image/AniDB/Poster/424242/Enabled', { Enabled: false })).statusCode).toBe(404);
    expect((await api('POST', `/api/v3/Image/AniDB/Poster/${ANIME}/Enabled`, { Enabled: true })).statusCode).toBe(204);
  });

  it('searches AniDB series in the titles dump and local data, and shows an anime and its episodes', async () => {
    const found = (await api('GET', '/api/v3/Series/AniDB/Search/kiri%20no')).json();
    expect(found.List.map((a: { ID: number }) => a.ID)).toEqual([ANIME, SEQUEL]);
    expect(found.List[0]).toMatchObject({
      Type: 'TV',
      ShokoID: expect.any(Number),
      EpisodeCount: 3,
      Rating: { Value: 738, MaxValue: 1000, Source: 'AniDB' },
    });
    // The path form decodes once more: '+' is a space.
    expect((await api('GET', '/api/v3/Series/AniDB/Search/Cloud+Library')).json().List.map((a: { ID: number }) => a.ID)).toEqual([9500]);
    const dumpOnly = (await api('GET', '/api/v3/Series/AniDB/Search?query=toshokan&includeTitles=false')).json().List[0];
    expect(dumpOnly).toMatchObject({ ID: 9500, Type: 'Unknown', ShokoID: null, EpisodeCount: null, Title: 'Kumo no Ue no Toshokan' });
    expect(dumpOnly).not.toHaveProperty('Description');
    expect(dumpOnly).not.toHaveProperty('Titles');
    expect((await api('GET', `/api/v3/Series/AniDB/Search?query=${SEQUEL}`)).json().List.map((a: { ID: number }) => a.ID)).toEqual([
      SEQUEL,
    ]);
    expect((await api('GET', '/api/v3/Series/AniDB/Search?query=&local=false')).json().List.map((a: { ID: number }) => a.ID)).toEqual([
      9500,
    ]);
    expect((await api('GET', '/api/v3/Series/AniDB/Search?query=kiri&local=true&pageSize=1&page=2')).json()).toMatchObject({
      Total: 2,
      List: [{ ID: SEQUEL }],
    });
    // Fuzzy finds a misspelt title, an exact search does not.
    expect((await api('GET', '/api/v3/Series/AniDB/Search/Kiri%20no%20Toudai%20Yubinkyoku')).json().Total).toBeGreaterThan(0);
    expect((await api('GET', '/api/v3/Series/AniDB/Search/Kiri%20no%20Toudai%20Yubinkyoku?fuzzy=false')).json().Total).toBe(0);
    expect(titles.downloads).toBe(1);

    const anime = (await api('GET', `/api/v3/Series/AniDB/${ANIME}`)).json();
    expect(anime.Titles).toEqual(
      expect.arrayContaining([
        { Name: 'Kiri no Toudai Yuubinkyoku', Language: 'x-jat', Type: 'Main', Default: true, Preferred: true, Source: 'AniDB' },
      ]),
    );
    expect(anime.Description).toContain('harbour town');
    const missing = await api('GET', '/api/v3/Series/AniDB/9500');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('No AnidbAnime entry for the given anidbID');

    const episodes = (await api('GET', `/api/v3/Series/AniDB/${ANIME}/Episode?pageSize=0&includeMissing=true&includeUnaired=true`)).json();
    expect(episodes.Total).toBe(10);
    expect(episodes.List.slice(0, 4).map((e: { Type: string; EpisodeNumber: number }) => `${e.Type}${e.EpisodeNumber}`)).toEqual([
      'Episode1',
      'Episode2',
      'Episode3',
      'Credits1',
    ]);
    expect(episodes.List[0]).toMatchObject({
      ID: inventedEpisodeId(ANIME, '1'),
      AnimeID: ANIME,
      Title: 'Letter Number 1',
      Rating: { Value: 7, MaxValue: 10 },
    });
    // By default missing episodes (aired, no file) are left out: only the ones with files remain.
    const withFiles = (await api('GET', `/api/v3/Series/AniDB/${ANIME}/Episode?pageSize=0`)).json();
    expect(withFiles.List.map((e: { Type: string; EpisodeNumber: number }) => `${e.Type}${e.EpisodeNumber}`)).toEqual([
      'Episode1',
      'Special1',
    ]);
    expect(
      (await api('GET', `/api/v3/Series/AniDB/${ANIME}/Episode?type=Special&includeMissing=true&includeUnaired=true`)).json().Total,
    ).toBe(2);
    expect((await api('GET', `/api/v3/Series/AniDB/${ANIME}/Episode?type=Bogus`)).statusCode).toBe(400);
    expect((await api('GET', `/api/v3/Series/AniDB/${ANIME}/Episode?includeMissing=maybe`)).statusCode).toBe(400);
  });

  it('adds identified files to MyList and marks the last deleted copy as the settings say', async () => {
    const adds = udp.received.filter((line) => line.startsWith('MYLISTADD ') && !line.includes('edit=1'));
    // One add per file; the series file actions' rescan earlier may have asked again for the same ones.
    expect(new Set(adds.map((line) => /ed2k=([0-9a-f]+)/.exec(line)?.[1])).size).toBe(3);
    expect(adds.every((line) => line.includes('state=1') && line.includes('viewed=0'))).toBe(true);

    const copy = path.join(media, 'Kiri 01 (copy).mkv');
    fs.writeFileSync(copy, episode1);
    await server.services.importer.queueImport();
    await server.services.queue.idle();
    const locations = (await api('GET', '/api/v3/File?pageSize=0&include=AbsolutePaths'))
      .json()
      .List.find((f: { Size: number }) => f.Size === episode1.length).Locations;
    expect(locations).toHaveLength(2);
    const edits = () => udp.received.filter((line) => line.startsWith('MYLISTADD ') && line.includes('edit=1'));
    // Deleting one of two copies leaves MyList alone; deleting the last marks it with MyList_DeleteType (Mark Unknown → 0).
    const copyLocation = locations.find((l: { RelativePath: string }) => l.RelativePath.includes('copy'));
    expect((await api('DELETE', `/api/v3/File/Location/${copyLocation.ID}?deleteFile=true`)).statusCode).toBe(200);
    await server.services.queue.idle();
    expect(fs.existsSync(copy)).toBe(false);
    expect(edits()).toHaveLength(0);
    const original = locations.find((l: { RelativePath: string }) => !l.RelativePath.includes('copy'));
    expect((await api('DELETE', `/api/v3/File/Location/${original.ID}?deleteFile=true`)).statusCode).toBe(200);
    await server.services.queue.idle();
    expect(edits()).toHaveLength(1);
    expect(edits()[0]).toContain('state=0');
    // Put the file back for the tests that follow.
    fs.writeFileSync(path.join(media, 'Kiri 01.mkv'), episode1);
    await server.services.importer.queueImport();
    await server.services.queue.idle();
  });

  it('asks AniDB once per anime and serves a re-import from the disk cache, also after a restart', async () => {
    const asked = animeRequests().length;
    expect(asked).toBe(2);
    await server.close({ keepData: true });
    server = await createTestServer({ restartOf: server });
    server.services.init.startServer();
    await server.services.init.waitForStartup();
    key = (
      await server.request({ method: 'POST', url: '/api/auth', body: { user: 'Default', pass: 'first-run-pass', device: 't' } })
    ).json().apikey;
    expect((await api('POST', `/api/v3/Series/AniDB/${ANIME}/Refresh?immediate=true`)).json()).toBe(true);
    expect(animeRequests().length).toBe(asked);
    expect(fs.readdirSync(path.join(server.home, 'anidb')).length).toBeGreaterThanOrEqual(2);

    // The scheduled refresh asks AniDB over UDP which anime changed (UPDATED) and downloads only those again.
    const patched = await api('PATCH', '/api/v3/Settings', [{ op: 'replace', path: '/AniDb/Anime_UpdateFrequency', value: 'Daily' }]);
    expect(patched.statusCode).toBe(200);
    const askedBefore = animeRequests().length;
    const updatedChecks = () => udp.received.filter((packet) => packet.startsWith('UPDATED ')).length;
    await scheduler(0).check();
    await server.services.queue.idle();
    expect(updatedChecks()).toBe(1);
    expect(animeRequests().length).toBe(askedBefore);
    // Within the day nothing is asked again, not even UPDATED.
    await scheduler(60 * 60_000).check();
    expect(updatedChecks()).toBe(1);
    // A day later (the request log and the disk cache aged with it) AniDB reports one of the two anime changed:
    // that one is downloaded again, the other is not.
    const dayAgo = new Date(Date.now() - 25 * 60 * 60_000);
    await server.services.db.kysely.updateTable('anidb_anime_requests').set({ requested_at: dayAgo.toISOString() }).execute();
    for (const name of fs.readdirSync(path.join(server.home, 'anidb')))
      fs.utimesSync(path.join(server.home, 'anidb', name), dayAgo, dayAgo);
    udp.animeUpdates.push({ animeId: SEQUEL, at: Math.floor(Date.now() / 1000) }, { animeId: 777_777, at: Math.floor(Date.now() / 1000) });
    await scheduler(25 * 60 * 60_000).check();
    await server.services.queue.idle();
    expect(updatedChecks()).toBe(2);
    expect(animeRequests().length).toBe(askedBefore + 1);
    expect(animeRequests().at(-1)).toContain(`aid=${SEQUEL}`);
  });

  it('treats a ban reply as a ban, not as data, and reports it', async () => {
    anidbHttp.banned = true;
    const before = await server.services.db.kysely.selectFrom('anidb_anime').select(['id', 'main_title']).orderBy('id').execute();
    anidbHttp.anime[9003] = inventedAnimeXml({ id: 9003, title: 'Never Stored' });
    expect((await api('POST', '/api/v3/Series/AniDB/9003/Refresh?immediate=true&createSeriesEntry=true')).json()).toBe(false);
    const [, httpState] = server.services.aggregateSources.anidbStates();
    expect(httpState).toMatchObject({ Value: true, UpdateType: 2 });
    expect(httpState.PauseTimeSecs).toBeGreaterThan(0);
    expect(await server.services.db.kysely.selectFrom('anidb_anime').select(['id', 'main_title']).orderBy('id').execute()).toEqual(before);
    // While banned nothing more is sent, and a cached anime is still served from the disk.
    const sent = anidbHttp.requests.length;
    expect((await api('POST', `/api/v3/Series/AniDB/${ANIME}/Refresh?immediate=true&force=true`)).json()).toBe(true);
    expect((await api('POST', '/api/v3/Series/AniDB/9003/Refresh?immediate=true')).json()).toBe(false);
    expect(anidbHttp.requests.length).toBe(sent);
    anidbHttp.banned = false;
  });

  it('asks AniDB again about unknown files on a schedule that backs off', async () => {
    fs.writeFileSync(path.join(media, 'mystery A.mkv'), randomBytes(33_000));
    fs.writeFileSync(path.join(media, 'mystery B.mkv'), randomBytes(34_000));
    fs.writeFileSync(path.join(media, 'mystery C.mkv'), randomBytes(35_000));
    await server.services.importer.queueImport();
    await server.services.queue.idle();
    const lookups = () => udp.received.filter((line) => line.startsWith('FILE ')).length;
    const attempts = async () =>
      (
        await server.services.db.kysely
          .selectFrom('anidb_files')
          .select('lookup_attempts')
          .where('file_id', 'is', null)
          .orderBy('size')
          .execute()
      ).map((r) => r.lookup_attempts);
    expect(await attempts()).toEqual([1, 1, 1]);

    let before = lookups();
    await scheduler(0).check();
    await server.services.queue.idle();
    expect(lookups()).toBe(before);
    await scheduler(recheckDelay(1) + 60_000).check();
    await server.services.queue.idle();
    expect(lookups()).toBe(before + 3);
    expect(await attempts()).toEqual([2, 2, 2]);
    // The second miss waits longer than the first.
    before = lookups();
    await scheduler(recheckDelay(1) + 60_000).check();
    await server.services.queue.idle();
    expect(lookups()).toBe(before);
    expect(recheckDelay(2)).toBeGreaterThan(recheckDelay(1));
  });

  it('links unknown files by hand, refuses to override AniDB, and unlinks', async () => {
    const unrecognized = async () =>
      (await api('GET', '/api/v3/File?pageSize=0&include_only=Unrecognized')).json().List as Array<{ ID: number; Size: number }>;
    const [a, b, c] = (await unrecognized()).sort((x, y) => x.Size - y.Size);
    expect([a, b, c].map((f) => f.Size)).toEqual([33_000, 34_000, 35_000]);

    const db = server.services.db.kysely;
    const episodeOf = async (epno: string) =>
      (
        await db
          .selectFrom('episodes')
          .select('id')
          .where('anidb_episode_id', '=', inventedEpisodeId(ANIME, epno))
          .executeTakeFirstOrThrow()
      ).id;
    const identified = (await api('GET', '/api/v3/File?pageSize=0&exclude=Unrecognized')).json().List[0];

    let res = await api('POST', `/api/v3/File/${identified.ID}/Link`, { EpisodeIDs: [await episodeOf('2')] });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['CrossReferences']);
    res = await api('POST', `/api/v3/File/${a.ID}/Link`, { EpisodeIDs: [999999] });
    expect(res.json().errors).toEqual({ EpisodeIDs: ['Unable to find shoko episode with id 999999'] });

    // 1:N — one file covering episodes 2 and 3.
    expect((await api('POST', `/api/v3/File/${a.ID}/Link`, { episodeIDs: [await episodeOf('2'), await episodeOf('3')] })).statusCode).toBe(
      200,
    );
    // N:1 — two files sharing the special.
    expect((await api('POST', '/api/v3/File/Link', { fileIDs: [b.ID, c.ID], episodeID: await episodeOf('S2') })).statusCode).toBe(200);
    expect((await unrecognized()).length).toBe(0);
    const manual = (await api('GET', '/api/v3/File?pageSize=0&include_only=ManualLinks')).json().List.map((f: { ID: number }) => f.ID);
    expect(manual.sort()).toEqual([a.ID, b.ID, c.ID].sort());
    const userLinks = await db
      .selectFrom('file_episode_links')
      .select(['size', 'episode_id', 'percentage'])
      .where('source', '=', 'User')
      .orderBy('size')
      .orderBy('episode_id')
      .execute();
    expect(userLinks).toEqual([
      { size: 33_000, episode_id: inventedEpisodeId(ANIME, '2'), percentage: 100 },
      { size: 33_000, episode_id: inventedEpisodeId(ANIME, '3'), percentage: 100 },
      { size: 34_000, episode_id: inventedEpisodeId(ANIME, 'S2'), percentage: 50 },
      { size: 35_000, episode_id: inventedEpisodeId(ANIME, 'S2'), percentage: 50 },
    ]);

    // Ranges are checked against the episodes of the chosen type.
    const seriesId = (await db.selectFrom('series').select('id').where('anime_id', '=', ANIME).executeTakeFirstOrThrow()).id;
    res = await api('POST', `/api/v3/File/${a.ID}/LinkFromSeries`, { SeriesID: seriesId, RangeStart: '2', RangeEnd: 'S1' });
    expect(res.json().errors.RangeEnd).toEqual(['Unable to use different episode types in the `RangeStart` and `RangeEnd`.']);
    res = await api('POST', `/api/v3/File/${a.ID}/LinkFromSeries`, { SeriesID: seriesId, RangeStart: '2', RangeEnd: '4' });
    expect(Object.keys(res.json().errors)).toEqual(['RangeEnd']);
    expect(
      (await api('POST', `/api/v3/File/${a.ID}/LinkFromSeries`, { SeriesID: seriesId, RangeStart: '1', RangeEnd: '3' })).statusCode,
    ).toBe(200);
    expect(
      await db.selectFrom('file_episode_links').select('episode_id').where('size', '=', 33_000).orderBy('episode_id').execute(),
    ).toHaveLength(3);

    // Unlinking one episode keeps the file linked; unlinking all makes it unrecognized again. AniDB's links stay.
    expect((await api('DELETE', `/api/v3/File/${b.ID}/Link`, { EpisodeIDs: [inventedEpisodeId(ANIME, 'S2')] })).statusCode).toBe(200);
    expect((await api('DELETE', `/api/v3/File/${a.ID}/Link`, null)).statusCode).toBe(200);
    expect((await unrecognized()).map((f) => f.ID).sort()).toEqual([a.ID, b.ID].sort());
    res = await api('DELETE', `/api/v3/File/${identified.ID}/Link`, null);
    expect(res.statusCode).toBe(400);
    expect((await api('DELETE', '/api/v3/File/999999/Link', null)).statusCode).toBe(404);
  });

  it('deletes a series: records only unless asked, the empty group with it, and AniDB data when completely removed', async () => {
    const db = server.services.db.kysely;
    const seriesOf = async (animeId: number) =>
      (await db.selectFrom('series').select(['id', 'group_id']).where('anime_id', '=', animeId).executeTakeFirst()) ?? null;
    const sequel = (await seriesOf(SEQUEL))!;
    const first = (await seriesOf(ANIME))!;
    expect((await api('DELETE', '/api/v3/Series/99999')).statusCode).toBe(404);

    expect((await api('DELETE', `/api/v3/Series/${sequel.id}`)).statusCode).toBe(200);
    expect(await seriesOf(SEQUEL)).toBeNull();
    expect(fs.existsSync(path.join(media, 'Kiri 2 - 01.mkv'))).toBe(true);
    const sizes = (await api('GET', '/api/v3/File?pageSize=0&include=Ignored')).json().List.map((f: { Size: number }) => f.Size);
    expect(sizes).not.toContain(sequel1.length);
    // The group still holds the first series.
    expect(await db.selectFrom('groups').select('id').where('id', '=', first.group_id).executeTakeFirst()).toBeTruthy();

    expect((await api('DELETE', `/api/v3/Series/${first.id}?completelyRemove=true`)).statusCode).toBe(200);
    expect(await db.selectFrom('groups').select('id').where('id', '=', first.group_id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('anidb_anime').select('id').where('id', '=', ANIME).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom('file_episode_links').select('id').where('anime_id', '=', ANIME).execute()).toEqual([]);
    expect(fs.existsSync(path.join(media, 'Kiri 01.mkv'))).toBe(true);
  });
});
