import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sqliteFile } from '../db/database.js';
import { hashedMedia, queueFinished, randomMedia } from './fault-helpers.js';
import { mountSmallDisk } from './full-disk.js';
import { setEnv } from './harness.js';
import { freePort, ServerProcess } from './server-process.js';

/**
 * A server whose data folder (SQLite, settings, logs, images) is on a small tmpfs that fills up while the queue hashes
 * files: the queue pauses and says why, reading and logging in with a key go on, a login that needs a new key says
 * the disk is full, and once space is freed the queue finishes by itself: every file hashed once, the database intact.
 * On SQLite only (the database lives on the data disk); skipped where mounting a tmpfs is not permitted.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

type Queue = { TotalCount: number; Fault?: { Reason: string } | null };
type Health = { DataDisk: { Full: boolean; FreeBytes: number | null }; Queue: { Fault: string | null } };

// On SQLite (the database on the data disk) whichever suite runs: the PostgreSQL suite would only repeat it.
describe.skipIf(!!process.env.SHOKO_TEST_DB)('a full data disk', () => {
  it('leaves the server readable and telling the user, and the queue resumes by itself once space is freed', async (context) => {
    const disk = mountSmallDisk(32);
    if ('unavailable' in disk) return context.skip(disk.unavailable);
    cleanups.push(() => disk.unmount());
    const fileCount = 16;
    const media = randomMedia(fileCount, 2 * 1024 * 1024, cleanups);
    // The queue retries at most every half second here, so it resumes soon after the space is freed.
    cleanups.push(setEnv({ SHOKO_QUEUE_RETRY_MAX_MS: '500' }));
    const server = new ServerProcess({ home: disk.dir, port: await freePort(), databaseUrl: null });
    cleanups.push(() => server.kill());
    await server.start();
    const key = await server.completeFirstRun();
    const folder = await server.json<{ ID: number }>('POST', '/api/v3/ImportFolder', { key, body: { Name: 'Full', Path: media } });
    await server.json('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`, { key });
    await server.waitFor('the first files to be hashed', async () => server.output().includes(`Hashed ${media}`), 60_000);

    disk.fill();
    await server.waitFor(
      'the queue to pause for the full disk',
      async () => (await server.json<Queue>('GET', '/api/v3/Queue', { key })).Fault != null,
      30_000,
    );
    const paused = await server.json<Queue>('GET', '/api/v3/Queue', { key });
    expect(paused.Fault?.Reason).toMatch(/data disk is full/);
    expect(paused.TotalCount).toBeGreaterThan(0);

    // Reading goes on: the file list, the dashboard, the key's own account.
    const reads = [
      '/api/v3/File?pageSize=20',
      '/api/v3/Dashboard/Stats',
      '/api/v3/Dashboard/SeriesSummary',
      '/api/v3/Dashboard/NextUpEpisodes',
      '/api/v3/Group?pageSize=20',
      '/api/v3/Series?pageSize=20',
      '/api/v3/Filter',
      '/api/v3/User/Current',
      '/api/v3/ImportFolder',
      '/api/v3/Settings',
      '/api/v3/Queue/Items?pageSize=20',
    ];
    for (const url of reads) {
      const res = await server.fetch('GET', url, { key });
      expect(res.status, `${url}: ${await res.clone().text()}\n${server.output().slice(-4000)}`).toBe(200);
    }
    // A login issues a new key, which cannot be saved: it says why.
    const login = await server.fetch('POST', '/api/auth', { body: { user: 'Default', pass: 'crash-pass', device: 'full-disk' } });
    expect(login.status).toBe(507);
    expect(login.headers.get('content-type')).toMatch(/problem\+json/);
    expect(((await login.json()) as { detail: string }).detail).toMatch(/data disk is full/);
    const health = await server.json<Health>('GET', '/healthz');
    expect(health.DataDisk.Full).toBe(true);
    expect(health.DataDisk.FreeBytes).toBeLessThan(1024 * 1024);
    expect(health.Queue.Fault).toMatch(/data disk is full/);

    disk.free();
    await queueFinished(server, key);
    expect((await server.json<Health>('GET', '/healthz')).DataDisk.Full).toBe(false);
    const { records, unhashed, hashings } = await hashedMedia(server, key, media);
    expect({ records, unhashed }).toEqual({ records: fileCount, unhashed: 0 });
    expect([...hashings.values()].filter((times) => times !== 1)).toEqual([]);
    // Logging in works again.
    expect((await server.fetch('POST', '/api/auth', { body: { user: 'Default', pass: 'crash-pass', device: 'after' } })).status).toBe(200);

    await server.stop();
    const db = new SQLite(sqliteFile(disk.dir), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.prepare('SELECT COUNT(*) AS n FROM jobs').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  }, 240_000);
});
