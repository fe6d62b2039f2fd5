/**
 * DESIGN — backup domain: backups of the database and settings in `<home>/backups/` (`/api/v3/Backup*`, our
 * extension, admin-only): made by hand, on a schedule (env SHOKO_BACKUP_INTERVAL_HOURS, SHOKO_BACKUP_KEEP) and before
 * migrations run on a database that has data; listed, downloaded, deleted; a restore scheduled for the next start.
 * A backup is a .tar.gz holding `backup.json` (manifest: database kind, schema version, the settings without their
 * secrets) and the database (SQLite's online backup, or a pg_dump). Routes: backup.routes.ts; files and snapshots:
 * backup.store.ts; the archive format: backup-archive.ts; restoring (CLI and next start): restore.ts.
 */
import type { Logger } from 'pino';
import type { Backup, BackupDatabaseKind, BackupKind, BackupStatus, ServerSettings } from '@shoko-ts/contract';
import { notFound, problemError, validationError } from '../../http/problem.js';
import type { BackupStore } from './backup.store.js';

export interface BackupManifest {
  Format: 1;
  Database: BackupDatabaseKind;
  Kind: BackupKind;
  CreatedAt: string;
  SchemaVersion: string | null;
  /** Every migration the database had run. */
  Migrations: string[];
  /** The server settings with every secret blanked (a restore keeps the secrets the server has). */
  Settings: ServerSettings;
}

export interface BackupSchedule {
  /** Hours between scheduled backups; 0 turns the schedule off. */
  intervalHours: number;
  /** Automatic backups (scheduled, before migrations) kept; the oldest beyond this are deleted. */
  keep: number;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,190}\.tar\.gz$/;
const AUTOMATIC: ReadonlySet<BackupKind> = new Set(['Scheduled', 'BeforeMigration']);
const SUFFIX: Record<BackupKind, string> = {
  Manual: 'manual',
  Scheduled: 'scheduled',
  BeforeMigration: 'before-migration',
  BeforeRestore: 'before-restore',
};
/** setTimeout cannot wait longer than about 24.8 days; longer waits re-arm. */
const MAX_TIMER = 2 ** 31 - 1;

export function isManifest(value: unknown): value is BackupManifest {
  const m = value as Partial<BackupManifest> | null;
  return !!m && m.Format === 1 && (m.Database === 'SQLite' || m.Database === 'PostgreSQL') && Array.isArray(m.Migrations);
}

/** A backup's file name as the routes take it: a plain name ending in .tar.gz, so it can never leave the folder. */
export function checkBackupName(name: string): string {
  if (!NAME.test(name) || name.includes('..')) {
    throw validationError('name', 'The name must be a backup file name (letters, digits, ".", "_", "-", ending in .tar.gz).');
  }
  return name;
}

function fileStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

