import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { processDatabase } from '../test/server-process.js';
import { leadingWithin, openDatabase, sqliteFile, type Db } from './database.js';
import { readIntoCache } from './file-warm.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function freshDatabase(): Promise<Db> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-connections-'));
  const database = await processDatabase();
  cleanups.push(
    () => fs.rmSync(home, { recursive: true, force: true }),
    () => database.drop(),
  );
  const db = openDatabase({ home, databaseUrl: database.url, idleConnectionMs: 60_000 });
  cleanups.push(() => db.close());
  return db;
}

const nothingToRead = { tables: [], indexes: [] };

describe('warmUp', () => {
  it.runIf(!!process.env.SHOKO_TEST_DB)('opens the pool connections before the first requests need them, once', async () => {
    const db = await freshDatabase();
    const backends = async () =>
      Number(
        (
          await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database()`.execute(
            db.kysely,
          )
        ).rows[0].n,
      );
    // The count's own query opens the first connection.
    expect(await backends()).toBe(1);
    await db.warmUp({ connections: 5, ...nothingToRead });
    expect(await backends()).toBe(5);
    await db.warmUp({ connections: 5, ...nothingToRead });
    expect(await backends()).toBe(5);
  });

  it.runIf(!!process.env.SHOKO_TEST_DB)('has each opened connection read the indexes and tables to warm through once', async () => {
    const db = await freshDatabase();
    await sql`CREATE TABLE warm_probe (id integer, name text)`.execute(db.kysely);
    await sql`CREATE INDEX warm_probe_name ON warm_probe (name, id)`.execute(db.kysely);
    await sql`INSERT INTO warm_probe SELECT n, 'name ' || n FROM generate_series(1, 1000) n`.execute(db.kysely);
    await sql`ANALYZE warm_probe`.execute(db.kysely);
    // Each backend reports its scans when it goes idle (at most once a second).
    const scans = async () => {
      const { rows } = await sql<{ tables: number | string; indexes: number | string }>`
        SELECT t.seq_scan AS tables, i.idx_scan AS indexes FROM pg_stat_user_tables t
        JOIN pg_stat_user_indexes i ON i.relid = t.relid AND i.indexrelname = 'warm_probe_name'
        WHERE t.relname = 'warm_probe'`.execute(db.kysely);
      return { tables: Number(rows[0]?.tables ?? 0), indexes: Number(rows[0]?.indexes ?? 0) };
    };
    const before = await scans();
    await db.warmUp({
      connections: 5,
      tables: ['warm_probe'],
      indexes: [{ name: 'warm_probe_name', table: 'warm_probe', columns: ['name', 'id'] }],
    });
    const since = async () => {
      const now = await scans();
      return { tables: now.tables - before.tables, indexes: now.indexes - before.indexes };
    };
    for (let waited = 0; (await since()).indexes < 5 && waited < 10_000; waited += 200) await new Promise((r) => setTimeout(r, 200));
    // The table's count may also take in the scan that built the index, reported late by the connection that built it.
    expect((await since()).indexes).toBe(5);
    expect((await since()).tables).toBeGreaterThanOrEqual(5);
  });

  it.runIf(!!process.env.SHOKO_TEST_DB)('closes a connection whose reading failed instead of handing it on mid-transaction', async () => {
    const db = await freshDatabase();
    await db.warmUp({ connections: 3, tables: [], indexes: [{ name: 'no_such_index', table: 'no_such_table', columns: ['id'] }] });
    const states = await sql<{ state: string }>`
      SELECT state FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`.execute(db.kysely);
    expect(states.rows.filter((row) => row.state.includes('transaction'))).toEqual([]);
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(db.kysely)).rows[0].one).toBe(1);
  });

  it.runIf(!!process.env.SHOKO_TEST_DB)('leaves the extensions of the database as they were after reading it with pg_prewarm', async () => {
    const db = await freshDatabase();
    const installed = async () =>
      Number(
        (await sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM pg_extension WHERE extname = 'pg_prewarm'`.execute(db.kysely)).rows[0]!
          .n,
      );
    // Created for the reading and dropped again: a backup holds no extension the database did not have.
    await db.warmUp({ connections: 1, ...nothingToRead });
    expect(await installed()).toBe(0);
    // One the owner installed stays.
    await sql`CREATE EXTENSION pg_prewarm`.execute(db.kysely);
    await db.warmUp({ connections: 1, ...nothingToRead });
    expect(await installed()).toBe(1);
  });

  it.runIf(!!process.env.SHOKO_TEST_DB)('warms up as a role that may neither create extensions nor read the tables', async () => {
    const db = await freshDatabase();
    await sql`CREATE TABLE warm_private (id integer)`.execute(db.kysely);
    const role = `shoko_warm_${randomBytes(4).toString('hex')}`;
    await sql.raw(`CREATE ROLE ${role} LOGIN PASSWORD 'warm'`).execute(db.kysely);
    cleanups.push(async () => void (await sql.raw(`DROP ROLE IF EXISTS ${role}`).execute(db.kysely)));
    const url = new URL(db.url!);
    url.username = role;
    url.password = 'warm';
    const limited = openDatabase({ home: os.tmpdir(), databaseUrl: url.toString() });
    cleanups.push(() => limited.close());
    await limited.warmUp({ connections: 2, tables: ['warm_private'], indexes: [] });
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(limited.kysely)).rows[0]!.one).toBe(1);
  });

  it('reads the SQLite database file through on SQLite, where the one connection is open already', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-connections-'));
    const db = openDatabase({ home, databaseUrl: null });
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
    cleanups.push(() => db.close());
    await sql`CREATE TABLE warm_probe (id integer, name text)`.execute(db.kysely);
    const opened = vi.spyOn(fs.promises, 'open');
    await db.warmUp({ connections: 5, ...nothingToRead });
    expect(opened.mock.calls.map(([file]) => file)).toContain(sqliteFile(home));
    opened.mockRestore();
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(db.kysely)).rows[0].one).toBe(1);
  });
});

describe('readIntoCache', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-file-warm-'));
  cleanups.push(() => fs.rmSync(folder, { recursive: true, force: true }));
  const big = path.join(folder, 'big.db');
  const small = path.join(folder, 'big.db-wal');
  fs.writeFileSync(big, Buffer.alloc(3 * 1024 * 1024 + 17, 1));
  fs.writeFileSync(small, Buffer.alloc(4000, 2));

  it('reads every byte of every file, skipping the ones that do not exist', async () => {
    const read = await readIntoCache([big, path.join(folder, 'missing'), small], { limitBytes: 1e12, stopped: () => false });
    expect(read).toBe(3 * 1024 * 1024 + 17 + 4000);
  });

  it('stops at the byte limit and when told to', async () => {
    expect(await readIntoCache([big, small], { limitBytes: 1024 * 1024 + 5, stopped: () => false })).toBe(1024 * 1024 + 5);
    let chunks = 0;
    expect(await readIntoCache([big, small], { limitBytes: 1e12, stopped: () => ++chunks > 2 })).toBe(2 * 1024 * 1024);
  });
});

describe('leadingWithin', () => {
  it('takes items in order while their sizes fit in the room, and none after the first that does not', () => {
    expect(leadingWithin(['a', 'b', 'c'], [10, 20, 5], 30)).toEqual(['a', 'b']);
    expect(leadingWithin(['a', 'b', 'c'], [10, 30, 5], 30)).toEqual(['a']);
    expect(leadingWithin(['a', 'b'], [10, 20], 9)).toEqual([]);
    expect(leadingWithin(['a', 'b'], [10, 20], -1)).toEqual([]);
  });
});
