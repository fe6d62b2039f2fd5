import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';

const NEW_FILES = 150;

/**
 * A big scan does not hold the server until it is over (issue 22, import-stall): new files are recorded a batch at a
 * time, each batch whole (files, locations and maintained figures in one transaction), requests are answered between
 * batches, and hashing starts with the first batch instead of after the last.
 */
describe('a scan of many new files', () => {
  let server: TestServer;
  let key: string;
  let media: string;

  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-interleave-'));
    for (let i = 0; i < NEW_FILES; i++) {
      const folder = path.join(media, `Show ${Math.floor(i / 100)}`);
      fs.mkdirSync(folder, { recursive: true });
      // Every file a size of its own, so a file recorded with another path's size shows.
      fs.writeFileSync(path.join(folder, `Episode ${i}.mkv`), Buffer.alloc(i + 1, i % 256));
    }
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(media, { recursive: true, force: true });
  });

  it('answers a request made during the scan before the scan has recorded every file', async () => {
    let detected = 0;
    let answered: Promise<{ detectedThen: number; unrecognized: number; hashJobs: number }> | null = null;
    const allDetected = new Promise<void>((resolve) => {
      server.services.bus.on('shoko', ({ event }) => {
        if (event !== 'FileDetected') return;
        detected += 1;
        // A page request as the first new file is announced, which is once the first batch is recorded.
        answered ??= api('GET', '/api/v3/File?include_only=Unrecognized&pageSize=1').then(async (res) => {
          expect(res.statusCode).toBe(200);
          return {
            detectedThen: detected,
            unrecognized: res.json().Total as number,
            hashJobs: (await server.services.queue.typeCounts())['Hash File'] ?? 0,
          };
        });
        if (detected === NEW_FILES) resolve();
      });
    });
    const created = await api('POST', '/api/v3/ImportFolder', { Name: 'Media', Path: media });
    expect(created.statusCode).toBe(200);
    expect((await api('GET', `/api/v3/ImportFolder/${created.json().ID}/Scan`)).statusCode).toBe(200);
    await allDetected;
    const during = await answered!;
    // Answered while the scan was still recording: without the pauses between batches it waits for all of them.
    expect(during.detectedThen).toBeLessThan(NEW_FILES);
    // What it saw was whole batches (a file never without its location) and not yet everything.
    expect(during.unrecognized).toBeGreaterThan(0);
    expect(during.unrecognized).toBeLessThan(NEW_FILES);
    expect(during.unrecognized % 50).toBe(0);
    // Hashing was queued for what was recorded, before the scan reached the last files.
    expect(during.hashJobs).toBeGreaterThan(0);

    await server.services.queue.clear();
    await server.services.queue.idle();
    const files = (await api('GET', '/api/v3/File?include_only=Unrecognized&include=AbsolutePaths&pageSize=0')).json().List as Array<{
      Size: number;
      Locations: Array<{ AbsolutePath: string }>;
    }>;
    expect(files).toHaveLength(NEW_FILES);
    expect(files.filter((file) => file.Size !== fs.statSync(file.Locations[0].AbsolutePath).size)).toEqual([]);
  });
});
