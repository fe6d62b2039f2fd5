import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, sqliteFile } from '../../db/database.js';
import type { MigrationModule } from '../../db/migrate.js';
import { startDemoCollection, type DemoCollection } from '../../test/demo-collection.js';
import { completeFirstRun, createTestServer, login, type TestServer } from '../../test/harness.js';
import { freePort, processDatabase, ServerProcess } from '../../test/server-process.js';
import { summarize, tableChecksums, tableRows } from '../../test/table-checksums.js';
import { findPgTool } from './postgres-tools.js';
import { restoreBackup } from './restore.js';
import { STARTER_CUSTOM_TAGS } from '../../db/collection-defaults.js';
import { connectPg } from '../../test/pg-admin.js';
import { until } from '../../test/process-state.js';

/**
 * Restoring backups, on SQLite or (with SHOKO_TEST_DB) PostgreSQL: a backup made under write load restores to the
 * collection as it was at one moment; `npm run restore` and a restore the console scheduled keep the current
 * database aside; a backup from an older schema is migrated by the next start.
 */

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const quiet = pino({ level: 'silent' });
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function temporaryHome(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-restore-'));
  cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
  return home;
}

/** A database to restore into: a new PostgreSQL database on the test cluster, or SQLite in a new home. */
async function freshTarget() {
  const home = temporaryHome();
  const database = await processDatabase();
  cleanups.push(() => database.drop());
  return { home, databaseUrl: database.url };
}

/** The custom tags a test added: every new collection also starts with the starter ones. */
const addedTags = (names: string[]) => names.filter((name) => !STARTER_CUSTOM_TAGS.some((t) => t.name === name)).sort();

async function userTags(server: TestServer, key: string): Promise<string[]> {
  const res = await server.request({ method: 'GET', url: '/api/v3/Tag/User?pageSize=0', key });
  expect(res.statusCode, res.body).toBe(200);
  return addedTags((res.json().List as Array<{ Name: string }>).map((t) => t.Name));
}

async function addUserTag(server: TestServer, key: string, name: string): Promise<void> {
  const res = await server.request({
    method: 'POST',
    url: '/api/v3/Tag/User',
    key,
    body: { Name: name, Description: `${name} `.repeat(20) },
  });
  expect(res.statusCode, res.body).toBe(200);
}

const pgWithoutTools = !!process.env.SHOKO_TEST_DB && !(findPgTool('pg_dump') && findPgTool('pg_restore') && findPgTool('psql'));

