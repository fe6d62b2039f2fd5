import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pino from 'pino';
import { sql } from 'kysely';
import type { QueueState } from '@shoko-ts/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { EventBus } from '../events/bus.js';
import { NO_POSTGRES, startOwnCluster } from '../test/fault-helpers.js';
import { capSqlitePages, mountSmallDisk } from '../test/full-disk.js';
import type { JobDefinition } from './job.js';
import { JobsStore } from './jobs.store.js';
import { QueueService } from './queue.service.js';

/**
 * The queue under real faults of its database: SQLite refusing to grow (max_page_count: its own SQLITE_FULL), SQLite
 * on a tmpfs that fills up, PostgreSQL restarted under it. Each time the queue pauses with the reason, resumes by
 * itself once the fault is over, and every job ends exactly once: none lost, none run twice.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Each test opens the database it needs (SQLite, or a PostgreSQL cluster of its own): the PostgreSQL suite would repeat them. */
const repeated = !!process.env.SHOKO_TEST_DB;

/** Short back-off, so a test waits for the retries no longer than the fault lasts. */
const QUICK_RETRY = { firstMs: 20, maxMs: 200 };

async function openQueue(db: Db, options: { faultRetry?: { firstMs: number; maxMs: number } } = {}) {
  await migrateToLatest(db);
  await sql`CREATE TABLE probe_writes (job_key varchar(40) PRIMARY KEY, body text NOT NULL)`.execute(db.kysely);
  const bus = new EventBus();
  const states: QueueState[] = [];
  bus.on('queue:state', (state) => states.push(state));
  const queue = new QueueService(new JobsStore(db.kysely), bus, pino({ level: 'silent' }), {
    threadCount: 2,
    faultRetry: options.faultRetry ?? QUICK_RETRY,
  });
  cleanups.push(() => queue.stop());
  await queue.start();
  return { queue, states };
}

/** A job that writes `bytes` of text to the database; `completed` counts its runs that ended well, per key. */
function writingJob(db: Db, bytes: number, completed: Map<number, number>): JobDefinition<{ n: number }> {
  return {
    kind: 'FaultProbe',
    type: 'FaultProbe',
    title: 'Fault probe',
    group: 'Test',
    priority: 0,
    key: (payload) => String(payload.n),
    details: () => ({}),
    run: async ({ n }) => {
      await db.kysely
        .insertInto('probe_writes' as never)
        .values({ job_key: String(n), body: 'x'.repeat(bytes) } as never)
        .onConflict((conflict) => conflict.column('job_key' as never).doNothing())
        .execute();
      completed.set(n, (completed.get(n) ?? 0) + 1);
    },
  };
}

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function jobRows(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every job ended exactly once, its write is in the database, and no row of the queue is left. */
async function expectEachDoneOnce(db: Db, completed: Map<number, number>, count: number): Promise<void> {
  expect([...completed.entries()].filter(([, runs]) => runs !== 1)).toEqual([]);
  expect([...completed.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, n) => n));
  const written = await db.kysely
    .selectFrom('probe_writes' as never)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  expect(Number((written as { n: number }).n)).toBe(count);
  expect(await jobRows(db)).toBe(0);
}

function sqliteDb(home: string): Db {
  const db = openDatabase({ home, databaseUrl: null });
  cleanups.push(() => db.close());
  return db;
}

/** A store whose next claims or removals fail as on a full disk: for the moments a real fault rarely hits exactly. */
class FailingStore extends JobsStore {
  failClaims = 0;
  failRemoves = 0;
  override async claimNext(excludedKinds: string[]) {
    if (this.failClaims > 0 && this.failClaims--) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return super.claimNext(excludedKinds);
  }
  override async remove(id: number) {
    if (this.failRemoves > 0 && this.failRemoves--) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    return super.remove(id);
  }
}

