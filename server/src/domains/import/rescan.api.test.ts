import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';

const md4 = (data: Buffer) => createHash('md4').update(data).digest('hex').toUpperCase();

/** A scan hashes what is new or changed on disk and nothing else (contract files.md §12.1: the file-name cache). */
describe('re-scanning a folder', () => {
  let server: TestServer;
  let key: string;
  let media: string;
  let folderId: number;
  const hashed: string[] = [];
  const first = randomBytes(60_000);
  const second = randomBytes(70_000);

  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });
  const scan = async () => {
    expect((await api('GET', `/api/v3/ImportFolder/${folderId}/Scan`)).statusCode).toBe(200);
    await server.services.queue.idle();
  };
  const fileAt = async (relativePath: string) => {
    const files = (await api('GET', '/api/v3/File?pageSize=0&include=AbsolutePaths')).json().List as Array<{
      ID: number;
      Size: number;
      Hashes: { ED2K: string };
      Locations: Array<{ RelativePath: string }>;
    }>;
    return files.find((f) => f.Locations.some((l) => l.RelativePath === relativePath));
  };

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    server.services.bus.on('shoko', ({ event, payload }) => {
      if (event === 'FileHashed') hashed.push((payload as { RelativePath: string }).RelativePath);
    });
    media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-rescan-'));
    fs.writeFileSync(path.join(media, 'one.mkv'), first);
    fs.writeFileSync(path.join(media, 'two.mkv'), second);
    folderId = (await api('POST', '/api/v3/ImportFolder', { Name: 'Media', Path: media, DropFolderType: 'Source' })).json().ID;
    await scan();
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(media, { recursive: true, force: true });
  });

  it('hashes each new file once', () => {
    expect(hashed.sort()).toEqual(['one.mkv', 'two.mkv']);
  });

  it('never hashes an unchanged file again', async () => {
    hashed.length = 0;
    await scan();
    await scan();
    expect(hashed).toEqual([]);
  });

  it('hashes a file again when its content changed in place, and keeps the other untouched', async () => {
    hashed.length = 0;
    const before = await fileAt('one.mkv');
    const replaced = randomBytes(65_000);
    fs.writeFileSync(path.join(media, 'one.mkv'), replaced);
    // Same size, new bytes: only the modification time tells.
    const sameSize = randomBytes(second.length);
    fs.writeFileSync(path.join(media, 'two.mkv'), sameSize);
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(media, 'two.mkv'), later, later);
    await scan();
    expect(hashed.sort()).toEqual(['one.mkv', 'two.mkv']);
    const after = await fileAt('one.mkv');
    expect(after?.Hashes.ED2K).toBe(md4(replaced));
    expect(after?.Size).toBe(replaced.length);
    expect(after?.ID).not.toBe(before?.ID);
    expect((await fileAt('two.mkv'))?.Hashes.ED2K).toBe(md4(sameSize));

    hashed.length = 0;
    await scan();
    expect(hashed).toEqual([]);
  });
});
