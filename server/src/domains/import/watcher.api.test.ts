import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';

async function waitFor<T>(probe: () => Promise<T | null | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('watching import folders', () => {
  let server: TestServer;
  let key: string;
  let media: string;

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-watch-'));
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(media, { recursive: true, force: true });
  });

  it('hashes a new video file once it stops growing, and notices when it is removed', async () => {
    const created = await server.request({
      method: 'POST',
      url: '/api/v3/ImportFolder',
      key,
      body: { Name: 'Watched', Path: media, WatchForNewFiles: true },
    });
    expect(created.statusCode).toBe(200);
    await waitFor(async () => (server.services.watcher as unknown as { watchers: Map<number, unknown> }).watchers.size > 0);
    // A file created before the watcher's first scan is done counts as already there: wait for the scan, not a time.
    await server.services.watcher.whenWatching();

    // Written in two parts, as a copy in progress would be.
    const target = path.join(media, 'New Episode.mkv');
    fs.writeFileSync(target, randomBytes(64_000));
    fs.writeFileSync(path.join(media, 'readme.txt'), 'not a video');
    await new Promise((resolve) => setTimeout(resolve, 500));
    fs.appendFileSync(target, randomBytes(64_000));

    const file = await waitFor(async () => {
      const list = (await server.request({ method: 'GET', url: '/api/v3/File?pageSize=0', key })).json();
      return list.List.find((f: { Hashes: { ED2K: string } }) => f.Hashes.ED2K) ?? null;
    });
    expect(file.Size).toBe(128_000);
    expect((await server.request({ method: 'GET', url: '/api/v3/File?pageSize=0', key })).json().Total).toBe(1);

    fs.unlinkSync(target);
    await waitFor(async () => {
      const detail = (await server.request({ method: 'GET', url: `/api/v3/File/${file.ID}`, key })).json();
      return detail.Locations[0].IsAccessible === false;
    });
  }, 40_000);
});
