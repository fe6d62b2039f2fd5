import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { processDatabase } from '../test/server-process.js';
import { openDatabase, type Db } from './database.js';

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

describe('openConnections', () => {
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
    await db.openConnections(5);
    expect(await backends()).toBe(5);
    await db.openConnections(5);
    expect(await backends()).toBe(5);
  });

  it.runIf(!!process.env.SHOKO_TEST_DB)('has each opened connection read the tables to warm through once', async () => {
    const db = await freshDatabase();
    await sql`CREATE TABLE warm_probe (id integer, name text)`.execute(db.kysely);
    await sql`INSERT INTO warm_probe SELECT n, 'name ' || n FROM generate_series(1, 1000) n`.execute(db.kysely);
    await db.openConnections(5, ['warm_probe']);
    // Each backend reports its scans when it goes idle (at most once a second).
    const scans = async () =>
      Number(
        (await sql<{ n: number | string }>`SELECT seq_scan AS n FROM pg_stat_user_tables WHERE relname = 'warm_probe'`.execute(db.kysely))
          .rows[0]?.n ?? 0,
      );
    for (let waited = 0; (await scans()) < 5 && waited < 10_000; waited += 200) await new Promise((r) => setTimeout(r, 200));
    expect(await scans()).toBe(5);
  });

  it('has nothing to open on SQLite, where the one connection is open already', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-connections-'));
    const db = openDatabase({ home, databaseUrl: null });
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
    cleanups.push(() => db.close());
    await db.openConnections(5);
    expect((await sql<{ one: number }>`SELECT 1 AS one`.execute(db.kysely)).rows[0].one).toBe(1);
  });
});
