import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Database } from '../db/schema.js';
import { EventBus } from '../events/bus.js';
import { processDatabase } from '../test/server-process.js';
import { PermanentJobError, type JobDefinition } from './job.js';
import { JobsStore } from './jobs.store.js';
import { QueueService } from './queue.service.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A queue over a fresh, migrated database (SQLite, or PostgreSQL under SHOKO_TEST_DB), removed after the file. */
async function startQueue(store: (db: Kysely<Database>) => JobsStore, threadCount: number): Promise<QueueService> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-queue-holds-'));
  const database = await processDatabase();
  const db = openDatabase({ home, databaseUrl: database.url });
  cleanups.push(
    () => fs.rmSync(home, { recursive: true, force: true }),
    () => database.drop(),
    () => db.close(),
  );
  await migrateToLatest(db);
  const queue = new QueueService(store(db.kysely), new EventBus(), pino({ level: 'silent' }), { threadCount });
  cleanups.push(() => queue.stop());
  return queue;
}

/** A job of `kind` keyed by its number. */
const testJob = (kind: string, run: (payload: { n: number }) => Promise<void>): JobDefinition<{ n: number }> => ({
  kind,
  type: kind,
  title: kind,
  group: 'Test',
  priority: 0,
  key: (p) => String(p.n),
  details: () => ({}),
  run,
});

/**
 * Holds against a real database (SQLite, or PostgreSQL under SHOKO_TEST_DB): a job of a held kind waits, counted as
 * blocked, and a job that fails because a hold began while it ran waits for the hold to end without losing attempts.
 */
describe('job queue holds', () => {
  it('keeps held jobs waiting, retries a job the hold interrupted as often as it takes, and runs them when it ends', async () => {
    const queue = await startQueue((db) => new JobsStore(db), 2);
    let banned: string | null = null;
    queue.addHold({ name: 'TestBan', kinds: ['NeedsAniDB'], reason: () => banned });

    const ran: string[] = [];
    let banHits = 0;
    const job = (kind: string) =>
      testJob(kind, async ({ n }) => {
        // Each run meets a ban that begins while it runs, three times: more than the queue's attempts.
        if (kind === 'NeedsAniDB' && n === 1 && banHits < 3) {
          banHits += 1;
          banned = 'AniDB UDP ban';
          queue.recheckHolds();
          throw new PermanentJobError('banned');
        }
        ran.push(`${kind}:${n}`);
      });
    await queue.start();
    const lift = async () => {
      banned = null;
      queue.recheckHolds();
      await queue.idle();
    };

    await queue.enqueue(job('NeedsAniDB'), { n: 1 });
    await queue.idle();
    expect(banHits).toBe(1);
    await queue.enqueue(job('NeedsAniDB'), { n: 2 });
    await queue.enqueue(job('Other'), { n: 3 });
    await queue.idle();
    expect(ran).toEqual(['Other:3']);
    expect(queue.state()).toMatchObject({ WaitingCount: 0, BlockedCount: 2, TotalCount: 2 });
    expect(queue.activeHolds()).toEqual({ TestBan: ['NeedsAniDB'] });
    const all = await queue.items(1, 10, true);
    expect(all.List.map((item) => [item.Key, item.IsBlocked])).toEqual([
      ['Test.NeedsAniDB.1', true],
      ['Test.NeedsAniDB.2', true],
    ]);
    expect(await queue.items(1, 10, false)).toEqual({ Total: 0, List: [] });

    await lift();
    expect(banHits).toBe(2);
    await lift();
    await lift();
    expect(banHits).toBe(3);
    expect(ran.sort()).toEqual(['NeedsAniDB:1', 'NeedsAniDB:2', 'Other:3']);
    expect(queue.state()).toMatchObject({ WaitingCount: 0, BlockedCount: 0, TotalCount: 0 });
    expect(queue.activeHolds()).toEqual({});
  });

  it('is not idle while the queue is still taking jobs: a hold that ends then is seen', async () => {
    // A slow database: every claim takes a while, so the queue is still looking for work when a job has ended.
    class SlowClaims extends JobsStore {
      override async claimNext(excludedKinds: string[]) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return super.claimNext(excludedKinds);
      }
    }
    const queue = await startQueue((db) => new SlowClaims(db), 1);
    let banned: string | null = 'AniDB UDP ban';
    queue.addHold({ name: 'TestBan', kinds: ['NeedsAniDB'], reason: () => banned });
    const ran: string[] = [];
    const job = (kind: string) =>
      testJob(kind, async ({ n }) => {
        ran.push(`${kind}:${n}`);
      });
    await queue.start();
    await queue.enqueue(job('NeedsAniDB'), { n: 1 });
    await queue.enqueue(job('Other'), { n: 2 });
    // The queue runs Other:2, then looks for the next job (slowly) while NeedsAniDB:1 is held.
    await queue.idle();
    expect(ran).toEqual(['Other:2']);
    banned = null;
    queue.recheckHolds();
    await queue.idle();
    expect(ran).toEqual(['Other:2', 'NeedsAniDB:1']);
    expect(queue.state()).toMatchObject({ WaitingCount: 0, BlockedCount: 0, TotalCount: 0 });
  });
});

