import fs from 'node:fs/promises';
import SQLite from 'better-sqlite3';
import path from 'node:path';
import { sqliteFile, type Db } from '../../db/database.js';
import { appliedMigrations } from '../../db/migrate.js';
import { MANIFEST, readManifest, writeArchive } from './backup-archive.js';
import { dumpPostgres, findPgTool, PG_TOOLS_MISSING } from './postgres-tools.js';

/** The database file's name inside an archive, per dialect. */
export const DATABASE_ENTRY = { sqlite: 'database.sqlite', postgres: 'database.pgdump' } as const;
/** The marker of a restore waiting for the next start: `{ "Name": "<backup file>" }`. */
export const PENDING_RESTORE_FILE = 'restore-pending.json';

export interface BackupFile {
  name: string;
  size: number;
  modifiedAt: Date;
}

/** Everything backups touch: the live database (snapshots, its schema version) and the files in `<home>/backups`. */
export class BackupStore {
  constructor(
    private readonly db: Db,
    readonly directory: string,
  ) {}

  /** Why this database cannot be backed up here, or null. */
  problem(): string | null {
    return this.db.dialect === 'postgres' && !findPgTool('pg_dump') ? PG_TOOLS_MISSING : null;
  }

  appliedMigrations(): Promise<string[]> {
    return appliedMigrations(this.db);
  }

  /**
   * A consistent copy of the running database in `workDirectory`: SQLite's online backup API (writes through this
   * connection during the copy land in it too; other writers make it start over), or pg_dump's snapshot.
   */
  async snapshot(workDirectory: string): Promise<{ entry: string; file: string }> {
    if (this.db.dialect === 'postgres') {
      const file = path.join(workDirectory, DATABASE_ENTRY.postgres);
      await dumpPostgres(this.db.url!, file);
      return { entry: DATABASE_ENTRY.postgres, file };
    }
    const file = path.join(workDirectory, DATABASE_ENTRY.sqlite);
    await this.db.sqlite!.connection.backup(file);
    return { entry: DATABASE_ENTRY.sqlite, file };
  }

  /** Writes the archive under a temporary name and renames it into place, so a listed backup is always whole. */
  async writeBackup(name: string, manifest: object, database: { entry: string; file: string }): Promise<void> {
    const target = this.pathOf(name);
    const partial = `${target}.partial`;
    await fs.rm(partial, { force: true });
    await writeArchive(partial, [
      { name: MANIFEST, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
      { name: database.entry, file: database.file },
    ]);
    await fs.rename(partial, target);
  }

  async makeWorkDirectory(): Promise<string> {
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    return fs.mkdtemp(path.join(this.directory, '.work-'));
  }

  async removeWorkDirectory(directory: string): Promise<void> {
    await fs.rm(directory, { recursive: true, force: true });
  }

  /** The backup files (`*.tar.gz`), newest first. */
  async list(): Promise<BackupFile[]> {
    const names = await fs.readdir(this.directory).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const files: BackupFile[] = [];
    for (const name of names.filter((n) => n.endsWith('.tar.gz') && !n.startsWith('.'))) {
      const info = await fs.stat(this.pathOf(name)).catch(() => null);
      if (info?.isFile()) files.push({ name, size: info.size, modifiedAt: info.mtime });
    }
    return files.sort((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime() || b.name.localeCompare(a.name));
  }

  async find(name: string): Promise<BackupFile | null> {
    const info = await fs.stat(this.pathOf(name)).catch(() => null);
    return info?.isFile() ? { name, size: info.size, modifiedAt: info.mtime } : null;
  }

  /** The manifest of a backup, or null when the file is not one of ours. */
  async manifest(name: string): Promise<unknown> {
    return readManifest(this.pathOf(name)).catch(() => null);
  }

  async remove(name: string): Promise<void> {
    await fs.rm(this.pathOf(name), { force: true });
  }

  pathOf(name: string): string {
    return path.join(this.directory, name);
  }

  async pendingRestore(): Promise<string | null> {
    try {
      const marker = JSON.parse(await fs.readFile(path.join(this.directory, PENDING_RESTORE_FILE), 'utf8')) as { Name?: unknown };
      return typeof marker.Name === 'string' ? marker.Name : null;
    } catch {
      return null;
    }
  }

  async setPendingRestore(name: string | null): Promise<void> {
    const marker = path.join(this.directory, PENDING_RESTORE_FILE);
    if (name === null) return fs.rm(marker, { force: true });
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    await fs.writeFile(`${marker}.tmp`, `${JSON.stringify({ Name: name })}\n`, { mode: 0o600 });
    await fs.rename(`${marker}.tmp`, marker);
  }
}

/** Checks an SQLite file from a backup: it must be a whole database; returns the migrations it had run. */
export function inspectSqliteDatabase(file: string): string[] {
  const connection = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const check = connection.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the database in the backup is damaged (${String(check)})`);
    const table = connection.prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!table) return [];
    return (connection.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map((r) => r.name);
  } finally {
    connection.close();
  }
}

/**
 * Puts `replacement` in place of the data directory's SQLite database. The current database (with its -wal and -shm
 * files, so nothing of it is lost) is renamed to `shoko.before-restore-<stamp>.db` first; returns that path, or null
 * when there was no database.
 */
export async function replaceSqliteDatabase(home: string, replacement: string, stamp: string): Promise<string | null> {
  const current = sqliteFile(home);
  const aside = path.join(path.dirname(current), `shoko.before-restore-${stamp}.db`);
  const exists = await fs.stat(current).then(
    () => true,
    () => false,
  );
  for (const suffix of ['', '-wal', '-shm']) {
    await fs.rename(`${current}${suffix}`, `${aside}${suffix}`).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await fs.mkdir(path.dirname(current), { recursive: true });
  await fs.copyFile(replacement, `${current}.restoring`);
  await fs.rename(`${current}.restoring`, current);
  return exists ? aside : null;
}
