import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';
import { findPgTool } from './postgres-tools.js';

/** The backup routes (our extension) against a real server: SQLite, or PostgreSQL when SHOKO_TEST_DB is set. */

const servers: TestServer[] = [];
const temporary: string[] = [];
afterEach(async () => {
  while (servers.length) await servers.pop()!.close();
  while (temporary.length) fs.rmSync(temporary.pop()!, { recursive: true, force: true });
});

async function started(options: Parameters<typeof createTestServer>[0] = {}) {
  const server = await createTestServer(options);
  servers.push(server);
  const key = await completeFirstRun(server);
  return { server, key };
}

/** Unpacks a downloaded backup with the system's tar: the format is a plain .tar.gz. */
function unpack(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-backup-unpacked-'));
  temporary.push(dir);
  fs.writeFileSync(path.join(dir, 'backup.tar.gz'), bytes);
  execFileSync('tar', ['xzf', 'backup.tar.gz'], { cwd: dir });
  return dir;
}

/** Every byte of the backed-up database as text: the SQLite file itself, or the SQL pg_restore makes of the dump. */
function databaseText(dir: string): string {
  if (fs.existsSync(path.join(dir, 'database.sqlite'))) return fs.readFileSync(path.join(dir, 'database.sqlite')).toString('latin1');
  return execFileSync(findPgTool('pg_restore')!, ['--file', '-', path.join(dir, 'database.pgdump')]).toString();
}

const pgWithoutTools = !!process.env.SHOKO_TEST_DB && !findPgTool('pg_dump');