/** The claim skips excluded kinds (held or at their cap) without changing the queue order of the others. */
describe('claiming the next job past excluded kinds', () => {
  it('takes the other kinds in priority and queue order while hundreds of an excluded kind wait, then that kind', async () => {
    let store!: JobsStore;
    await startQueue((db) => (store = new JobsStore(db)), 1);
    const job = (kind: string, n: number, priority: number) => ({ key: `Test.${kind}.${n}`, kind, payload: { n }, priority });
    await store.insertMany([job('Zulu', 1, 30), job('Capped', 0, 20)]);
    await store.insertMany(Array.from({ length: 300 }, (_, i) => job('Capped', i + 1, 20)));
    await store.insertMany([job('Alpha', 2, 30), job('Alpha', 3, 40), job('Zulu', 4, 20), job('Beta', 5, 10)]);

    const claimed: string[] = [];
    for (let row = await store.claimNext(['Capped']); row; row = await store.claimNext(['Capped'])) claimed.push(row.job_key);
    // Priority first, then the order they were queued in, whatever the kind's name.
    expect(claimed).toEqual(['Test.Beta.5', 'Test.Zulu.4', 'Test.Zulu.1', 'Test.Alpha.2', 'Test.Alpha.3']);
    expect(await store.countWaiting()).toBe(301);
    expect((await store.claimNext(['Other']))?.job_key).toBe('Test.Capped.0');
    expect((await store.claimNext([]))?.job_key).toBe('Test.Capped.1');
  });
});

/**
 * A job asked for while the same job (same key) runs: for a kind whose run reads what the requests are about, it runs
 * once more afterwards and `idle` waits for that run; a job asking for itself runs once; other kinds drop the request.
 */
describe('a job asked for while it runs', () => {
  it('runs again after the running one ends when its kind wants it, once however often it was asked, not when it asked for itself', async () => {
    const queue = await startQueue((db) => new JobsStore(db), 2);
    const runs: number[] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const job = {
      ...testJob('Import', async (p) => {
        runs.push(p.n);
        if (runs.length === 1) {
          started();
          await first;
        }
      }),
      rerunWhenAskedWhileRunning: true,
    };
    await queue.start();
    expect(await queue.enqueue(job, { n: 7 })).toBe(true);
    await running;
    // Twice while it runs: one more run, not two.
    expect(await queue.enqueue(job, { n: 7 })).toBe(false);
    expect(await queue.enqueueMany(job, [{ n: 7 }])).toBe(0);
    release();
    await queue.idle();
    expect(runs).toEqual([7, 7]);

    const own: JobDefinition<{ n: number }> = {
      ...testJob('SelfQueuing', async (p) => {
        runs.push(p.n);
        await queue.enqueue(own, p);
      }),
      rerunWhenAskedWhileRunning: true,
    };
    await queue.enqueue(own, { n: 8 });
    await queue.idle();
    expect(runs).toEqual([7, 7, 8]);

    // Other kinds: the request is dropped, as when it is waiting.
    let go!: () => void;
    const gate = new Promise<void>((resolve) => (go = resolve));
    const plain = testJob('Plain', async (p) => {
      runs.push(p.n);
      await gate;
    });
    await queue.enqueue(plain, { n: 9 });
    while (!runs.includes(9)) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await queue.enqueue(plain, { n: 9 })).toBe(false);
    go();
    await queue.idle();
    expect(runs).toEqual([7, 7, 8, 9]);
  });
});
