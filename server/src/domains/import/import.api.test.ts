import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';

const md4 = (data: Buffer) => createHash('md4').update(data).digest('hex').toUpperCase();

function writeFile(root: string, relativePath: string, data: Buffer): string {
  const full = path.join(root, relativePath);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, data);
  return full;
}

describe('import folders, discovery, hashing and the files API', () => {
  let server: TestServer;
  let adminKey: string;
  let userKey: string;
  let media: string;
  let folderId: number;
  const episode1 = randomBytes(200_000);
  const episode2 = randomBytes(50_000);

  const api = (method: string, url: string, body?: unknown, key = adminKey) => server.request({ method, url, key, body });
  const scanAndWait = async () => {
    expect((await api('GET', `/api/v3/ImportFolder/${folderId}/Scan`)).statusCode).toBe(200);
    await server.services.queue.idle();
  };
  const unrecognized = async () => (await api('GET', '/api/v3/File?include_only=Unrecognized&include=AbsolutePaths&pageSize=0')).json();

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    userKey = (await createUser(server, adminKey, 'viewer', 'viewer-pass')).key;
    media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-media-'));
    writeFile(media, 'Show/Episode 01.mkv', episode1);
    writeFile(media, 'Show/Episode 02.MKV', episode2);
    writeFile(media, 'Show/notes.txt', Buffer.from('not a video'));
    writeFile(media, '.Trash-1000/files/old.mkv', randomBytes(100));
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(media, { recursive: true, force: true });
  });

  it('refuses folders that do not exist, are files, or nest in another', async () => {
    let res = await api('POST', '/api/v3/ImportFolder', { Name: 'Missing', Path: path.join(media, 'nope'), DropFolderType: 'None' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.Path).toEqual(['Path does not exist. Import Folders must be a location that exists on the server.']);
    res = await api('POST', '/api/v3/ImportFolder', { Name: 'A file', Path: path.join(media, 'Show/notes.txt') });
    expect(res.json().errors.Path[0]).toMatch(/^Path is not a directory/);
    res = await api('POST', '/api/v3/ImportFolder', { Name: '', Path: media });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ Name: ['The Name field is required.'] });
    res = await api('PUT', '/api/v3/ImportFolder', { Name: 'No id', Path: path.join(media, 'nope') });
    expect(Object.keys(res.json().errors).sort()).toEqual(['ID', 'Path']);

    res = await api('POST', '/api/v3/ImportFolder', {
      ID: 0,
      Name: 'Anime',
      Path: media,
      DropFolderType: 'Source',
      WatchForNewFiles: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      Name: 'Anime',
      Path: media + path.sep,
      DropFolderType: 'Source',
      WatchForNewFiles: false,
      FileSize: 0,
      Size: 0,
    });
    folderId = res.json().ID;

    res = await api('POST', '/api/v3/ImportFolder', { Name: 'Inner', Path: path.join(media, 'Show') });
    expect(res.json().errors).toEqual({ Body: ['Unable to nest an import folder within another import folder.'] });
    expect((await api('POST', '/api/v3/ImportFolder', { Name: 'X', Path: os.tmpdir() })).statusCode).toBe(400);
  });

  it('lets only admins change folders, and any user list them', async () => {
    expect((await api('POST', '/api/v3/ImportFolder', { Name: 'X', Path: media }, userKey)).statusCode).toBe(403);
    const list = await api('GET', '/api/v3/ImportFolder', undefined, userKey);
    expect(list.json().map((f: { ID: number }) => f.ID)).toEqual([folderId]);
    const updated = await api('PUT', '/api/v3/ImportFolder', {
      ID: folderId,
      Name: 'Anime',
      Path: media,
      DropFolderType: 'Both',
      WatchForNewFiles: false,
    });
    expect(updated.statusCode).toBe(200);
    expect((await api('GET', `/api/v3/ImportFolder/${folderId}`)).json().DropFolderType).toBe('Both');
  });

  it('finds the video files, hashes them, and lists them as unrecognized', async () => {
    await scanAndWait();
    const list = await unrecognized();
    expect(list.Total).toBe(2);
    const names = list.List.map((f: { Locations: Array<{ RelativePath: string }> }) => f.Locations[0].RelativePath).sort();
    expect(names).toEqual([path.join('Show', 'Episode 01.mkv'), path.join('Show', 'Episode 02.MKV')]);
    const first = list.List.find((f: { Size: number }) => f.Size === episode1.length);
    expect(first.Hashes).toEqual({
      ED2K: md4(episode1),
      SHA1: createHash('sha1').update(episode1).digest('hex').toUpperCase(),
      CRC32: expect.stringMatching(/^[0-9A-F]{8}$/),
      MD5: createHash('md5').update(episode1).digest('hex').toUpperCase(),
    });
    expect(first.Locations[0]).toMatchObject({
      ImportFolderID: folderId,
      IsAccessible: true,
      AbsolutePath: path.join(media, 'Show', 'Episode 01.mkv'),
    });
    expect((await api('GET', '/api/v3/ImportFolder')).json()[0].FileSize).toBe(episode1.length + episode2.length);
  });

  it('keeps one record when a file moves, and records a second copy as a duplicate location', async () => {
    const before = (await unrecognized()).List.find((f: { Size: number }) => f.Size === episode1.length);
    fs.mkdirSync(path.join(media, 'Moved'));
    fs.renameSync(path.join(media, 'Show', 'Episode 01.mkv'), path.join(media, 'Moved', 'Episode 01.mkv'));
    fs.copyFileSync(path.join(media, 'Show', 'Episode 02.MKV'), path.join(media, 'Show', 'Episode 02 copy.mkv'));
    await scanAndWait();
    const list = await unrecognized();
    expect(list.Total).toBe(2);
    const moved = list.List.find((f: { ID: number }) => f.ID === before.ID);
    expect(moved.Locations.map((l: { RelativePath: string }) => l.RelativePath)).toEqual([path.join('Moved', 'Episode 01.mkv')]);
    const copied = list.List.find((f: { Size: number }) => f.Size === episode2.length);
    expect(copied.Locations).toHaveLength(2);
    const duplicates = (await api('GET', '/api/v3/File?include_only=Duplicates')).json();
    expect(duplicates.List.map((f: { ID: number }) => f.ID)).toEqual([copied.ID]);
  });

  it('fails a zero-byte file with its reason and carries on', async () => {
    writeFile(media, 'Show/empty.mkv', Buffer.alloc(0));
    await scanAndWait();
    const lines = server.services.logs.backlog().map((e) => e.Message);
    expect(lines.some((line) => line.includes('empty.mkv') && line.includes('the file is empty (0 bytes)'))).toBe(true);
    expect(server.services.queue.state().Running).toBe(true);
  });

  it('ignores and restores a file (an admin change: ignoring hides the file from everyone)', async () => {
    const file = (await unrecognized()).List[0];
    expect((await api('PUT', `/api/v3/File/${file.ID}/Ignore?value=true`, undefined, userKey)).statusCode).toBe(403);
    expect((await api('PUT', `/api/v3/File/${file.ID}/Ignore?value=true`)).statusCode).toBe(200);
    const ignored = (await api('GET', '/api/v3/File?include_only=Ignored')).json();
    expect(ignored.List.map((f: { ID: number }) => f.ID)).toEqual([file.ID]);
    expect((await unrecognized()).List.some((f: { ID: number }) => f.ID === file.ID)).toBe(false);
    await api('PUT', `/api/v3/File/${file.ID}/Ignore?value=false`);
    expect((await unrecognized()).List.some((f: { ID: number }) => f.ID === file.ID)).toBe(true);
  });

  it('searches relative paths and sorts by the contract criteria', async () => {
    const found = (await api('GET', '/api/v3/File/Search/episode%2002?pageSize=0')).json();
    expect(found.Total).toBe(1);
    // A literal percent sign is searched as itself, not decoded a second time.
    expect((await api('GET', '/api/v3/File/Search/%2530?pageSize=0')).json().Total).toBe(0);
    const bySizeDesc = (await api('GET', '/api/v3/File?sortOrder=-FileSize&pageSize=0')).json();
    expect(bySizeDesc.List[0].Size).toBe(episode1.length);
    expect((await api('GET', '/api/v3/File?include=Bogus')).statusCode).toBe(400);
  });

  it('removes only records unless told to delete from disk, never outside the folder', async () => {
    const copied = (await unrecognized()).List.find((f: { Size: number }) => f.Size === episode2.length);
    const copyLocation = copied.Locations.find((l: { RelativePath: string }) => l.RelativePath.endsWith('copy.mkv'));
    expect((await api('DELETE', `/api/v3/File/Location/${copyLocation.ID}?deleteFile=false`)).statusCode).toBe(200);
    expect(fs.existsSync(copyLocation.AbsolutePath)).toBe(true);

    const moved = (await unrecognized()).List.find((f: { Size: number }) => f.Size === episode1.length);
    expect((await api('DELETE', '/api/v3/File', { fileIDs: [moved.ID], removeFiles: false, removeFolders: false })).statusCode).toBe(200);
    expect(fs.existsSync(path.join(media, 'Moved', 'Episode 01.mkv'))).toBe(true);
    expect((await api('GET', `/api/v3/File/${moved.ID}`)).statusCode).toBe(404);

    await scanAndWait();
    const again = (await unrecognized()).List.find((f: { Size: number }) => f.Size === episode1.length);
    expect((await api('DELETE', '/api/v3/File', { fileIDs: [again.ID], removeFiles: true, removeFolders: true })).statusCode).toBe(200);
    expect(fs.existsSync(path.join(media, 'Moved', 'Episode 01.mkv'))).toBe(false);
    expect(fs.existsSync(path.join(media, 'Moved'))).toBe(false);
    expect(fs.existsSync(media)).toBe(true);
  });

  it('deletes a folder with its records and leaves the disk alone', async () => {
    const before = fs.readdirSync(path.join(media, 'Show')).sort();
    expect((await api('DELETE', `/api/v3/ImportFolder/${folderId}`)).statusCode).toBe(200);
    expect((await api('GET', '/api/v3/File?pageSize=0&include=Ignored')).json().Total).toBe(0);
    expect(fs.readdirSync(path.join(media, 'Show')).sort()).toEqual(before);
    expect((await api('DELETE', `/api/v3/ImportFolder/${folderId}`)).statusCode).toBe(404);
  });
});

