import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashedMedia, NO_POSTGRES, queueFinished, randomMedia, startOwnCluster } from './fault-helpers.js';
import { setEnv } from './harness.js';
import { connectPg } from './pg-admin.js';
import { freePort, ServerProcess } from './server-process.js';

/**
 * PostgreSQL restarted (`pg_ctl restart -m fast`, every connection ended with 57P01) under a server process that is
 * hashing files and answering requests: the process lives, requests caught by the restart answer a 503 problem (never
 * a 500 or a dropped connection), later ones succeed, and the queue pauses, resumes by itself and hashes every file
 * exactly once. Then PostgreSQL stopped for a while (`pg_ctl stop -m fast`) with the queue's writes and a request
 * waiting on it: the request answers a 503 problem, the queue and /healthz say the database is gone while it is, and once
 * it is started again the queue finishes by itself. Each test starts a cluster of its own, to restart and stop it
 * freely; skipped without the PostgreSQL binaries.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/**
 * A server process on a PostgreSQL cluster of the test's own, hashing `fileCount` files of 2 MB when this resolves (the
 * first is hashed); null without the PostgreSQL binaries. The queue retries at most every half second, so it resumes
 * soon after the database is back.
 */
async function hashingServerOnOwnCluster(fileCount: number) {
  const cluster = await startOwnCluster();
  if (!cluster) return null;
  cleanups.push(() => cluster.stop());
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-pg-fault-'));
  cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
  const media = randomMedia(fileCount, 2 * 1024 * 1024, cleanups);
  cleanups.push(setEnv({ SHOKO_QUEUE_RETRY_MAX_MS: '500' }));
  const server = new ServerProcess({ home, port: await freePort(), databaseUrl: cluster.url });
  cleanups.push(() => server.kill());
  await server.start();
  const key = await server.completeFirstRun();
  const folder = await server.json<{ ID: number }>('POST', '/api/v3/ImportFolder', { key, body: { Name: 'Media', Path: media } });
  await server.json('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`, { key });
  await server.waitFor('the first files to be hashed', async () => server.output().includes(`Hashed ${media}`), 60_000);
  return { cluster, server, key, media };
}

// It starts a cluster of its own (restarting the suite's would break other tests), so the PostgreSQL suite would only
// repeat it.
describe.skipIf(!!process.env.SHOKO_TEST_DB)('PostgreSQL restarted or stopped', () => {
  it('leaves the server running: requests caught by it get a 503 problem, the queue resumes and every job runs once', async (context) => {
    const fileCount = 16;
    const started = await hashingServerOnOwnCluster(fileCount);
    if (!started) return context.skip(NO_POSTGRES);
    const { cluster, server, key, media } = started;

    // Readers keep asking throughout the restart: some of their requests are in flight when the connections end.
    const answers: Array<{ url: string; status: number | 'no answer'; body: string }> = [];
    let restarting = true;
    const reader = async (url: string) => {
      while (restarting) {
        try {
          const res = await server.fetch('GET', url, { key });
          answers.push({ url, status: res.status, body: await res.text() });
        } catch (error) {
          answers.push({ url, status: 'no answer', body: String(error) });
        }
      }
    };
    const readers = ['/api/v3/Dashboard/Stats', '/api/v3/File?pageSize=10', '/api/v3/Group?pageSize=10', '/api/v3/User/Current'].map(
      reader,
    );
    await cluster.restart();
    restarting = false;
    await Promise.all(readers);

    process.stderr.write(
      `ANSWERS ${JSON.stringify(answers.reduce((c, a) => ({ ...c, [a.status]: (c[a.status] ?? 0) + 1 }), {} as Record<string, number>))}\n${server
        .output()
        .split('\n')
        .filter((l) => /Warn|Error|lost|Queue/.test(l) && !/Cross-Ref|MediaInfo/.test(l))
        .join('\n')}\n`,
    );
    const unexpected = answers.filter((answer) => answer.status !== 200 && answer.status !== 503);
    expect(unexpected, server.output().slice(-3000)).toEqual([]);
    const unavailable = answers.filter((answer) => answer.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const answer of unavailable) expect(JSON.parse(answer.body).detail).toMatch(/database/);

    // Later requests succeed, the queue carries on by itself, and every file is hashed exactly once.
    for (const url of ['/api/v3/Dashboard/Stats', '/api/v3/File?pageSize=10', '/api/v3/User/Current'])
      expect((await server.fetch('GET', url, { key })).status).toBe(200);
    // Whether a job of the queue touched the database during the few hundred milliseconds of the restart is chance (a
    // hash job spends most of its time reading the file): the queue's pause is the proof of the test below, which
    // stops PostgreSQL while jobs are sure to be waiting on it.
    await queueFinished(server, key);
    expect(server.output()).not.toMatch(/Uncaught exception|Unhandled rejection/);
    const { records, unhashed, hashings } = await hashedMedia(server, key, media);
    expect({ records, unhashed }).toEqual({ records: fileCount, unhashed: 0 });
    // A hash job whose run the restart cut short (after its "Hashed" line, before it ended) runs again, as it should;
    // no other file is hashed twice. That a job which ended is never run again is the queue's own test's proof.
    const hashedAgain = [...hashings.values()].reduce((sum, times) => sum + times - 1, 0);
    expect(hashedAgain).toBeLessThanOrEqual(server.output().split('Hashing File met a fault of the database').length - 1);
  }, 240_000);

  it('stopped for a while under a busy queue and a request in flight: the process lives and says why, and everything resumes once it is back', async (context) => {
    const fileCount = 32;
    const started = await hashingServerOnOwnCluster(fileCount);
    if (!started) return context.skip(NO_POSTGRES);
    const { cluster, server, key, media } = started;

    // The files table locked by another session: the queue's writes and a reader's request wait on PostgreSQL when it
    // stops, so both are sure to be in flight then.
    const admin = await connectPg(cluster.url);
    cleanups.push(() => admin.end().catch(() => undefined));
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE files IN ACCESS EXCLUSIVE MODE');
    let answered = false;
    const inFlight = server.fetch('GET', '/api/v3/File?pageSize=10', { key }).finally(() => (answered = true));
    const waitingOnTheLock = async () =>
      (
        await admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query NOT LIKE '%pg_prewarm%'`,
        )
      ).rows[0]!.n;
    await server.waitFor('the request and the queue to wait on the database', async () => (await waitingOnTheLock()) >= 2, 60_000);
    expect(answered).toBe(false);

    await cluster.shutDown();
    // The request caught by the stop answers a 503 problem that says why.
    const caught = await inFlight;
    expect(caught.status, server.output().slice(-3000)).toBe(503);
    expect(caught.headers.get('content-type')).toMatch(/problem\+json/);
    expect(((await caught.json()) as { detail: string }).detail).toMatch(/database connection was lost/);

    // While it stays stopped: the queue is paused with the reason and keeps trying (each try moves its next one on),
    // the health report says the database does not answer, and new requests answer 503 rather than 500.
    type Queue = { TotalCount: number; Fault: { Reason: string; RetryAt: string | null } | null };
    await server.waitFor(
      'the queue to pause',
      async () => (await server.json<Queue>('GET', '/api/v3/Queue', { key })).Fault != null,
      30_000,
    );
    const paused = await server.json<Queue>('GET', '/api/v3/Queue', { key });
    expect(paused.Fault!.Reason).toMatch(/database connection was lost/);
    expect(paused.TotalCount).toBeGreaterThan(0);
    await server.waitFor(
      'the queue to try again and fail',
      async () => (await server.json<Queue>('GET', '/api/v3/Queue', { key })).Fault?.RetryAt !== paused.Fault!.RetryAt,
      30_000,
    );
    const health = await server.fetch('GET', '/healthz');
    expect(health.status).toBe(503);
    const report = (await health.json()) as { Database: { Reachable: boolean }; Queue: { Fault: string | null }; Problems: string[] };
    expect(report.Database.Reachable).toBe(false);
    expect(report.Queue.Fault).toMatch(/database connection was lost/);
    expect(report.Problems.join(' ')).toMatch(/database does not answer/);
    for (const url of ['/api/v3/File?pageSize=10', '/api/v3/Dashboard/Stats']) {
      const res = await server.fetch('GET', url, { key });
      expect(res.status, `${url}: ${await res.clone().text()}`).toBe(503);
    }

    // Started again, with nobody asking: the queue resumes by itself and hashes every file; nothing was lost.
    await cluster.startAgain();
    await queueFinished(server, key);
    expect(server.output()).toMatch(/the queue pauses until this is over: The database connection was lost/);
    expect(server.output()).not.toMatch(/Uncaught exception|Unhandled rejection/);
    const after = (await (await server.fetch('GET', '/healthz')).json()) as {
      Database: { Reachable: boolean };
      Queue: { Fault: string | null };
    };
    expect(after).toMatchObject({ Database: { Reachable: true }, Queue: { Fault: null } });
    const { records, unhashed, hashings } = await hashedMedia(server, key, media);
    expect({ records, unhashed }).toEqual({ records: fileCount, unhashed: 0 });
    // Only a hash job whose write the stop ended (it met the fault) hashes its file again.
    const hashedAgain = [...hashings.values()].reduce((sum, times) => sum + times - 1, 0);
    expect(hashedAgain).toBeLessThanOrEqual(server.output().split('Hashing File met a fault of the database').length - 1);
  }, 240_000);
});