describe.skipIf(repeated)('job queue faults at each step', () => {
  it('does not run a job again whose end could not be recorded, nor lose one whose claim failed', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-queue-steps-'));
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
    const db = sqliteDb(home);
    await migrateToLatest(db);
    await sql`CREATE TABLE probe_writes (job_key varchar(40) PRIMARY KEY, body text NOT NULL)`.execute(db.kysely);
    const store = new FailingStore(db.kysely);
    const queue = new QueueService(store, new EventBus(), pino({ level: 'silent' }), { threadCount: 1, faultRetry: QUICK_RETRY });
    cleanups.push(() => queue.stop());
    await queue.start();
    const completed = new Map<number, number>();
    const job = writingJob(db, 10, completed);

    // The first job's end fails to be recorded three times, then a claim fails twice.
    store.failRemoves = 3;
    await queue.enqueue(job, { n: 0 });
    await waitFor('the queue to pause', () => queue.state().Fault != null);
    store.failClaims = 2;
    await queue.enqueueMany(
      job,
      Array.from({ length: 5 }, (_, n) => ({ n: n + 1 })),
    );
    await queue.idle();
    expect(store.failRemoves + store.failClaims).toBe(0);
    expect(queue.state().Fault).toBeNull();
    await expectEachDoneOnce(db, completed, 6);
  });

  it('does not count against a job its run meeting a lost PostgreSQL connection, even once the database answers again', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-queue-lost-'));
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
    const db = sqliteDb(home);
    const { queue, states } = await openQueue(db);
    const completed = new Map<number, number>();
    const job = writingJob(db, 10, completed);
    // Each run but the last meets what pg throws when PostgreSQL restarts under a query; the database answers again by
    // the time the run has ended (as after a quick restart). More failures than a job's attempts: none may count.
    let lost = 4;
    const run = job.run;
    job.run = async (payload, context) => {
      if (lost-- > 0) throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      await run(payload, context);
    };
    await queue.enqueue(job, { n: 0 });
    await waitFor('the job to be done', () => completed.size === 1);
    await queue.idle();
    expect(states.some((state) => state.Fault?.Reason.match(/database connection was lost/))).toBe(true);
    expect(queue.state().Fault).toBeNull();
    await expectEachDoneOnce(db, completed, 1);
  });
});