describe.skipIf(pgWithoutTools)('backups', () => {
  it('makes, lists, downloads and deletes a backup of the database and settings', async () => {
    const { server, key } = await started();
    const made = await server.request({ method: 'POST', url: '/api/v3/Backup', key });
    expect(made.statusCode, made.body).toBe(200);
    const backup = made.json();
    expect(backup.Name).toMatch(/^shoko-\d{8}-\d{6}-manual\.tar\.gz$/);
    expect(backup.Size).toBeGreaterThan(0);
    expect(Date.parse(backup.CreatedAt)).not.toBeNaN();
    expect(backup.Kind).toBe('Manual');
    expect(backup.Database).toBe(server.databaseUrl ? 'PostgreSQL' : 'SQLite');
    expect(fs.existsSync(path.join(server.home, 'backups', backup.Name))).toBe(true);

    const status = (await server.request({ method: 'GET', url: '/api/v3/Backup/Status', key })).json();
    expect(status).toMatchObject({ Available: true, Problem: null, PendingRestore: null, IntervalHours: 24, Keep: 7 });
    expect(backup.SchemaVersion).toBe(status.SchemaVersion);
    expect(status.SchemaVersion).toMatch(/^\d{4}_/);

    // Routes are case-insensitive, as every route of the API.
    const list = await server.request({ method: 'GET', url: '/api/v3/backup', key });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([backup]);

    const download = await server.request({ method: 'GET', url: `/api/v3/Backup/${backup.Name}`, key });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${backup.Name}"`);
    expect(download.rawPayload.length).toBe(backup.Size);
    const dir = unpack(download.rawPayload);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'backup.json'), 'utf8'));
    expect(manifest).toMatchObject({ Format: 1, Kind: 'Manual', SchemaVersion: backup.SchemaVersion, CreatedAt: backup.CreatedAt });
    expect(manifest.Migrations.at(-1)).toBe(backup.SchemaVersion);
    expect(manifest.Settings.FirstRun).toBe(false);
    expect(databaseText(dir)).toContain('Default');

    const removed = await server.request({ method: 'DELETE', url: `/api/v3/Backup/${backup.Name}`, key });
    expect(removed.statusCode).toBe(200);
    expect(fs.existsSync(path.join(server.home, 'backups', backup.Name))).toBe(false);
    expect((await server.request({ method: 'GET', url: '/api/v3/Backup', key })).json()).toEqual([]);
    expect((await server.request({ method: 'GET', url: `/api/v3/Backup/${backup.Name}`, key })).statusCode).toBe(404);
  });

  it('holds no API key and no secret setting in clear', async () => {
    const { server, key } = await started();
    const patched = await server.request({
      method: 'PATCH',
      url: '/api/v3/Settings?skipValidation=true',
      key,
      body: [
        { op: 'replace', path: '/AniDb/Username', value: 'someone' },
        { op: 'replace', path: '/AniDb/Password', value: 'anidb-secret-pw-4821' },
        { op: 'replace', path: '/TMDB/UserApiKey', value: 'tmdb-secret-key-9931' },
      ],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const backup = (await server.request({ method: 'POST', url: '/api/v3/Backup', key })).json();
    const download = await server.request({ method: 'GET', url: `/api/v3/Backup/${backup.Name}`, key });
    const dir = unpack(download.rawPayload);
    const manifestText = fs.readFileSync(path.join(dir, 'backup.json'), 'utf8');
    expect(manifestText).not.toContain('anidb-secret-pw-4821');
    expect(manifestText).not.toContain('tmdb-secret-key-9931');
    expect(JSON.parse(manifestText).Settings.AniDb.Password).toBe('');
    const database = databaseText(dir);
    expect(database).not.toContain(key);
    // The key is there, but only as its SHA-256.
    expect(database).toContain(createHash('sha256').update(key).digest('hex'));
    // The server's own settings still hold the secret.
    expect(server.services.settings.current.AniDb.Password).toBe('anidb-secret-pw-4821');
  });

  it('answers 400 naming the field for a name that is not a backup file, 404 for an unknown one', async () => {
    const { server, key } = await started();
    for (const [method, url] of [
      ['GET', '/api/v3/Backup/..%2Fsettings-server.json'],
      ['GET', '/api/v3/Backup/..%2F..%2Fetc%2Fpasswd'],
      ['DELETE', '/api/v3/Backup/settings-server.json'],
      ['GET', '/api/v3/Backup/.work-x.tar.gz'],
      ['POST', '/api/v3/Backup/..%2Fx.tar.gz/Restore'],
    ]) {
      const res = await server.request({ method, url, key });
      expect(res.statusCode, `${method} ${url}`).toBe(400);
      expect(Object.keys(res.json().errors), url).toEqual(['name']);
    }
    for (const [method, url] of [
      ['GET', '/api/v3/Backup/shoko-nothing.tar.gz'],
      ['DELETE', '/api/v3/Backup/shoko-nothing.tar.gz'],
      ['POST', '/api/v3/Backup/shoko-nothing.tar.gz/Restore'],
    ]) {
      const res = await server.request({ method, url, key });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).toBe('Backup not found');
    }
    expect(fs.existsSync(path.join(server.home, 'settings-server.json'))).toBe(true);
  });

  it('is listed in the Swagger document under its own tag', async () => {
    const server = await createTestServer();
    servers.push(server);
    const document = (await server.request({ method: 'GET', url: '/swagger/v3/swagger.json' })).json();
    const backupPaths = Object.entries(document.paths as Record<string, Record<string, { tags?: string[] }>>).filter(([p]) =>
      p.toLowerCase().startsWith('/api/v3/backup'),
    );
    expect(backupPaths.length).toBe(5);
    for (const [, operations] of backupPaths) for (const operation of Object.values(operations)) expect(operation.tags).toEqual(['Backup']);
  });

  it('is admin-only', async () => {
    const { server, key } = await started();
    const user = await createUser(server, key, 'viewer', 'pw');
    const backup = (await server.request({ method: 'POST', url: '/api/v3/Backup', key })).json();
    for (const [method, url] of [
      ['GET', '/api/v3/Backup'],
      ['POST', '/api/v3/Backup'],
      ['GET', '/api/v3/Backup/Status'],
      ['GET', `/api/v3/Backup/${backup.Name}`],
      ['DELETE', `/api/v3/Backup/${backup.Name}`],
      ['POST', `/api/v3/Backup/${backup.Name}/Restore`],
      ['DELETE', '/api/v3/Backup/Restore'],
    ]) {
      expect((await server.request({ method, url, key: user.key })).statusCode, `${method} ${url}`).toBe(403);
      expect((await server.request({ method, url })).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('schedules a restore for the next start and cancels it', async () => {
    const { server, key } = await started();
    const backup = (await server.request({ method: 'POST', url: '/api/v3/Backup', key })).json();
    const scheduled = await server.request({ method: 'POST', url: `/api/v3/Backup/${backup.Name}/Restore`, key });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json().PendingRestore).toBe(backup.Name);
    expect(JSON.parse(fs.readFileSync(path.join(server.home, 'backups', 'restore-pending.json'), 'utf8'))).toEqual({ Name: backup.Name });
    expect((await server.request({ method: 'GET', url: '/api/v3/Backup/Status', key })).json().PendingRestore).toBe(backup.Name);

    const cancelled = await server.request({ method: 'DELETE', url: '/api/v3/Backup/Restore', key });
    expect(cancelled.json().PendingRestore).toBeNull();
    expect(fs.existsSync(path.join(server.home, 'backups', 'restore-pending.json'))).toBe(false);

    // Deleting the backup a restore waits for cancels the restore.
    await server.request({ method: 'POST', url: `/api/v3/Backup/${backup.Name}/Restore`, key });
    await server.request({ method: 'DELETE', url: `/api/v3/Backup/${backup.Name}`, key });
    expect((await server.request({ method: 'GET', url: '/api/v3/Backup/Status', key })).json().PendingRestore).toBeNull();
  });

  it('refuses to schedule a restore of a file that is not a backup', async () => {
    const { server, key } = await started();
    fs.mkdirSync(path.join(server.home, 'backups'), { recursive: true });
    fs.writeFileSync(path.join(server.home, 'backups', 'stray.tar.gz'), 'not an archive');
    const listed = (await server.request({ method: 'GET', url: '/api/v3/Backup', key })).json();
    expect(listed).toEqual([expect.objectContaining({ Name: 'stray.tar.gz', SchemaVersion: null, Kind: null, Database: null })]);
    const res = await server.request({ method: 'POST', url: '/api/v3/Backup/stray.tar.gz/Restore', key });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['name']);
  });

  it('makes scheduled backups and keeps only the newest automatic ones; backups made by hand stay', async () => {
    // 0.0005 hours: a scheduled backup about every 2 seconds.
    const { server, key } = await started({ backups: { intervalHours: 0.0005, keep: 2 } });
    const manual = (await server.request({ method: 'POST', url: '/api/v3/Backup', key })).json();
    const seen = new Set<string>();
    const deadline = Date.now() + 60_000;
    while (seen.size < 4) {
      if (Date.now() > deadline) throw new Error(`only ${seen.size} scheduled backups appeared`);
      const list = (await server.request({ method: 'GET', url: '/api/v3/Backup', key })).json() as Array<{ Name: string; Kind: string }>;
      list.filter((b) => b.Kind === 'Scheduled').forEach((b) => seen.add(b.Name));
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Once the schedule has stopped (and a backup in progress has finished), the newest two are left.
    await server.services.backups.stop();
    const list = (await server.request({ method: 'GET', url: '/api/v3/Backup', key })).json() as Array<{ Name: string; Kind: string }>;
    const scheduled = list.filter((b) => b.Kind === 'Scheduled').map((b) => b.Name);
    expect(scheduled).toEqual([...seen].sort().reverse().slice(0, 2));
    expect(list.map((b) => b.Name)).toContain(manual.Name);
  });
});

describe.runIf(!!process.env.SHOKO_TEST_DB)('backups on PostgreSQL without the client tools', () => {
  it('answers 503 with a problem body saying what to install, and the status says why', async () => {
    const { server, key } = await started();
    const emptyBin = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-no-pg-bin-'));
    temporary.push(emptyBin);
    const previous = process.env.SHOKO_PG_BIN;
    process.env.SHOKO_PG_BIN = emptyBin;
    try {
      const res = await server.request({ method: 'POST', url: '/api/v3/Backup', key });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 503, title: 'Service Unavailable' });
      expect(res.json().detail).toMatch(/pg_dump.*postgresql-client/);
      const status = (await server.request({ method: 'GET', url: '/api/v3/Backup/Status', key })).json();
      expect(status.Available).toBe(false);
      expect(status.Problem).toBe(res.json().detail);
      expect((await server.request({ method: 'GET', url: '/api/v3/Backup', key })).json()).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.SHOKO_PG_BIN;
      else process.env.SHOKO_PG_BIN = previous;
    }
  });
});