export class BackupService {
  /** Backups run one at a time. */
  private running: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: {
      store: BackupStore;
      dialect: 'sqlite' | 'postgres';
      settings: { redacted(): ServerSettings };
      schedule: BackupSchedule;
      logger: Logger;
    },
  ) {}

  private get databaseKind(): BackupDatabaseKind {
    return this.deps.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
  }

  async status(): Promise<BackupStatus> {
    const problem = this.deps.store.problem();
    const migrations = await this.deps.store.appliedMigrations().catch(() => []);
    return {
      Database: this.databaseKind,
      Available: problem === null,
      Problem: problem,
      IntervalHours: this.deps.schedule.intervalHours,
      Keep: this.deps.schedule.keep,
      PendingRestore: await this.deps.store.pendingRestore(),
      SchemaVersion: migrations.at(-1) ?? null,
    };
  }

  /** Makes a backup now and returns its entry. PostgreSQL without pg_dump answers 503 with the reason. */
  create(kind: BackupKind = 'Manual'): Promise<Backup> {
    const problem = this.deps.store.problem();
    if (problem) return Promise.reject(problemError(503, problem));
    const next = this.running.then(() => this.write(kind));
    this.running = next.catch(() => undefined);
    return next;
  }

  private async write(kind: BackupKind): Promise<Backup> {
    const { store, logger } = this.deps;
    const work = await store.makeWorkDirectory();
    try {
      const createdAt = new Date();
      const migrations = await store.appliedMigrations();
      const database = await store.snapshot(work);
      const manifest: BackupManifest = {
        Format: 1,
        Database: this.databaseKind,
        Kind: kind,
        CreatedAt: createdAt.toISOString(),
        SchemaVersion: migrations.at(-1) ?? null,
        Migrations: migrations,
        Settings: this.deps.settings.redacted(),
      };
      let name = `shoko-${fileStamp(createdAt)}-${SUFFIX[kind]}.tar.gz`;
      for (let n = 2; await store.find(name); n++) name = `shoko-${fileStamp(createdAt)}-${SUFFIX[kind]}-${n}.tar.gz`;
      await store.writeBackup(name, manifest, database);
      const entry = await this.entry(name);
      logger.info(`Backup ${name} made (${entry.Size} bytes, schema ${manifest.SchemaVersion ?? 'empty'})`);
      if (AUTOMATIC.has(kind)) await this.prune();
      return entry;
    } finally {
      await store.removeWorkDirectory(work);
    }
  }

  /** Deletes the oldest automatic backups beyond the retention count; backups made by hand stay. */
  private async prune(): Promise<void> {
    const automatic = (await this.list()).filter((b) => b.Kind && AUTOMATIC.has(b.Kind));
    for (const old of automatic.slice(this.deps.schedule.keep)) {
      await this.deps.store.remove(old.Name);
      this.deps.logger.info(`Backup ${old.Name} removed (keeping the newest ${this.deps.schedule.keep} automatic backups)`);
    }
  }

  /** Every backup, newest first. */
  async list(): Promise<Backup[]> {
    const files = await this.deps.store.list();
    // A backup pruned or deleted while the folder was being read is left out, not an error for the whole list.
    const entries = (await Promise.all(files.map((f) => this.entryIfPresent(f.name)))).filter((e): e is Backup => e !== null);
    return entries.sort((a, b) => b.CreatedAt.localeCompare(a.CreatedAt) || b.Name.localeCompare(a.Name));
  }

  private async entry(name: string): Promise<Backup> {
    const entry = await this.entryIfPresent(name);
    if (!entry) throw notFound('Backup not found');
    return entry;
  }

  private async entryIfPresent(name: string): Promise<Backup | null> {
    const file = await this.deps.store.find(name);
    if (!file) return null;
    const manifest = await this.deps.store.manifest(name);
    const known = isManifest(manifest) ? manifest : null;
    // An unreadable manifest may also mean the file went away after it was found.
    if (!known && !(await this.deps.store.find(name))) return null;
    return {
      Name: name,
      Size: file.size,
      CreatedAt: known?.CreatedAt ?? file.modifiedAt.toISOString(),
      SchemaVersion: known?.SchemaVersion ?? null,
      Database: known?.Database ?? null,
      Kind: known?.Kind ?? null,
    };
  }

  /** The path of a backup to download; 400 for a name that is not a backup file name, 404 for an unknown one. */
  async file(name: string): Promise<{ path: string; size: number }> {
    const file = await this.deps.store.find(checkBackupName(name));
    if (!file) throw notFound('Backup not found');
    return { path: this.deps.store.pathOf(name), size: file.size };
  }

  async remove(name: string): Promise<void> {
    await this.file(name);
    await this.deps.store.remove(name);
    if ((await this.deps.store.pendingRestore()) === name) await this.deps.store.setPendingRestore(null);
    this.deps.logger.info(`Backup ${name} deleted`);
  }

  /** Marks a backup to be restored when the server next starts (before the database opens). */
  async scheduleRestore(name: string): Promise<BackupStatus> {
    await this.file(name);
    const manifest = await this.deps.store.manifest(name);
    if (!isManifest(manifest)) throw validationError('name', 'This file is not a backup made by this server.');
    if (manifest.Database !== this.databaseKind) {
      throw validationError('name', `This is a ${manifest.Database} backup; this server runs on ${this.databaseKind}.`);
    }
    await this.deps.store.setPendingRestore(name);
    this.deps.logger.warn(`Backup ${name} will be restored when the server next starts`);
    return this.status();
  }

  async cancelRestore(): Promise<BackupStatus> {
    await this.deps.store.setPendingRestore(null);
    return this.status();
  }

  /** Before migrations change a database that already has a schema, keep a copy of it. */
  async beforeMigrating(pending: string[]): Promise<void> {
    if (!pending.length || !(await this.deps.store.appliedMigrations()).length) return;
    try {
      const backup = await this.create('BeforeMigration');
      this.deps.logger.info(`Backup ${backup.Name} made before running migrations ${pending.join(', ')}`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn(`No backup before running migrations ${pending.join(', ')}: ${reason}`);
    }
  }

  /** Starts the schedule: the next backup is one interval after the newest scheduled one (or after now). */
  async startSchedule(): Promise<void> {
    const { intervalHours } = this.deps.schedule;
    if (!(intervalHours > 0) || this.timer) return;
    const last = (await this.list()).find((b) => b.Kind === 'Scheduled');
    const interval = intervalHours * 3_600_000;
    const due = (last ? Date.parse(last.CreatedAt) : Date.now()) + interval;
    this.arm(due, interval);
  }

  private arm(due: number, interval: number): void {
    const wait = Math.max(0, due - Date.now());
    this.timer = setTimeout(
      () => {
        if (Date.now() < due) return this.arm(due, interval);
        this.create('Scheduled')
          .catch((error) => this.deps.logger.error({ err: error }, 'Scheduled backup failed'))
          .finally(() => {
            if (this.timer) this.arm(Date.now() + interval, interval);
          });
      },
      Math.min(wait, MAX_TIMER),
    );
    this.timer.unref();
  }

  /** Stops the schedule and waits for a backup in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