describe.skipIf(repeated)('job queue faults on SQLite', () => {
  it('pauses on SQLITE_FULL (max_page_count), keeps every job, and resumes by itself once the database may grow', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-queue-full-'));
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
    const db = sqliteDb(home);
    const { queue, states } = await openQueue(db);
    const completed = new Map<number, number>();
    const job = writingJob(db, 6000, completed);

    // Room for a few of the 40 writes: the rest meet SQLITE_FULL while the queue works.
    const cap = capSqlitePages(db.sqlite!.connection, 6);
    await queue.enqueueMany(
      job,
      Array.from({ length: 40 }, (_, n) => ({ n })),
    );
    await waitFor('the queue to pause for the full disk', () => queue.state().Fault != null);
    expect(queue.state().Fault?.Reason).toMatch(/data disk is full/);
    // Announced as well (the hubs send it to the console).
    await waitFor('the fault to be announced', () => states.some((state) => state.Fault?.Reason.includes('data disk is full')));
    expect(completed.size).toBeLessThan(40);
    // Nothing lost while it waits: every job not done is still queued.
    expect(await jobRows(db)).toBe(40 - completed.size);

    cap.uncap();
    await queue.idle();
    expect(queue.state().Fault).toBeNull();
    await expectEachDoneOnce(db, completed, 40);
    expect(db.sqlite!.connection.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('pauses while another connection holds the write lock (SQLITE_BUSY), and resumes once it lets go', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-queue-busy-'));
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
    const db = sqliteDb(home);
    // The lock timeout, short here: each write waits this long for the lock before SQLite answers SQLITE_BUSY.
    db.sqlite!.connection.pragma('busy_timeout = 100');
    const { queue } = await openQueue(db);
    const completed = new Map<number, number>();
    const write = writingJob(db, 100, completed);
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const job: JobDefinition<{ n: number }> = {
      ...write,
      run: async (payload, jobContext) => {
        if (payload.n >= 3) await lockTaken;
        await write.run(payload, jobContext);
      },
    };
    await queue.enqueueMany(
      job,
      Array.from({ length: 20 }, (_, n) => ({ n })),
    );
    await waitFor('the first jobs to end', () => completed.size >= 3);

    const other = new SQLite(db.sqlite!.file);
    cleanups.push(() => void (other.open && other.close()));
    other.exec('BEGIN IMMEDIATE');
    locked();
    await waitFor('the queue to pause for the lock', () => queue.state().Fault != null);
    expect(queue.state().Fault?.Reason).toMatch(/database is busy/);

    other.exec('COMMIT');
    other.close();
    await queue.idle();
    expect(queue.state().Fault).toBeNull();
    await expectEachDoneOnce(db, completed, 20);
  });

  it('is woken by a new job once the disk has room, without waiting out its back-off', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-queue-wake-'));
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
    const db = sqliteDb(home);
    // A back-off far longer than the test may take: only the new job can have resumed the queue.
    const { queue } = await openQueue(db, { faultRetry: { firstMs: 120_000, maxMs: 120_000 } });
    const completed = new Map<number, number>();
    const job = writingJob(db, 6000, completed);
    const cap = capSqlitePages(db.sqlite!.connection, 2);
    await queue.enqueueMany(
      job,
      Array.from({ length: 10 }, (_, n) => ({ n })),
    );
    await waitFor('the queue to pause for the full disk', () => queue.state().Fault != null);

    cap.uncap();
    await queue.enqueue(job, { n: 10 });
    await queue.idle();
    expect(queue.state().Fault).toBeNull();
    await expectEachDoneOnce(db, completed, 11);
  });

  it('pauses when its tmpfs fills up while it works, and resumes by itself once space is freed', async (context) => {
    const disk = mountSmallDisk(8);
    if ('unavailable' in disk) return context.skip(disk.unavailable);
    cleanups.push(() => disk.unmount());
    const db = sqliteDb(disk.dir);
    const { queue } = await openQueue(db);
    // The migrations' write-ahead log, kept at its size, would hold the jobs' writes without asking the disk for more.
    db.sqlite!.connection.pragma('wal_checkpoint(TRUNCATE)');
    const completed = new Map<number, number>();
    const write = writingJob(db, 20_000, completed);
    // The jobs after the first five wait for the disk to be full: it fills while the queue works, not after.
    let filled!: () => void;
    const diskFull = new Promise<void>((resolve) => (filled = resolve));
    const job: JobDefinition<{ n: number }> = {
      ...write,
      run: async (payload, jobContext) => {
        if (payload.n >= 5) await diskFull;
        await write.run(payload, jobContext);
      },
    };

    await queue.enqueueMany(
      job,
      Array.from({ length: 150 }, (_, n) => ({ n })),
    );
    await waitFor('the first jobs to end', () => completed.size >= 5);
    disk.fill();
    filled();
    await waitFor('the queue to pause for the full disk', () => queue.state().Fault != null);
    expect(queue.state().Fault?.Reason).toMatch(/data disk is full/);

    disk.free();
    await queue.idle();
    expect(queue.state().Fault).toBeNull();
    await expectEachDoneOnce(db, completed, 150);
    expect(db.sqlite!.connection.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

describe.skipIf(repeated)('job queue faults on PostgreSQL', () => {
  it('survives a restart of PostgreSQL while busy: pauses, resumes by itself, every job done exactly once', async (context) => {
    const cluster = await startOwnCluster();
    if (!cluster) return context.skip(NO_POSTGRES);
    cleanups.push(() => cluster.stop());
    const db = openDatabase({ home: os.tmpdir(), databaseUrl: cluster.url });
    cleanups.push(() => db.close());
    const { queue, states } = await openQueue(db);
    const completed = new Map<number, number>();
    const write = writingJob(db, 200, completed);
    // Each run holds a query open for a moment, so the restart ends connections in the middle of work.
    const job: JobDefinition<{ n: number }> = {
      ...write,
      run: async (payload, jobContext) => {
        await sql`select pg_sleep(0.02)`.execute(db.kysely);
        await write.run(payload, jobContext);
      },
    };

    await queue.enqueueMany(
      job,
      Array.from({ length: 120 }, (_, n) => ({ n })),
    );
    await waitFor('the first jobs to end', () => completed.size >= 10);
    await cluster.restart();
    await queue.idle();

    expect(states.some((state) => state.Fault?.Reason.includes('database connection was lost'))).toBe(true);
    expect(queue.state().Fault).toBeNull();
    await expectEachDoneOnce(db, completed, 120);
  });
});
