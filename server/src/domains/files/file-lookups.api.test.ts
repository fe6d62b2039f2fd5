import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileCommands, startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../fakes/src/anidb-udp/index.js';
import { completeFirstRunWithAniDB, createTestServer, login, setEnv, type TestServer } from '../../test/harness.js';
import type { AnimeMetadata } from '../metadata/index.js';

const md4 = (data: Buffer) => createHash('md4').update(data).digest('hex').toUpperCase();
const FIXTURE_MKV = path.join(path.dirname(new URL(import.meta.url).pathname), '../../media/mediainfo/fixtures/sample.mkv');

/** An invented anime (made-up title and ids) with one tag. */
function anime(id: number, title: string, episodeIds: number[], tag: { id: number; name: string }): AnimeMetadata {
  return {
    id,
    type: 'TV Series',
    mainTitle: title,
    titles: [{ type: 'main', language: 'x-jat', value: title }],
    episodeCount: episodeIds.length,
    specialCount: 0,
    airDate: '2021-04-04',
    endDate: '2021-06-27',
    restricted: false,
    description: `About ${title}.`,
    picture: null,
    rating: 700,
    ratingVotes: 10,
    tempRating: 0,
    tempRatingVotes: 0,
    resources: [],
    tags: [{ ...tag, parentId: null, description: null, weight: 300, isSpoiler: false, isLocalSpoiler: false, isVerified: true }],
    relations: [],
    episodes: episodeIds.map((episodeId, i) => ({
      id: episodeId,
      type: 'Episode',
      number: i + 1,
      lengthSeconds: 1440,
      airDate: '2021-04-04',
      rating: 0,
      votes: 0,
      description: '',
      titles: [{ language: 'en', value: `Part ${i + 1}` }],
    })),
  };
}

interface FileModel {
  ID: number;
  Size: number;
  SeriesIDs?: Array<{ SeriesID: { AniDB: number }; EpisodeIDs: Array<{ AniDB: number }> }>;
  Hashes: { ED2K: string; CRC32: string; MD5: string; SHA1: string };
  Locations: Array<{ RelativePath: string; AbsolutePath?: string }>;
  AniDB?: { ID: number };
  MediaInfo?: unknown;
}

/**
 * Looking files up by hash, AniDB file id, path end and path regex, and a file's AniDB record, media info and episodes
 * (contract files.md F4–F7, F14–F17, F22, F39–F42, T4). An invented collection: "Kumo no Kanata" (two episodes,
 * one of them also copied under another folder in other letter case), "Himitsu" (its tag is restricted for one
 * user), and a real Matroska file AniDB does not know.
 */