describe('the persisted queue across a restart', () => {
  // Two server starts, scrypt and the first MediaInfo worker take most of the default 30 s on a loaded 2-core machine.
  it('runs queued jobs, including one interrupted mid-run, after the server restarts', { timeout: 120_000 }, async () => {
    const media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-media-'));
    writeFile(media, 'a.mkv', randomBytes(30_000));
    writeFile(media, 'b.mkv', randomBytes(40_000));
    let server = await createTestServer();
    try {
      const key = await completeFirstRun(server);
      await server.services.queue.pause();
      const folder = (await server.request({ method: 'POST', url: '/api/v3/ImportFolder', key, body: { Name: 'M', Path: media } })).json();
      await server.request({ method: 'GET', url: `/api/v3/ImportFolder/${folder.ID}/Scan`, key });
      // Pretend the last process died while running the scan.
      await server.services.db.kysely.updateTable('jobs').set({ is_running: 1 }).execute();
      await server.close({ keepData: true });

      server = await createTestServer({ restartOf: server });
      server.services.init.startServer();
      await server.services.init.waitForStartup();
      await server.services.queue.idle();
      const key2 = (
        await server.request({ method: 'POST', url: '/api/auth', body: { user: 'Default', pass: 'first-run-pass', device: 't' } })
      ).json().apikey;
      const files = (await server.request({ method: 'GET', url: '/api/v3/File?pageSize=0', key: key2 })).json();
      expect(files.Total).toBe(2);
      expect(files.List.every((f: { Hashes: { ED2K: string } }) => f.Hashes.ED2K.length === 32)).toBe(true);
    } finally {
      await server.close();
      fs.rmSync(media, { recursive: true, force: true });
    }
  });
});
