import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../test/harness.js';
import { tableChecksums } from '../test/table-checksums.js';
import type { MigrationModule } from './migrate.js';
import { STARTER_CUSTOM_TAGS } from './collection-defaults.js';

/**
 * Safe upgrades, on SQLite or (with SHOKO_TEST_DB) PostgreSQL: a migration that fails is rolled back as a whole, the
 * migrations before it stay, the database keeps serving, and Init/Status reports Failed with the reason.
 */

/** The server running now; earlier ones on the same data were closed with keepData. */
let live: TestServer | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

const good: Record<string, MigrationModule> = {
  '9998_test_good': {
    up: async (db) => {
      await db.schema.createTable('test_good').addColumn('note', 'text').execute();
    },
  },
};
const broken: Record<string, MigrationModule> = {
  '9999_test_broken': {
    up: async (db) => {
      // Changes schema and data before it fails: all of it must be undone.
      await db.schema.createTable('test_broken').addColumn('note', 'text').execute();
      await sql`insert into custom_tags (name, description) values ('written-by-broken-migration', '')`.execute(db);
      await sql`update users set username = 'renamed-by-broken-migration'`.execute(db);
      await sql`select * from table_that_does_not_exist`.execute(db);
    },
  },
};

describe('a migration that fails', () => {
  it('rolls back, leaves the previous database serving and reports Failed with the reason in Init/Status', async () => {
    const first = await createTestServer();
    live = first;
    const key = await completeFirstRun(first);
    const tag = await first.request({ method: 'POST', url: '/api/v3/Tag/User', key, body: { Name: 'precious', Description: 'kept' } });
    expect(tag.statusCode, tag.body).toBe(200);
    const before = await tableChecksums(first.services.db);
    await first.close({ keepData: true });
    live = null;

    const upgraded = await createTestServer({ restartOf: first, services: { extraMigrations: { ...good, ...broken } } });
    live = upgraded;

    // The server answers, in the contract's Failed state, naming the migration and the database's error.
    const status = await upgraded.request({ method: 'GET', url: '/api/v3/Init/Status' });
    expect(status.statusCode).toBe(200);
    expect(status.json().State).toBe('Failed');
    expect(status.json().StartupMessage).toMatch(
      /^Startup Failed: database migration failed: migration 9999_test_broken failed: .*table_that_does_not_exist/,
    );

    // The migration before it is applied (its own transaction); the broken one left nothing behind.
    const after = await tableChecksums(upgraded.services.db);
    expect(Object.keys(after)).toContain('test_good');
    expect(Object.keys(after)).not.toContain('test_broken');
    const { test_good: _good, kysely_migration: migrationsAfter, ...tablesAfter } = after;
    const { kysely_migration: migrationsBefore, ...tablesBefore } = before;
    expect(tablesAfter).toEqual(tablesBefore);
    expect(migrationsAfter.rows).toBe(migrationsBefore.rows + 1);
    const recorded = await sql<{ name: string }>`select name from kysely_migration`.execute(upgraded.services.db.kysely);
    expect(recorded.rows.map((r) => r.name)).toContain('9998_test_good');
    expect(recorded.rows.map((r) => r.name)).not.toContain('9999_test_broken');

    // The admin's key still works and reaches the backups (made before the migrations ran) while the server is Failed.
    const adminKey = key;
    const backups = await upgraded.request({ method: 'GET', url: '/api/v3/Backup', key: adminKey });
    expect(backups.statusCode).toBe(200);
    expect(backups.json().map((b: { Kind: string }) => b.Kind)).toEqual(['BeforeMigration']);
    // Starting again does not pretend: the same failure.
    await upgraded.request({ method: 'GET', url: '/api/v3/Init/StartServer', key: adminKey });
    await upgraded.services.init.waitForStartup();
    expect(upgraded.services.state.current).toBe('Failed');
    await upgraded.close({ keepData: true });
    live = null;

    // The version without the broken migration starts on the same database, with the data unchanged.
    const fixed = await createTestServer({ restartOf: first, services: { extraMigrations: good } });
    live = fixed;
    await fixed.request({ method: 'GET', url: '/api/v3/Init/StartServer', key: adminKey });
    await fixed.services.init.waitForStartup();
    expect(fixed.services.state.current).toBe('Started');
    const tags = await fixed.request({ method: 'GET', url: '/api/v3/Tag/User?pageSize=0', key: adminKey });
    // Beside the starter tags every new collection has.
    const starter = STARTER_CUSTOM_TAGS.map((t) => t.name);
    expect(
      tags
        .json()
        .List.map((t: { Name: string }) => t.Name)
        .filter((name: string) => !starter.includes(name)),
    ).toEqual(['precious']);
  }, 120_000);
});

describe('migrations that ran', () => {
  it.skipIf(!process.env.SHOKO_TEST_DB)('leave PostgreSQL with statistics of the tables they filled', async () => {
    const first = await createTestServer();
    await first.close({ keepData: true });
    const filled: Record<string, MigrationModule> = {
      '9997_test_filled': {
        up: async (db) => {
          await db.schema.createTable('test_filled').addColumn('n', 'integer').execute();
          await sql`insert into test_filled (n) select g from generate_series(1, 2000) g`.execute(db);
        },
      },
    };
    const upgraded = await createTestServer({ restartOf: first, services: { extraMigrations: filled } });
    live = upgraded;
    // Autovacuum would come a minute or more later: only the ANALYZE after the migrations gives the planner these.
    const stats = await sql<{ reltuples: number; columns: unknown }>`
      select c.reltuples as reltuples, (select count(*) from pg_stats s where s.tablename = 'test_filled') as columns
      from pg_class c where c.relname = 'test_filled'`.execute(upgraded.services.db.kysely);
    expect(Number(stats.rows[0].reltuples)).toBe(2000);
    expect(Number(stats.rows[0].columns)).toBe(1);
  });
});
