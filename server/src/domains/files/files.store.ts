import { sql, type Kysely } from 'kysely';
import type { Database, FileLocationsTable, FilesTable } from '../../db/schema.js';
import { byIds } from '../../db/shared-queries.js';

export type FileRow = Omit<FilesTable, 'id'> & { id: number };
export type LocationRow = Omit<FileLocationsTable, 'id'> & { id: number };
/** `folder_available` is 0 while the import folder is offline (issue 49): its locations then count as not accessible. */
export type LocationWithFolder = LocationRow & { folder_path: string; folder_name: string; folder_available: number };

/** A location whose file can be read now: marked accessible, in a folder that is not offline. */
export const isReachable = (location: { is_accessible: number; folder_available: number }) =>
  location.is_accessible === 1 && location.folder_available === 1;

const FOLDER_COLUMNS = [
  'import_folders.path as folder_path',
  'import_folders.name as folder_name',
  'import_folders.is_available as folder_available',
] as const;

export interface DiscoveredFile {
  relativePath: string;
  size: number;
  mtimeMs: number;
}

export interface StoredHashes {
  ED2K: string;
  ED2KAlternate: string | null;
  CRC32: string;
  MD5: string;
  SHA1: string;
}

const CHUNK = 500;
const now = () => new Date().toISOString();

