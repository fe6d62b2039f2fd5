import fs from 'node:fs/promises';
import type { Logger } from 'pino';
import path from 'node:path';
import { SECRET_SETTING_PATHS } from '@shoko-ts/contract';
import { openDatabase } from '../../db/database.js';
import { knownMigrations } from '../../db/migrate.js';
import { SETTINGS_FILE } from '../settings/index.js';
import { extractArchive } from './backup-archive.js';
import { BackupService, isManifest, type BackupManifest } from './backup.service.js';
import { BackupStore, DATABASE_ENTRY, inspectSqliteDatabase, PENDING_RESTORE_FILE, replaceSqliteDatabase } from './backup.store.js';
import { restorePostgres } from './postgres-tools.js';

/**
 * Restoring a backup, while the database is not open: `npm run restore -- <file>` (tools/restore.ts) and, at start-up
 * before the database opens, a restore the console scheduled (`POST Backup/{name}/Restore`). The current database is
 * kept first (SQLite: renamed with a timestamp; PostgreSQL: dumped into a "before-restore" backup), never deleted. A
 * backup from an older schema is simply migrated by the next start; one from a newer version is refused.
 */

export interface RestoreTarget {
  home: string;
  databaseUrl: string | null;
}

export interface RestoreResult {
  /** Where the replaced database went: a renamed SQLite file or a before-restore backup. */
  keptAside: string | null;
  schemaVersion: string | null;
}

const backupsDirectory = (home: string) => path.join(home, 'backups');

function stamp(): string {
  return new Date()
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

type SettingsObject = Record<string, unknown>;

function getPath(settings: SettingsObject, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((node, key) => (node as SettingsObject | undefined)?.[key], settings);
}

function setPath(settings: SettingsObject, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let node = settings;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as SettingsObject;
  }
  node[keys[keys.length - 1]] = value;
}

async function readSettingsFile(home: string): Promise<SettingsObject | null> {
  try {
    return JSON.parse(await fs.readFile(path.join(home, SETTINGS_FILE), 'utf8')) as SettingsObject;
  } catch {
    return null;
  }
}

/** The settings file as a backup holds it: every secret blanked. */
async function settingsWithoutSecrets(home: string): Promise<SettingsObject> {
  const settings = (await readSettingsFile(home)) ?? {};
  for (const secret of SECRET_SETTING_PATHS) if (getPath(settings, secret) !== undefined) setPath(settings, secret, '');
  return settings;
}

/**
 * Writes the backup's settings, keeping the secrets the server has now (a backup carries none). The current file is
 * kept as `settings-server.before-restore-<stamp>.json`.
 */
async function restoreSettings(home: string, fromBackup: SettingsObject, when: string): Promise<void> {
  const file = path.join(home, SETTINGS_FILE);
  const current = await readSettingsFile(home);
  const restored = structuredClone(fromBackup);
  for (const secret of SECRET_SETTING_PATHS) {
    const kept = current ? getPath(current, secret) : undefined;
    if (!getPath(restored, secret) && kept) setPath(restored, secret, kept);
  }
  if (current) await fs.copyFile(file, path.join(home, `settings-server.before-restore-${when}.json`));
  await fs.writeFile(`${file}.restoring`, `${JSON.stringify(restored, null, 2)}\n`, { mode: 0o600 });
  await fs.rename(`${file}.restoring`, file);
}

/** Restores the backup file into the data directory's database and settings. The server must not be running. */
export async function restoreBackup(target: RestoreTarget, archive: string, log: Logger): Promise<RestoreResult> {
  await fs.mkdir(backupsDirectory(target.home), { recursive: true, mode: 0o700 });
  const work = await fs.mkdtemp(path.join(backupsDirectory(target.home), '.restore-'));
  try {
    const manifest = await extractArchive(archive, work, Object.values(DATABASE_ENTRY));
    if (!isManifest(manifest)) throw new Error(`${archive} is not a backup made by this server (its backup.json is not one)`);
    const kind = target.databaseUrl ? 'PostgreSQL' : 'SQLite';
    if (manifest.Database !== kind) throw new Error(`${archive} is a ${manifest.Database} backup; this server uses ${kind}`);
    const known = new Set(knownMigrations());
    const newer = manifest.Migrations.filter((name) => !known.has(name));
    if (newer.length)
      throw new Error(`${archive} comes from a newer version of the server (migrations ${newer.join(', ')}); upgrade first`);
    const when = stamp();

    let keptAside: string | null;
    if (kind === 'SQLite') {
      const file = path.join(work, DATABASE_ENTRY.sqlite);
      inspectSqliteDatabase(file);
      keptAside = await replaceSqliteDatabase(target.home, file, when);
    } else {
      keptAside = await keepPostgresAside(target, log);
      await restorePostgres(target.databaseUrl!, path.join(work, DATABASE_ENTRY.postgres), work);
    }
    await restoreSettings(target.home, manifest.Settings as unknown as SettingsObject, when);
    log.info(
      `Restored ${path.basename(archive)} (made ${manifest.CreatedAt}, schema ${manifest.SchemaVersion ?? 'empty'})` +
        (keptAside ? `; the previous database was kept as ${keptAside}` : ''),
    );
    return { keptAside, schemaVersion: manifest.SchemaVersion };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** A PostgreSQL database cannot be renamed while connections may come back, so it is kept as a backup. */
async function keepPostgresAside(target: RestoreTarget, log: Logger): Promise<string> {
  const db = openDatabase({ home: target.home, databaseUrl: target.databaseUrl });
  try {
    const settings = (await settingsWithoutSecrets(target.home)) as unknown as BackupManifest['Settings'];
    const backups = new BackupService({
      store: new BackupStore(db, backupsDirectory(target.home)),
      dialect: 'postgres',
      settings: { redacted: () => settings },
      schedule: { intervalHours: 0, keep: 1 },
      logger: log,
    });
    const backup = await backups.create('BeforeRestore');
    return path.join(backupsDirectory(target.home), backup.Name);
  } finally {
    await db.close();
  }
}

/**
 * At start-up, before the database opens: restores the backup the console scheduled. A failed restore leaves the
 * current database in use and the marker renamed to `restore-failed.json` with the reason, so it is not retried on
 * every start.
 */
export async function applyPendingRestore(target: RestoreTarget, log: Logger): Promise<void> {
  const marker = path.join(backupsDirectory(target.home), PENDING_RESTORE_FILE);
  let name: unknown;
  try {
    name = (JSON.parse(await fs.readFile(marker, 'utf8')) as { Name?: unknown }).Name;
  } catch {
    return;
  }
  try {
    if (typeof name !== 'string' || name.includes('/') || name.includes('\\') || name.startsWith('.')) {
      throw new Error('the scheduled restore names no backup file');
    }
    log.warn(`Restoring backup ${name}, as scheduled`);
    await restoreBackup(target, path.join(backupsDirectory(target.home), name), log);
    await fs.rm(marker, { force: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log.error(`The scheduled restore of ${String(name)} failed, the current database stays in use: ${reason}`);
    await fs.writeFile(
      path.join(backupsDirectory(target.home), 'restore-failed.json'),
      `${JSON.stringify({ Name: name, Reason: reason })}\n`,
    );
    await fs.rm(marker, { force: true });
  }
}
