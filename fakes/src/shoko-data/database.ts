import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ShokoCollection } from './collection.js';
import type { ManifestFilterPreset, ManifestRenamer } from './manifest.js';
import { RowWriter } from './row-writer.js';
import { writeAniDBRows } from './rows-anidb.js';
import { writeFilterPresetRows, writeRenamerRows, writeTmdbRows, writeVersionRows } from './rows-extras.js';
import { writeLibraryRows } from './rows-shoko.js';
import { writeUserStateRows } from './rows-user-state.js';
import { createShokoIndexes, createShokoTables, shokoTables, type ShokoSchemaShape } from './schema.js';

export interface WrittenDatabase {
  filterPresets: ManifestFilterPreset[];
  renamers: ManifestRenamer[];
  rowCounts: Record<string, number>;
}

/**
 * Writes SQLite/JMMServer.db3. Everything but the per-user tables goes in one transaction without a journal (a fresh
 * file has nothing to roll back to); then the file switches to WAL, as Shoko keeps it, and the per-user tables follow
 * in a second transaction. With `leaveWal` that transaction stays in the -wal file: SQLite checkpoints on close, so
 * the database is written elsewhere and copied (with its -wal and -shm) while its connection is still open.
 */
export function writeShokoDatabase(
  databasePath: string,
  collection: ShokoCollection,
  options: { shape: ShokoSchemaShape; schemaVersion: number; leaveWal: boolean; now: Date },
): WrittenDatabase {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(databasePath + suffix, { force: true });
  const scratch = options.leaveWal ? fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-db-')) : null;
  const target = scratch ? path.join(scratch, path.basename(databasePath)) : databasePath;
  const db = new Database(target);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -65536');
    const writer = new RowWriter(db, options.shape);
    let written: Omit<WrittenDatabase, 'rowCounts'> = { filterPresets: [], renamers: [] };
    db.transaction(() => {
      createShokoTables(db, options.shape);
      writeVersionRows(writer, options.schemaVersion);
      writeAniDBRows(writer, collection, options.now);
      writeLibraryRows(writer, collection, options.now);
      writeTmdbRows(writer, collection.tmdb, options.now);
      written = { filterPresets: writeFilterPresetRows(writer, collection), renamers: writeRenamerRows(writer, collection) };
      createShokoIndexes(db, options.shape);
    })();
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    if (options.leaveWal) db.pragma('wal_autocheckpoint = 0');
    db.transaction(() => writeUserStateRows(writer, collection))();

    const rowCounts: Record<string, number> = {};
    for (const table of Object.keys(shokoTables(options.shape))) {
      rowCounts[table] = (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
    }
    if (scratch) {
      for (const suffix of ['', '-wal', '-shm']) fs.copyFileSync(target + suffix, databasePath + suffix);
    }
    return { ...written, rowCounts };
  } finally {
    db.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
}