/** SQL of files and their locations. */
export class FilesStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The folder's locations, with the size of the content each one was last hashed or discovered with. */
  locationsInFolder(folderId: number): Promise<Array<LocationRow & { file_size: number }>> {
    return this.db
      .selectFrom('file_locations')
      .innerJoin('files', 'files.id', 'file_locations.file_id')
      .selectAll('file_locations')
      .select('files.size as file_size')
      .where('import_folder_id', '=', folderId)
      .execute();
  }

  /**
   * The file at a location changed on disk (another size or modification time): the location gets a fresh, unhashed
   * record for its new content, and the old record goes when no other location holds it — as when a file is removed.
   */
  async detachChangedContent(locationId: number, size: number, mtimeMs: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const location = await trx.selectFrom('file_locations').select('file_id').where('id', '=', locationId).executeTakeFirst();
      if (!location) return;
      const stamp = now();
      const file = await trx
        .insertInto('files')
        .values({ size, ed2k: '', crc32: '', md5: '', sha1: '', is_ignored: 0, is_variation: 0, created_at: stamp, updated_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('file_locations')
        .set({ file_id: file.id, mtime_ms: Math.round(mtimeMs), is_accessible: 1 })
        .where('id', '=', locationId)
        .execute();
      const left = await trx.selectFrom('file_locations').select('id').where('file_id', '=', location.file_id).executeTakeFirst();
      if (!left) await trx.deleteFrom('files').where('id', '=', location.file_id).execute();
    });
  }

  async location(id: number): Promise<LocationWithFolder | null> {
    const row = await this.db
      .selectFrom('file_locations')
      .innerJoin('import_folders', 'import_folders.id', 'file_locations.import_folder_id')
      .selectAll('file_locations')
      .select(FOLDER_COLUMNS)
      .where('file_locations.id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  async locationsOfFiles(fileIds: number[]): Promise<LocationWithFolder[]> {
    const locations = () =>
      this.db
        .selectFrom('file_locations')
        .innerJoin('import_folders', 'import_folders.id', 'file_locations.import_folder_id')
        .selectAll('file_locations')
        .select(FOLDER_COLUMNS)
        .orderBy('file_locations.id');
    // In slices: SQLite limits the number of bound values in one statement.
    return byIds(
      fileIds,
      (row) => row.file_id,
      (slice) => locations().where('file_locations.file_id', 'in', slice).execute(),
      () => locations().execute(),
    );
  }

  async file(id: number): Promise<FileRow | null> {
    return (await this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  filesByIds(ids: number[]): Promise<FileRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('files').selectAll().where('id', 'in', ids).execute();
  }

  allFiles(): Promise<FileRow[]> {
    return this.db.selectFrom('files').selectAll().execute();
  }

  async fileByHash(column: 'ed2k' | 'crc32' | 'md5' | 'sha1', hash: string, size: number): Promise<FileRow | null> {
    return (await this.db.selectFrom('files').selectAll().where(column, '=', hash).where('size', '=', size).executeTakeFirst()) ?? null;
  }

  /** The content (ED2K and size) AniDB knows under a file id, or null. */
  async anidbFileContent(anidbFileId: number): Promise<{ ed2k: string; size: number } | null> {
    const row = await this.db.selectFrom('anidb_files').select(['ed2k', 'size']).where('file_id', '=', anidbFileId).executeTakeFirst();
    return row ? { ed2k: row.ed2k, size: Number(row.size) } : null;
  }

  /** The file record of a content, or null. */
  fileOfContent(ed2k: string, size: number): Promise<FileRow | null> {
    return this.fileByHash('ed2k', ed2k, size);
  }

  /**
   * Candidate locations whose relative path ends with `tail` in lower case, with their folder; the caller checks the
   * whole absolute path. SQLite's lower() folds only ASCII letters, so any other character matches as a wildcard here.
   */
  locationsEndingWith(tail: string): Promise<LocationWithFolder[]> {
    const escaped = [...tail.toLowerCase()].map((c) => (c.charCodeAt(0) > 0x7f ? '_' : /[\\%_]/.test(c) ? `\\${c}` : c)).join('');
    const pattern = `%${escaped}`;
    return this.db
      .selectFrom('file_locations')
      .innerJoin('import_folders', 'import_folders.id', 'file_locations.import_folder_id')
      .selectAll('file_locations')
      .select(FOLDER_COLUMNS)
      .where(sql<boolean>`lower(file_locations.relative_path) like ${pattern} escape '\\'`)
      .orderBy('file_locations.id')
      .execute();
  }

  /** Every location with its folder (the regex path searches test them all). */
  allLocations(): Promise<LocationWithFolder[]> {
    return this.db
      .selectFrom('file_locations')
      .innerJoin('import_folders', 'import_folders.id', 'file_locations.import_folder_id')
      .selectAll('file_locations')
      .select(FOLDER_COLUMNS)
      .orderBy('file_locations.id')
      .execute();
  }

  /** The Shoko episodes a content is linked to, with their AniDB anime, in link order. */
  async episodesOfContent(ed2k: string, size: number): Promise<Array<{ episodeId: number; animeId: number }>> {
    const rows = await this.db
      .selectFrom('file_episode_links as l')
      .innerJoin('episodes as e', 'e.anidb_episode_id', 'l.episode_id')
      .innerJoin('series as s', 's.id', 'e.series_id')
      .select(['e.id as episodeId', 's.anime_id as animeId', 'l.id as linkId'])
      .where('l.ed2k', '=', ed2k)
      .where('l.size', '=', size)
      .orderBy('l.ordering')
      .orderBy('l.id')
      .execute();
    const seen = new Set<number>();
    return rows
      .filter((row) => !seen.has(row.episodeId) && seen.add(row.episodeId))
      .map((row) => ({ episodeId: Number(row.episodeId), animeId: Number(row.animeId) }));
  }

  /** The AniDB anime of each content's first link (`ed2k:size` → anime id); contents without links are absent. */
  async firstAnimeOfContents(hashes: string[]): Promise<Map<string, number>> {
    const first = new Map<string, number>();
    for (let i = 0; i < hashes.length; i += CHUNK) {
      const rows = await this.db
        .selectFrom('file_episode_links')
        .select(['ed2k', 'size', 'anime_id'])
        .where('ed2k', 'in', hashes.slice(i, i + CHUNK))
        .orderBy('ordering')
        .orderBy('id')
        .execute();
      for (const row of rows) {
        const key = `${row.ed2k}:${Number(row.size)}`;
        if (!first.has(key)) first.set(key, Number(row.anime_id));
      }
    }
    return first;
  }

  unhashedLocationIds(): Promise<number[]> {
    return this.db
      .selectFrom('file_locations')
      .innerJoin('files', 'files.id', 'file_locations.file_id')
      .select('file_locations.id')
      .innerJoin('import_folders', 'import_folders.id', 'file_locations.import_folder_id')
      .where('files.ed2k', '=', '')
      .where('file_locations.is_accessible', '=', 1)
      .where('import_folders.is_available', '=', 1)
      .execute()
      .then((rows) => rows.map((row) => row.id));
  }

  /**
   * A file row and a location row for each newly seen path, in batched transactions. Returns the location ids. Each
   * batch is two multi-row inserts (a scan records thousands of files; a statement per row was ~1 ms of the event loop
   * per file): the files' ids come back in the order of the rows given, as both databases number a multi-row insert
   * in order, and the locations are matched to them by file id. A path recorded meanwhile (a watcher and a scan at
   * once) keeps its location, and the file made for it here is removed again.
   */
  async createDiscovered(folderId: number, found: DiscoveredFile[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < found.length; i += CHUNK) {
      const chunk = found.slice(i, i + CHUNK);
      await this.db.transaction().execute(async (trx) => {
        const stamp = now();
        const files = await trx
          .insertInto('files')
          .values(
            chunk.map((entry) => ({
              size: entry.size,
              ed2k: '',
              crc32: '',
              md5: '',
              sha1: '',
              is_ignored: 0,
              is_variation: 0,
              created_at: stamp,
              updated_at: stamp,
            })),
          )
          .returning('id')
          .execute();
        const fileIds = files.map((file) => file.id).sort((a, b) => a - b);
        const locations = await trx
          .insertInto('file_locations')
          .values(
            chunk.map((entry, n) => ({
              file_id: fileIds[n],
              import_folder_id: folderId,
              relative_path: entry.relativePath,
              is_accessible: 1,
              mtime_ms: Math.round(entry.mtimeMs),
            })),
          )
          .onConflict((conflict) => conflict.columns(['import_folder_id', 'relative_path']).doNothing())
          .returning(['id', 'file_id'])
          .execute();
        const locationOfFile = new Map(locations.map((location) => [location.file_id, location.id]));
        const unused = fileIds.filter((fileId) => !locationOfFile.has(fileId));
        if (unused.length) await trx.deleteFrom('files').where('id', 'in', unused).execute();
        for (const fileId of fileIds) {
          const locationId = locationOfFile.get(fileId);
          if (locationId !== undefined) ids.push(locationId);
        }
      });
    }
    return ids;
  }

  async setAccessible(locationIds: number[], accessible: boolean): Promise<void> {
    for (let i = 0; i < locationIds.length; i += CHUNK) {
      await this.db
        .updateTable('file_locations')
        .set({ is_accessible: accessible ? 1 : 0 })
        .where('id', 'in', locationIds.slice(i, i + CHUNK))
        .execute();
    }
  }

  /**
   * Stores the hashes of a location's content. When the same content (ED2K + size) already has a record, the
   * location joins it — a moved file keeps its record, a second copy becomes a second location — and locations of
   * that record whose files are gone are dropped. The location keeps the modification time its content was hashed at,
   * so a later scan can tell it changed; all of it in one transaction, so a stop never leaves a file half recorded.
   */
  async applyHashes(
    locationId: number,
    size: number,
    hashes: StoredHashes,
    mtimeMs: number,
  ): Promise<{ fileId: number; merged: boolean; otherLocations: number }> {
    return this.db.transaction().execute(async (trx) => {
      const location = await trx.selectFrom('file_locations').selectAll().where('id', '=', locationId).executeTakeFirstOrThrow();
      await trx
        .updateTable('file_locations')
        .set({ mtime_ms: Math.round(mtimeMs) })
        .where('id', '=', locationId)
        .execute();
      const existing = await trx
        .selectFrom('files')
        .selectAll()
        .where('ed2k', '=', hashes.ED2K)
        .where('size', '=', size)
        .where('id', '!=', location.file_id)
        .executeTakeFirst();
      if (!existing) {
        await trx
          .updateTable('files')
          .set({
            size,
            ed2k: hashes.ED2K,
            ed2k_alternate: hashes.ED2KAlternate,
            crc32: hashes.CRC32,
            md5: hashes.MD5,
            sha1: hashes.SHA1,
            updated_at: now(),
          })
          .where('id', '=', location.file_id)
          .execute();
        return { fileId: location.file_id, merged: false, otherLocations: 0 };
      }
      // Locations in an offline folder are not gone, whatever they were marked before it went (issue 49).
      await trx
        .deleteFrom('file_locations')
        .where('file_id', '=', existing.id)
        .where('is_accessible', '=', 0)
        .where('import_folder_id', 'in', trx.selectFrom('import_folders').select('id').where('is_available', '=', 1))
        .execute();
      await trx.updateTable('file_locations').set({ file_id: existing.id }).where('id', '=', locationId).execute();
      const left = await trx.selectFrom('file_locations').select('id').where('file_id', '=', location.file_id).executeTakeFirst();
      if (!left) await trx.deleteFrom('files').where('id', '=', location.file_id).execute();
      const fill = {
        crc32: existing.crc32 || hashes.CRC32,
        md5: existing.md5 || hashes.MD5,
        sha1: existing.sha1 || hashes.SHA1,
        ed2k_alternate: existing.ed2k_alternate ?? hashes.ED2KAlternate,
        updated_at: now(),
      };
      await trx.updateTable('files').set(fill).where('id', '=', existing.id).execute();
      const others = await trx
        .selectFrom('file_locations')
        .select('id')
        .where('file_id', '=', existing.id)
        .where('id', '!=', locationId)
        .execute();
      return { fileId: existing.id, merged: true, otherLocations: others.length };
    });
  }

  async setMediaInfo(fileId: number, mediaInfo: unknown): Promise<void> {
    await this.db
      .updateTable('files')
      .set({ media_info: JSON.stringify(mediaInfo), updated_at: now() })
      .where('id', '=', fileId)
      .execute();
  }

  async setFlag(fileId: number, flag: 'is_ignored' | 'is_variation', value: boolean): Promise<void> {
    await this.db
      .updateTable('files')
      .set({ [flag]: value ? 1 : 0, updated_at: now() })
      .where('id', '=', fileId)
      .execute();
  }

  /** Removes a location record; the file record goes too when it was the last one. Returns whether it did. */
  async removeLocation(locationId: number): Promise<{ fileRemoved: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const location = await trx.selectFrom('file_locations').select('file_id').where('id', '=', locationId).executeTakeFirst();
      if (!location) return { fileRemoved: false };
      await trx.deleteFrom('file_locations').where('id', '=', locationId).execute();
      const left = await trx.selectFrom('file_locations').select('id').where('file_id', '=', location.file_id).executeTakeFirst();
      if (left) return { fileRemoved: false };
      await trx.deleteFrom('files').where('id', '=', location.file_id).execute();
      return { fileRemoved: true };
    });
  }
}
