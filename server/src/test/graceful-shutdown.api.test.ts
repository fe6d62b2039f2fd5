import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { connectPg } from './pg-admin.js';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { startFreshServer, type ServerProcess } from './server-process.js';

/**
 * SIGTERM (what systemd and `docker stop` send) while files are being hashed: the process settles its jobs, closes
 * the database and exits 0; after a restart on the same data every file is hashed exactly once, with the right hashes.
 */

interface FileList {
  Total: number;
  List: Array<{
    Size: number;
    Hashes: { ED2K: string; SHA1: string; CRC32: string; MD5: string };
    Locations: Array<{ RelativePath: string }>;
  }>;
}
type QueueItems = { List?: Array<{ Type: string; IsRunning: boolean; Details: { Progress?: number } }> };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** The hashes as an independent reference computes them (ED2K: MD4 per 9,728,000-byte chunk, MD4 of those). */
function expectedHashes(data: Buffer) {
  const chunk = 9_728_000;
  const md4 = (bytes: Buffer) => createHash('md4').update(bytes).digest();
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += chunk) chunks.push(md4(data.subarray(offset, offset + chunk)));
  const ed2k = chunks.length === 1 ? chunks[0] : md4(Buffer.concat(chunks));
  return {
    ED2K: ed2k.toString('hex').toUpperCase(),
    SHA1: createHash('sha1').update(data).digest('hex').toUpperCase(),
    CRC32: zlib.crc32(data).toString(16).padStart(8, '0').toUpperCase(),
    MD5: createHash('md5').update(data).digest('hex').toUpperCase(),
  };
}

function mediaFolder(files: Array<[string, number]>) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-sigterm-media-')));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const expected = new Map<string, ReturnType<typeof expectedHashes>>();
  for (const [name, size] of files) {
    const data = randomBytes(size);
    fs.writeFileSync(path.join(dir, name), data);
    expected.set(name, expectedHashes(data));
  }
  return { dir, expected };
}

async function hashJobRunning(server: ServerProcess, key: string): Promise<boolean> {
  const items = await server.json<QueueItems>('GET', '/api/v3/Queue/Items?pageSize=100&showAll=true', { key });
  // Caught early in a big file, so the signal lands while it is still being read.
  return items.List?.some((item) => item.IsRunning && /hash/i.test(item.Type) && (item.Details.Progress ?? 0) < 50) ?? false;
}

/** How many connections PostgreSQL has open to a database. */
async function backendsOf(databaseUrl: string): Promise<number> {
  const admin = await connectPg(process.env.SHOKO_TEST_DB);
  try {
    const name = new URL(databaseUrl).pathname.slice(1);
    return Number((await admin.query<{ n: string }>('SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0].n);
  } finally {
    await admin.end();
  }
}

describe('graceful shutdown', () => {
  it('SIGTERM during hashing loses no work: exit 0, jobs back in the queue, every file hashed once after restart', async () => {
    const sizes: Array<[string, number]> = [
      ['big-a.mkv', 160 * 1024 * 1024],
      ['big-b.mkv', 160 * 1024 * 1024],
      ['small.mkv', 4096],
    ];
    const media = mediaFolder(sizes);
    const { server, home, key, databaseUrl } = await startFreshServer(cleanups, 'shoko-sigterm-');
    // On PostgreSQL a started server opens five connections in the background (db.warmUp), so the first
    // requests do not wait for new backends: wait for them (the test's timeout bounds the wait).
    if (databaseUrl) while ((await backendsOf(databaseUrl)) < 5) await new Promise((resolve) => setTimeout(resolve, 100));
    const folder = await server.json<{ ID: number }>('POST', '/api/v3/ImportFolder', {
      key,
      body: { Name: 'Shutdown', Path: media.dir },
    });
    await server.json('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`, { key });
    await server.waitFor('a big file to be hashing', () => hashJobRunning(server, key), 60_000);

    expect(await server.terminate('SIGTERM')).toBe(0);
    expect(server.output()).toContain('Shut down cleanly');
    expect(server.output()).toMatch(/interrupted by the shutdown/);

    // The database as the process left it: no job still marked running, and every file fully hashed or not at all,
    // with a hash job waiting for each one that is not.
    const db = openDatabase({ home, databaseUrl });
    try {
      const jobs = await db.kysely.selectFrom('jobs').select(['kind', 'payload', 'is_running']).execute();
      expect(jobs.filter((job) => Number(job.is_running) !== 0)).toEqual([]);
      const waitingHashes = new Set(
        jobs.filter((job) => job.kind === 'HashFileJob').map((job) => (JSON.parse(job.payload) as { locationId: number }).locationId),
      );
      const locations = await db.kysely
        .selectFrom('file_locations')
        .innerJoin('files', 'files.id', 'file_locations.file_id')
        .select(['file_locations.id as locationId', 'files.ed2k', 'files.sha1', 'files.md5', 'files.crc32'])
        .execute();
      expect(locations).toHaveLength(3);
      const unhashed = locations.filter((l) => l.ed2k === '');
      expect(unhashed.length).toBeGreaterThan(0);
      for (const location of unhashed) {
        expect([location.sha1, location.md5, location.crc32]).toEqual(['', '', '']);
        expect(waitingHashes.has(location.locationId)).toBe(true);
      }
      for (const location of locations.filter((l) => l.ed2k !== '')) expect(location.sha1).not.toBe('');
    } finally {
      await db.close();
    }

    await server.start();
    await server.waitForStarted();
    const after = await server.login();
    await server.waitFor(
      'the queue to finish',
      async () => (await server.json<{ TotalCount: number }>('GET', '/api/v3/Queue', { key: after })).TotalCount === 0,
      240_000,
    );
    const files = await server.json<FileList>('GET', '/api/v3/File?pageSize=0&include=Ignored', { key: after });
    expect(files.Total).toBe(3);
    const byName = new Map(files.List.map((file) => [file.Locations[0]?.RelativePath, file]));
    for (const [name, size] of sizes) {
      expect(byName.get(name)?.Size, name).toBe(size);
      expect(byName.get(name)?.Hashes, name).toEqual(media.expected.get(name));
      expect(byName.get(name)?.Locations, name).toHaveLength(1);
      // One "Hashed" line per file over both runs: nothing hashed twice, nothing left unhashed.
      const hashedLines = server.output().split(`Hashed ${path.join(media.dir, name)} (`).length - 1;
      expect(hashedLines, name).toBe(1);
    }
  }, 300_000);
});