describe('file lookups API', () => {
  let server: TestServer;
  let fake: FakeAniDBUdp;
  let key: string;
  let restrictedKey: string;
  let media: string;
  let restoreEnv: () => void;
  const kumo1 = randomBytes(30_000);
  // No media in it for certain: MediaInfo takes random bytes for an AV2 stream now and then (13 of 3,000 random files
  // of this size), and this file's MediaInfo must answer "Unable to find media container" (it answered 200 in ci31).
  const kumo2 = Buffer.alloc(31_000, 'kumo 02: not a video. ');
  const himitsu1 = randomBytes(32_000);
  const ids: Record<string, number> = {};

  const call = (url: string, apiKey = key, method = 'GET') => server.request({ method, url, key: apiKey });
  const ok = async <T = FileModel>(url: string, apiKey = key) => {
    const res = await call(url, apiKey);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json() as T;
  };
  const expectText = async (url: string, status: number, text: string, method = 'GET') => {
    const res = await call(url, key, method);
    expect(res.statusCode, url).toBe(status);
    expect(res.body, url).toBe(text);
  };
  const expectField = async (url: string, field: string) => {
    const res = await call(url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
    expect(Object.keys(res.json().errors ?? {}), url).toContain(field);
  };

  beforeAll(async () => {
    fake = await startFakeAniDBUdp({
      users: { tester: 'secret1' },
      commands: fileCommands([
        { size: kumo1.length, ed2k: md4(kumo1), fileId: 11, animeId: 70, episodeId: 700, fileName: 'Kumo.01.mkv' },
        { size: kumo2.length, ed2k: md4(kumo2), fileId: 12, animeId: 70, episodeId: 701 },
        { size: himitsu1.length, ed2k: md4(himitsu1), fileId: 13, animeId: 80, episodeId: 800 },
      ]),
    });
    restoreEnv = setEnv({ SHOKO_ANIDB_UDP: `${fake.host}:${fake.port}` });
    const catalogue: Record<number, AnimeMetadata> = {
      70: anime(70, 'Kumo no Kanata', [700, 701], { id: 900, name: 'invented tag' }),
      80: anime(80, 'Himitsu', [800], { id: 901, name: 'restricted tag' }),
    };
    server = await createTestServer({
      services: {
        animeSource: {
          getAnime: async (id) => {
            if (!catalogue[id]) throw new Error(`unknown anime ${id}`);
            return catalogue[id];
          },
        },
      },
    });
    key = await completeFirstRunWithAniDB(server, { username: 'tester', password: 'secret1' });
    media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-lookups-'));
    const write = (relative: string, data: Buffer) => {
      fs.mkdirSync(path.dirname(path.join(media, relative)), { recursive: true });
      fs.writeFileSync(path.join(media, relative), data);
    };
    write('Kumo no Kanata/Kumo 01.mkv', kumo1);
    write('Kumo no Kanata/Kumo 02.mkv', kumo2);
    write('Backup/KUMO 01.mkv', kumo1);
    write('Himitsu/Himitsu 01.mkv', himitsu1);
    write('Extras/sample.mkv', fs.readFileSync(FIXTURE_MKV));
    write('Extras/Ärger Über 01.mkv', randomBytes(33_000));
    const folder = (
      await server.request({ method: 'POST', url: '/api/v3/ImportFolder', key, body: { Name: 'Anime', Path: media } })
    ).json();
    await call(`/api/v3/ImportFolder/${folder.ID}/Scan`);
    await server.services.queue.idle();
    const list = (await ok<{ List: FileModel[] }>('/api/v3/File?pageSize=0&include=AbsolutePaths')).List;
    for (const file of list) {
      const name = file.Locations.map((l) => path.basename(l.RelativePath)).sort()[0];
      ids[name] = file.ID;
    }
    expect(Object.keys(ids).sort()).toEqual(['Himitsu 01.mkv', 'KUMO 01.mkv', 'Kumo 02.mkv', 'sample.mkv', 'Ärger Über 01.mkv']);
    const guest = await server.request({
      method: 'POST',
      url: '/api/v3/User',
      key,
      body: { Username: 'guest', Password: 'guest-pass', IsAdmin: false, RestrictedTags: [901] },
    });
    expect(guest.statusCode, guest.body).toBe(200);
    restrictedKey = await login(server, 'guest', 'guest-pass');
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await fake?.close();
    if (media) fs.rmSync(media, { recursive: true, force: true });
    restoreEnv?.();
  });

  it('finds a file by each hash and its size, in either letter case', async () => {
    const kumo = await ok(`/api/v3/File/${ids['KUMO 01.mkv']}`);
    expect(kumo.Hashes.ED2K).toBe(md4(kumo1));
    for (const [algorithm, hash] of Object.entries(kumo.Hashes)) {
      expect(hash, algorithm).toMatch(/^[0-9A-F]+$/);
      expect((await ok(`/api/v3/File/Hash/${algorithm}?hash=${hash}&size=${kumo1.length}`)).ID, algorithm).toBe(kumo.ID);
      expect((await ok(`/api/v3/file/hash/${algorithm.toLowerCase()}?hash=${hash.toLowerCase()}&size=${kumo1.length}`)).ID).toBe(kumo.ID);
      await expectText(
        `/api/v3/File/Hash/${algorithm}?hash=${hash}&size=${kumo1.length + 1}`,
        404,
        'No File entry for the given hash and file size.',
      );
      await expectText(`/api/v3/File/Hash/${algorithm}?hash=${hash}&size=0`, 404, 'No File entry for the given hash and file size.');
      await expectField(`/api/v3/File/Hash/${algorithm}?hash=${hash}0&size=${kumo1.length}`, 'hash');
    }
    await expectField(`/api/v3/File/Hash/ED2K?size=${kumo1.length}`, 'hash');
    await expectField(`/api/v3/File/Hash/ED2K?hash=${kumo.Hashes.ED2K}`, 'size');
    await expectField(`/api/v3/File/Hash/ED2K?hash=${kumo.Hashes.ED2K}&size=-1`, 'size');
    const shaped = await ok(`/api/v3/File/Hash/ED2K?hash=${kumo.Hashes.ED2K}&size=${kumo1.length}&include=XRefs&includeDataFrom=AniDB`);
    expect(shaped.SeriesIDs?.[0].SeriesID.AniDB).toBe(70);
    expect(shaped.AniDB?.ID).toBe(11);
    expect((await call(`/api/v3/File/Hash/ED2K?hash=${kumo.Hashes.ED2K}&size=${kumo1.length}`, '')).statusCode).toBe(401);
  });

  it('answers the AniDB record of a file and the file of an AniDB record', async () => {
    const record = await ok<{ ID: number; OriginalFileName: string; FileSize: number; ReleaseGroup: { Source: string } }>(
      `/api/v3/File/${ids['KUMO 01.mkv']}/AniDB`,
    );
    expect(record).toMatchObject({ ID: 11, OriginalFileName: 'Kumo.01.mkv', FileSize: kumo1.length, ReleaseGroup: { Source: 'AniDB' } });
    expect(await ok(`/api/v3/File/AniDB/11`)).toEqual(record);
    const file = await ok(`/api/v3/File/AniDB/11/File?includeXRefs=true&includeAbsolutePaths=true&includeDataFrom=AniDB`);
    expect(file.ID).toBe(ids['KUMO 01.mkv']);
    expect(file.SeriesIDs?.[0].EpisodeIDs.map((e) => e.AniDB)).toEqual([700]);
    expect(file.Locations.every((l) => l.AbsolutePath?.startsWith(media))).toBe(true);
    expect(file.AniDB?.ID).toBe(11);
    expect(await ok(`/api/v3/File/AniDB/11/File`)).not.toHaveProperty('SeriesIDs');

    await expectText(`/api/v3/File/${ids['sample.mkv']}/AniDB`, 404, 'No File.Anidb entry for the given fileID');
    await expectText(`/api/v3/File/999999/AniDB`, 404, 'No File entry for the given fileID');
    await expectText(`/api/v3/File/AniDB/999`, 404, 'No File.Anidb entry for the given fileID');
    // Unknown AniDB file, and an AniDB record without a local file: Shoko's two texts, the other way round.
    await expectText(`/api/v3/File/AniDB/999/File`, 404, 'No File entry for the given fileID');
    await server.services.db.kysely
      .insertInto('anidb_files')
      .values({
        ed2k: 'A'.repeat(32),
        size: 1234,
        file_id: 55,
        anime_id: 70,
        group_id: 0,
        source: 'Web',
        version: 1,
        is_deprecated: 0,
        is_censored: 0,
        is_chaptered: 0,
        file_name: 'gone.mkv',
        description: '',
        audio_languages: '[]',
        subtitle_languages: '[]',
        lookup_attempts: 1,
        looked_up_at: new Date().toISOString(),
      })
      .execute();
    expect((await ok<{ ID: number }>(`/api/v3/File/AniDB/55`)).ID).toBe(55);
    await expectText(`/api/v3/File/AniDB/55/File`, 404, 'No File.Anidb entry for the given fileID');
    await expectText(`/api/v3/File/AniDB/55/Rescan`, 404, 'No File.Anidb entry for the given fileID', 'POST');
    await expectText(`/api/v3/File/AniDB/999/Rescan`, 404, 'No File entry for the given fileID', 'POST');
    expect((await call(`/api/v3/File/AniDB/11/Rescan`, key, 'POST')).statusCode).toBe(200);
    await expectField('/api/v3/File/AniDB/0', 'anidbFileID');
    await expectField('/api/v3/File/AniDB/abc/File', 'anidbFileID');
    await expectField('/api/v3/File/0/AniDB', 'fileID');
  });

  it('answers the stored media info, or the contract texts', async () => {
    const info = await ok<{ MediaContainer: string; Video: Array<{ Width: number }>; Subtitles: unknown[] }>(
      `/api/v3/File/${ids['sample.mkv']}/MediaInfo`,
    );
    expect(info.Video[0].Width).toBe(320);
    expect(info.Subtitles.length).toBeGreaterThanOrEqual(2);
    await expectText(`/api/v3/File/${ids['Kumo 02.mkv']}/MediaInfo`, 500, 'Unable to find media container for File');
    await expectText(`/api/v3/File/999999/MediaInfo`, 404, 'No File entry for the given fileID');
    await expectField('/api/v3/File/-3/MediaInfo', 'fileID');
  });

  it("answers a file's episodes, with their files when asked, and refuses a restricted series", async () => {
    const episodes = await ok<Array<{ IDs: { AniDB: number; ID: number }; Files?: FileModel[]; AniDB?: unknown }>>(
      `/api/v3/File/${ids['Kumo 02.mkv']}/Episode`,
    );
    expect(episodes.map((e) => e.IDs.AniDB)).toEqual([701]);
    expect(episodes[0]).not.toHaveProperty('Files');
    const withFiles = await ok<Array<{ Files: FileModel[]; AniDB?: unknown; CrossReferences?: unknown[] }>>(
      `/api/v3/File/${ids['KUMO 01.mkv']}/Episode?includeFiles=true&includeXRefs=true&includeDataFrom=AniDB`,
    );
    expect(withFiles[0].Files.map((f) => f.ID)).toEqual([ids['KUMO 01.mkv']]);
    expect(withFiles[0].Files[0].SeriesIDs).toHaveLength(1);
    expect(withFiles[0].AniDB).toBeDefined();
    expect(withFiles[0].CrossReferences).toHaveLength(1);
    expect(episodes[0]).not.toHaveProperty('CrossReferences');
    expect(await ok(`/api/v3/File/${ids['sample.mkv']}/Episode`)).toEqual([]);
    await expectText(`/api/v3/File/999999/Episode`, 404, 'No File entry for the given fileID');
    const refused = await call(`/api/v3/File/${ids['Himitsu 01.mkv']}/Episode`, restrictedKey);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toBe('Accessing File is not allowed for the current user');
    expect((await ok<unknown[]>(`/api/v3/File/${ids['Kumo 02.mkv']}/Episode`, restrictedKey)).length).toBe(1);
  });

  it('finds files by the end of their absolute path, with either slash, in any letter case', async () => {
    const find = async (url: string, apiKey = key) => (await ok<FileModel[]>(url, apiKey)).map((f) => f.ID);
    const kumo1Id = ids['KUMO 01.mkv'];
    // Both copies of Kumo 01 end with this; the file is listed once.
    expect(await find('/api/v3/File/PathEndsWith?path=kumo%2001.mkv')).toEqual([kumo1Id]);
    expect(await find(`/api/v3/File/PathEndsWith?path=${encodeURIComponent('Kumo no Kanata/Kumo 01.mkv')}`)).toEqual([kumo1Id]);
    expect(await find(`/api/v3/File/PathEndsWith?path=${encodeURIComponent('\\kumo NO kanata\\KUMO 01.MKV')}`)).toEqual([kumo1Id]);
    expect(await find(`/api/v3/File/PathEndsWith?path=${encodeURIComponent('Backup\\KUMO 01.mkv')}`)).toEqual([kumo1Id]);
    // Letter case beyond ASCII too (SQLite's lower() alone would miss it).
    expect(await find(`/api/v3/File/PathEndsWith?path=${encodeURIComponent('extras/ärger über 01.MKV')}`)).toEqual([
      ids['Ärger Über 01.mkv'],
    ]);
    expect(await find(`/api/v3/File/PathEndsWith/${encodeURIComponent('ÄRGER ÜBER 01.mkv')}`)).toEqual([ids['Ärger Über 01.mkv']]);
    expect(await find(`/api/v3/File/PathEndsWith?path=${encodeURIComponent('ärger öber 01.mkv')}`)).toEqual([]);
    // The folder part of the absolute path counts too.
    const full = path.join(media, 'Kumo no Kanata', 'Kumo 02.mkv');
    expect(await find(`/api/v3/File/PathEndsWith?path=${encodeURIComponent(full.replace(/\//g, '\\'))}`)).toEqual([ids['Kumo 02.mkv']]);
    expect(await find(`/api/v3/File/PathEndsWith?path=${encodeURIComponent('Other/Kumo 01.mkv')}`)).toEqual([]);
    expect(await find('/api/v3/File/PathEndsWith?path=')).toEqual([]);
    expect(await find('/api/v3/File/PathEndsWith')).toEqual([]);
    expect(await find(`/api/v3/File/PathEndsWith?path=${encodeURIComponent('Kumo no Kanata/')}`)).toEqual([]);
    // LIKE wildcards in the text are plain characters.
    expect(await find(`/api/v3/File/PathEndsWith?path=${encodeURIComponent('%01.mkv')}`)).toEqual([]);
    expect(await find(`/api/v3/File/PathEndsWith?path=${encodeURIComponent('Kumo_01.mkv')}`)).toEqual([]);

    // The path form: plain segments, an escaped slash, an escaped backslash.
    expect(await find('/api/v3/File/PathEndsWith/Kumo%20no%20Kanata/Kumo%2001.mkv')).toEqual([kumo1Id]);
    expect(await find('/api/v3/File/PathEndsWith/Kumo%20no%20Kanata%2FKumo%2002.mkv')).toEqual([ids['Kumo 02.mkv']]);
    expect(await find('/api/v3/file/pathendswith/kumo%20no%20kanata%5Ckumo%2002.mkv')).toEqual([ids['Kumo 02.mkv']]);
    expect(await find('/api/v3/File/PathEndsWith/Kumo%252002.mkv')).toEqual([ids['Kumo 02.mkv']]);

    // Shape: XRefs by default, AniDB data when asked, limit.
    const [shaped] = await ok<FileModel[]>('/api/v3/File/PathEndsWith?path=Kumo%2001.mkv&includeDataFrom=AniDB');
    expect(shaped.SeriesIDs?.[0].SeriesID.AniDB).toBe(70);
    expect(shaped.AniDB?.ID).toBe(11);
    expect((await ok<FileModel[]>('/api/v3/File/PathEndsWith/Kumo%2001.mkv?includeXRefs=false'))[0]).not.toHaveProperty('SeriesIDs');
    expect(await find('/api/v3/File/PathEndsWith?path=.mkv')).toHaveLength(5);
    expect(await find('/api/v3/File/PathEndsWith?path=.mkv&limit=2')).toHaveLength(2);
    await expectField('/api/v3/File/PathEndsWith?path=.mkv&limit=101', 'limit');
    await expectField('/api/v3/File/PathEndsWith/x.mkv?limit=-1', 'limit');

    // A user who may not see Himitsu does not find its file.
    expect(await find('/api/v3/File/PathEndsWith?path=Himitsu%2001.mkv')).toEqual([ids['Himitsu 01.mkv']]);
    expect(await find('/api/v3/File/PathEndsWith?path=Himitsu%2001.mkv', restrictedKey)).toEqual([]);
    expect(await find('/api/v3/File/PathEndsWith?path=.mkv', restrictedKey)).toHaveLength(4);
    expect((await call('/api/v3/File/PathEndsWith?path=.mkv', '')).statusCode).toBe(401);
  });

  it('finds files by a regular expression over the absolute path or the file name, and refuses risky patterns', async () => {
    const find = async (url: string) => (await ok<FileModel[]>(url)).map((f) => f.ID).sort((a, b) => a - b);
    expect(await find(`/api/v3/File/FilenameRegex/${encodeURIComponent('^kumo 0[12]\\.mkv$')}`)).toEqual(
      [ids['KUMO 01.mkv'], ids['Kumo 02.mkv']].sort((a, b) => a - b),
    );
    expect(await find(`/api/v3/File/FilenameRegex/${encodeURIComponent('^Kanata')}`)).toEqual([]);
    expect(await find(`/api/v3/File/PathRegex/${encodeURIComponent('kanata/kumo 02')}`)).toEqual([ids['Kumo 02.mkv']]);
    expect(await find(`/api/v3/File/PathRegex/${encodeURIComponent('^backup')}`)).toEqual([]);
    expect(await find(`/api/v3/File/PathRegex/${encodeURIComponent(`^${media.replace(/[.]/g, '\\.')}/backup/`)}`)).toEqual([
      ids['KUMO 01.mkv'],
    ]);
    // The path form also takes unescaped segments.
    expect(await find('/api/v3/File/PathRegex/Extras/sample')).toEqual([ids['sample.mkv']]);
    const [withXRefs] = await ok<FileModel[]>(`/api/v3/File/FilenameRegex/${encodeURIComponent('^himitsu')}`);
    expect(withXRefs.SeriesIDs?.[0].SeriesID.AniDB).toBe(80);
    expect((await ok<FileModel[]>(`/api/v3/File/FilenameRegex/${encodeURIComponent('^himitsu')}`, restrictedKey)).length).toBe(0);

    for (const pattern of ['(a+)+$', '(x|xx)*y', '(.*a){1,}', '(\\w)\\1', '(unclosed', 'x'.repeat(201)]) {
      await expectField(`/api/v3/File/PathRegex/${encodeURIComponent(pattern)}`, 'path');
      await expectField(`/api/v3/File/FilenameRegex/${encodeURIComponent(pattern)}`, 'path');
    }
  });
});
