import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { EventBus } from '../events/bus.js';
import { processDatabase } from '../test/server-process.js';
import type { JobDefinition } from './job.js';
import { JobsStore, type JobRow } from './jobs.store.js';
import { QueueService, type QueueOptions } from './queue.service.js';

/**
 * Shutdown against a real database (SQLite, or PostgreSQL under SHOKO_TEST_DB): once `stop` resolves the database is
 * closed at once, as the server does, and nothing may touch it afterwards; every job ends up finished or waiting.
 */

const logger = pino({ level: 'silent' });

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A store whose claims can be held after they succeed, to stop the queue while a claim is in flight. */
class HeldClaimsStore extends JobsStore {
  hold = false;
  readonly claimed = deferred();
  readonly letGo = deferred();

  override async claimNext(excludedKinds: string[]): Promise<JobRow | null> {
    const row = await super.claimNext(excludedKinds);
    if (row && this.hold) {
      this.claimed.resolve();
      await this.letGo.promise;
    }
    return row;
  }
}

function testJob(name: string, run: JobDefinition<{ n: number }>['run']): JobDefinition<{ n: number }> {
  return { kind: name, type: name, title: name, group: 'Test', priority: 0, key: (p) => String(p.n), details: () => ({}), run };
}

const cleanups: Array<() => Promise<void> | void> = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(async () => {
  process.off('unhandledRejection', onUnhandled);
  while (cleanups.length) await cleanups.pop()!();
});

async function freshDatabase(): Promise<{ reopen(): Db; db: Db }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-queue-stop-'));
  const database = await processDatabase();
  cleanups.push(
    () => fs.rmSync(home, { recursive: true, force: true }),
    () => database.drop(),
  );
  const reopen = () => openDatabase({ home, databaseUrl: database.url });
  const db = reopen();
  await migrateToLatest(db);
  return { reopen, db };
}

function queueOver(store: JobsStore, options: QueueOptions = {}): QueueService {
  return new QueueService(store, new EventBus(), logger, { threadCount: 1, ...options });
}

/** The jobs table as a fresh connection sees it (the queue's own database is closed by then). */
async function jobRows(reopen: () => Db): Promise<Array<{ key: string; running: number; attempts: number }>> {
  const db = reopen();
  try {
    const rows = await db.kysely.selectFrom('jobs').selectAll().orderBy('id').execute();
    return rows.map((row) => ({ key: row.job_key, running: Number(row.is_running), attempts: Number(row.attempts) }));
  } finally {
    await db.close();
  }
}

/** Lets any stray continuation (a late release, a rejected promise) run before checking that none happened. */
const settleStrays = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('job queue shutdown', () => {
  it('starts no job whose claim was in flight when stop began, and puts it back untouched', async () => {
    const { reopen, db } = await freshDatabase();
    const store = new HeldClaimsStore(db.kysely);
    const queue = queueOver(store);
    await queue.start();
    const databaseClosed = deferred();
    let started = false;
    const job = testJob('ClaimedDuringStop', async () => {
      started = true;
      await databaseClosed.promise;
      throw new Error('the connection went away');
    });
    store.hold = true;
    await queue.enqueue(job, { n: 1 });
    await store.claimed.promise;

    const stopped = queue.stop();
    store.letGo.resolve();
    await stopped;
    await db.close();
    databaseClosed.resolve();
    await settleStrays();

    expect(started).toBe(false);
    expect(unhandled).toEqual([]);
    expect(await jobRows(reopen)).toEqual([{ key: 'Test.ClaimedDuringStop.1', running: 0, attempts: 0 }]);
  });

  it('records a job that fails while stop is in progress before stop resolves: it waits again, no attempt lost', async () => {
    const { reopen, db } = await freshDatabase();
    const queue = queueOver(new JobsStore(db.kysely));
    await queue.start();
    const running = deferred();
    const job = testJob('FailsDuringStop', async (_payload, { signal }) => {
      running.resolve();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('the connection went away');
    });
    await queue.enqueue(job, { n: 1 });
    await running.promise;

    await queue.stop();
    await db.close();
    await settleStrays();

    expect(unhandled).toEqual([]);
    expect(await jobRows(reopen)).toEqual([{ key: 'Test.FailsDuringStop.1', running: 0, attempts: 0 }]);
  });

  it('removes a job that finishes during stop and leaves the waiting ones waiting', async () => {
    const { reopen, db } = await freshDatabase();
    const queue = queueOver(new JobsStore(db.kysely));
    await queue.start();
    const running = deferred();
    const job = testJob('FinishesDuringStop', async (_payload, { signal }) => {
      running.resolve();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    });
    await queue.enqueue(job, { n: 1 });
    await queue.enqueue(job, { n: 2 });
    await running.promise;

    await queue.stop();
    await db.close();
    await settleStrays();

    expect(unhandled).toEqual([]);
    expect(await jobRows(reopen)).toEqual([{ key: 'Test.FinishesDuringStop.2', running: 0, attempts: 0 }]);
  });

  it('abandons a job that ignores the abort past the grace without touching the store, and the next start runs it', async () => {
    const { reopen, db } = await freshDatabase();
    const queue = queueOver(new JobsStore(db.kysely), { stopGraceMs: 20 });
    await queue.start();
    const running = deferred();
    const finish = deferred();
    const ended = deferred();
    const stubborn = testJob('IgnoresAbort', async () => {
      running.resolve();
      try {
        await finish.promise;
        throw new Error('failed after the database closed');
      } finally {
        ended.resolve();
      }
    });
    await queue.enqueue(stubborn, { n: 1 });
    await running.promise;

    await queue.stop();
    await db.close();
    finish.resolve();
    await ended.promise;
    await settleStrays();

    expect(unhandled).toEqual([]);
    await expect(queue.enqueue(stubborn, { n: 2 })).rejects.toThrow('stopped');
    // Left as a crash leaves it: the next start takes it up again.
    expect(await jobRows(reopen)).toEqual([{ key: 'Test.IgnoresAbort.1', running: 1, attempts: 0 }]);

    const again = reopen();
    cleanups.push(() => again.close());
    const next = queueOver(new JobsStore(again.kysely));
    let ranAgain = false;
    next.register(testJob('IgnoresAbort', async () => void (ranAgain = true)));
    await next.start();
    await next.idle();
    await next.stop();
    expect(ranAgain).toBe(true);
    expect(await jobRows(reopen)).toEqual([]);
  });
});
