import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';

/** Shoko 5.0 left its database at schema 122, 5.1 at 131, 5.2 at 137 and 5.3 at 138. */
export const SUPPORTED_SCHEMA_VERSIONS = { first: 122, last: 138 } as const;

export class ShokoSourceError extends Error {}

type Row = Record<string, unknown>;

/**
 * Shoko's SQLite database, read through a private copy: Shoko keeps it in WAL mode, and even a read-only open of a WAL
 * database may create its `-shm` file beside it, so the Shoko folder itself is only ever read (copied), never opened.
 * Every query of Shoko's tables lives here.
 */
export class ShokoDatabase {
  private constructor(
    private readonly sqlite: Database.Database,
    private readonly copyDir: string,
    readonly schemaVersion: number,
  ) {}

  /** Copies `JMMServer.db3` (and its `-wal`, which may hold the newest writes) into `workDir` and opens the copy. */
  static async open(databaseFile: string, workDir: string): Promise<ShokoDatabase> {
    const copyDir = path.join(workDir, `shoko-db-${process.pid}-${Date.now()}`);
    await mkdir(copyDir, { recursive: true });
    const copy = path.join(copyDir, 'JMMServer.db3');
    try {
      await copyFile(databaseFile, copy);
      const wal = `${databaseFile}-wal`;
      if (await isFile(wal)) await copyFile(wal, `${copy}-wal`);
      const sqlite = new Database(copy, { fileMustExist: true });
      try {
        const version = readSchemaVersion(sqlite);
        return new ShokoDatabase(sqlite, copyDir, version);
      } catch (error) {
        sqlite.close();
        throw error;
      }
    } catch (error) {
      await rm(copyDir, { recursive: true, force: true });
      if (error instanceof ShokoSourceError) throw error;
      throw new ShokoSourceError(`Cannot read the Shoko database ${databaseFile}: ${(error as Error).message}`);
    }
  }

  async close(): Promise<void> {
    this.sqlite.close();
    await rm(this.copyDir, { recursive: true, force: true });
  }

  hasTable(table: string): boolean {
    return !!this.sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table);
  }

  columns(table: string): Set<string> {
    const rows = this.sqlite.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as Array<{ name: string }>;
    return new Set(rows.map((r) => r.name));
  }

  /** Every row of a table (only the named columns that exist in this schema version; missing ones read as null). */
  all<T extends Row>(table: string, wanted: readonly string[]): T[] {
    if (!this.hasTable(table)) return [];
    const present = this.columns(table);
    const select = wanted.map((c) => (present.has(c) ? `"${c}"` : `NULL AS "${c}"`)).join(', ');
    return this.sqlite.prepare(`SELECT ${select} FROM "${table}"`).all() as T[];
  }
}

function readSchemaVersion(sqlite: Database.Database): number {
  const table = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Versions'`).get();
  if (!table) throw new ShokoSourceError('This is not a Shoko Server database: it has no Versions table.');
  const row = sqlite.prepare(`SELECT MAX(CAST(VersionValue AS INTEGER)) AS version FROM Versions WHERE VersionType = 'Database'`).get() as {
    version: number | null;
  };
  const version = Number(row.version ?? 0);
  const { first, last } = SUPPORTED_SCHEMA_VERSIONS;
  if (version < first || version > last)
    throw new ShokoSourceError(
      `The Shoko database is at schema version ${version}; this importer reads the versions of Shoko Server 5.0 to 5.3 (schema ${first} to ${last}).` +
        (version > last
          ? ' It comes from a newer Shoko Server than this importer knows.'
          : ' Update Shoko Server to 5.x once, then import again.'),
    );
  return version;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