describe.skipIf(pgWithoutTools)('restore', () => {
  it('restores a backup made under write load to the collection as it was at one moment', async () => {
    const demo: DemoCollection = await startDemoCollection();
    cleanups.push(() => demo.close());
    const { server } = demo;
    const key = await login(server, 'Default', 'first-run-pass', 'load');
    // Only the two writers below may change the database while the backup is made: the demo's AniDB pictures, paced
    // seconds apart, would otherwise still be arriving (a queue row and an image record changing between the backup
    // and the live read).
    await server.services.queue.pause();
    await until(() => server.services.queue.state().CurrentlyExecuting.length === 0, 'the running jobs to end');
    // The jobs' ends also bring the maintained figures up to date in the background, a second later.
    await server.services.figuresUpkeep.settled();
    // Enough rows that the copy takes a while: tags with long descriptions, written through the store's database.
    for (let batch = 0; batch < 20; batch++) {
      await server.services.db.kysely
        .insertInto('custom_tags')
        .values(Array.from({ length: 500 }, (_, i) => ({ name: `seed-${batch}-${i}`, description: 'x'.repeat(1000) })))
        .execute();
    }
    const before = await tableChecksums(server.services.db);

    // Two writers until told to stop: user tags through the API, and rows through the database connection.
    let stop = false;
    let writes = 0;
    const apiWriter = (async () => {
      for (let i = 0; !stop; i++, writes++) await addUserTag(server, key, `load-api-${i}`);
    })();
    const storeWriter = (async () => {
      for (let i = 0; !stop; i++, writes++) {
        await server.services.db.kysely
          .insertInto('custom_tags')
          .values({ name: `load-store-${i}`, description: 'y'.repeat(500) })
          .execute();
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    while (writes < 20) await new Promise((resolve) => setTimeout(resolve, 10));
    const writesBefore = writes;
    const made = await server.request({ method: 'POST', url: '/api/v3/Backup', key });
    const writesAfter = writes;
    stop = true;
    await Promise.all([apiWriter, storeWriter]);
    expect(made.statusCode, made.body).toBe(200);
    // The writers did run while the backup was made.
    expect(writesAfter).toBeGreaterThan(writesBefore);

    const live = await tableChecksums(server.services.db);
    const liveTags = await tableRows(server.services.db, 'custom_tags');
    expect(live.custom_tags.rows).toBeGreaterThan(before.custom_tags.rows);

    const target = await freshTarget();
    await restoreBackup(target, path.join(server.home, 'backups', made.json().Name), quiet);
    const restoredDb = openDatabase(target);
    cleanups.push(() => restoredDb.close());
    const restored = await tableChecksums(restoredDb);

    // Every table but the one the writers filled is identical, row for row.
    expect(Object.keys(restored).sort()).toEqual(Object.keys(live).sort());
    const { custom_tags: restoredTags, ...restoredRest } = restored;
    const { custom_tags: _liveTags, ...liveRest } = live;
    expect(restoredRest).toEqual(liveRest);
    // The written table holds exactly the rows that existed at one moment: every row up to some id, none after.
    const restoredTagRows = await tableRows(restoredDb, 'custom_tags');
    const lastId = Math.max(...restoredTagRows.map((r) => Number(r.id)));
    expect(restoredTags).toEqual(summarize(liveTags.filter((r) => Number(r.id) <= lastId)));
    expect(restoredTags.rows).toBeGreaterThanOrEqual(before.custom_tags.rows);

    // And a backup of the quiet database restores to exactly the live one: every table's rows and checksum.
    const quietBackup = (await server.request({ method: 'POST', url: '/api/v3/Backup', key })).json();
    const second = await freshTarget();
    await restoreBackup(second, path.join(server.home, 'backups', quietBackup.Name), quiet);
    const secondDb = openDatabase(second);
    cleanups.push(() => secondDb.close());
    expect(await tableChecksums(secondDb)).toEqual(await tableChecksums(server.services.db));
    expect(Object.keys(live).length).toBeGreaterThan(30);
    expect(live.files.rows).toBeGreaterThan(0);
  }, 300_000);

  it('npm run restore keeps the current database aside and brings the backup back', async () => {
    const server = await createTestServer();
    let open = true;
    cleanups.push(() => (open ? server.close() : undefined));
    const key = await completeFirstRun(server);
    await addUserTag(server, key, 'before-backup');
    const backup = (await server.request({ method: 'POST', url: '/api/v3/Backup', key })).json();
    await addUserTag(server, key, 'after-backup');
    await server.close({ keepData: true });
    open = false;
    cleanups.push(async () => {
      if (server.databaseUrl) {
        const admin = await connectPg(process.env.SHOKO_TEST_DB);
        await admin.query(`DROP DATABASE IF EXISTS ${new URL(server.databaseUrl).pathname.slice(1)} WITH (FORCE)`);
        await admin.end();
      }
      fs.rmSync(server.home, { recursive: true, force: true });
    });

    // The CLI as `npm run restore -- <name>` runs it, by the backup's name in <home>/backups.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/tools/restore.ts', backup.Name], {
      cwd: serverDir,
      env: { ...process.env, SHOKO_HOME: server.home, SHOKO_DB: server.databaseUrl ?? '', INIT_CWD: serverDir },
    });
    expect(stdout).toContain('The previous database was kept as');
    if (server.databaseUrl) {
      const aside = fs.readdirSync(path.join(server.home, 'backups')).filter((n) => n.endsWith('-before-restore.tar.gz'));
      expect(aside).toHaveLength(1);
    } else {
      const aside = fs.readdirSync(path.dirname(sqliteFile(server.home))).filter((n) => /^shoko\.before-restore-\d{8}-\d{6}\.db$/.test(n));
      expect(aside).toHaveLength(1);
      // The kept database is whole and still holds what came after the backup.
      const asideDb = new (await import('better-sqlite3')).default(path.join(path.dirname(sqliteFile(server.home)), aside[0]), {
        readonly: true,
      });
      const asideTags = (asideDb.prepare('select name from custom_tags').all() as Array<{ name: string }>).map((r) => r.name);
      asideDb.close();
      expect(addedTags(asideTags)).toEqual(['after-backup', 'before-backup']);
    }

    const restarted = await createTestServer({ restartOf: server });
    cleanups.push(() => restarted.close({ keepData: true }));
    await restarted.request({ method: 'GET', url: '/api/v3/Init/StartServer', key });
    await restarted.services.init.waitForStartup();
    expect(restarted.services.state.current).toBe('Started');
    const newKey = await login(restarted, 'Default', 'first-run-pass');
    expect(await userTags(restarted, newKey)).toEqual(['before-backup']);
  }, 120_000);

  it('migrates a backup from an older schema on the next start', async () => {
    const upgrade: Record<string, MigrationModule> = {
      '9000_test_upgrade': {
        up: async (db) => {
          await db.schema.createTable('test_upgrade').addColumn('note', 'text').execute();
        },
      },
    };
    const server = await createTestServer();
    cleanups.push(() => server.close());
    const key = await completeFirstRun(server);
    await addUserTag(server, key, 'old-schema');
    const oldBackup = (await server.request({ method: 'POST', url: '/api/v3/Backup', key })).json();
    await server.close({ keepData: true });

    // The "new version": one more migration. A backup of the database is made before it runs.
    let upgraded = await createTestServer({ restartOf: server, services: { extraMigrations: upgrade } });
    const list = (await upgraded.request({ method: 'GET', url: '/api/v3/Backup', key })).json() as Array<{
      Kind: string;
      SchemaVersion: string;
    }>;
    expect(list.filter((b) => b.Kind === 'BeforeMigration').map((b) => b.SchemaVersion)).toEqual([oldBackup.SchemaVersion]);
    expect((await upgraded.request({ method: 'GET', url: '/api/v3/Backup/Status', key })).json().SchemaVersion).toBe('9000_test_upgrade');
    await upgraded.request({ method: 'POST', url: `/api/v3/Backup/${oldBackup.Name}/Restore`, key });
    await upgraded.close({ keepData: true });

    // What main.ts does at start-up, before the database opens.
    const { applyPendingRestore } = await import('./restore.js');
    await applyPendingRestore({ home: server.home, databaseUrl: server.databaseUrl }, quiet);
    expect(fs.existsSync(path.join(server.home, 'backups', 'restore-pending.json'))).toBe(false);

    upgraded = await createTestServer({ restartOf: server, services: { extraMigrations: upgrade } });
    cleanups.push(() => upgraded.close({ keepData: true }));
    expect(upgraded.services.state.current).not.toBe('Failed');
    await upgraded.request({ method: 'GET', url: '/api/v3/Init/StartServer', key });
    await upgraded.services.init.waitForStartup();
    expect(upgraded.services.state.current).toBe('Started');
    const status = (await upgraded.request({ method: 'GET', url: '/api/v3/Backup/Status', key })).json();
    expect(status.SchemaVersion).toBe('9000_test_upgrade');
    expect(status.PendingRestore).toBeNull();
    const migrated = await upgraded.services.db.kysely.introspection.getTables();
    expect(migrated.map((t) => t.name)).toContain('test_upgrade');
    expect(await userTags(upgraded, key)).toEqual(['old-schema']);
  }, 120_000);

  it('applies a restore the console scheduled when the server process starts again', async () => {
    const home = temporaryHome();
    const database = await processDatabase();
    cleanups.push(() => database.drop());
    const server = new ServerProcess({ home, port: await freePort(), databaseUrl: database.url });
    cleanups.push(() => server.kill());
    await server.start();
    let key = await server.completeFirstRun();
    const tag = (name: string) => server.json('POST', '/api/v3/Tag/User', { key, body: { Name: name, Description: '' } });
    await tag('kept');
    const backup = await server.json<{ Name: string }>('POST', '/api/v3/Backup', { key });
    await tag('undone');
    const status = await server.json<{ PendingRestore: string }>('POST', `/api/v3/Backup/${backup.Name}/Restore`, { key });
    expect(status.PendingRestore).toBe(backup.Name);
    await server.stop();

    await server.start();
    await server.waitForStarted();
    key = await server.login();
    const tags = await server.json<{ List: Array<{ Name: string }> }>('GET', '/api/v3/Tag/User?pageSize=0', { key });
    expect(addedTags(tags.List.map((t) => t.Name))).toEqual(['kept']);
    expect(server.output()).toContain(`Restored ${backup.Name}`);
    expect((await server.json<{ PendingRestore: string | null }>('GET', '/api/v3/Backup/Status', { key })).PendingRestore).toBeNull();
  }, 180_000);
});
