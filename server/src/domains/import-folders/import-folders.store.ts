import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, ImportFoldersTable } from '../../db/schema.js';

export type ImportFolderRow = Selectable<ImportFoldersTable>;
/** What an admin sets; the availability columns are the server's own. */
export type ImportFolderValues = Pick<ImportFolderRow, 'name' | 'path' | 'is_drop_source' | 'is_drop_destination' | 'watch_for_new_files'>;
export type FolderAvailabilityValues = Pick<ImportFolderRow, 'is_available' | 'unavailable_since' | 'unavailable_reason'>;

/** SQL of import folders. */
export class ImportFoldersStore {
  constructor(private readonly db: Kysely<Database>) {}

  list(): Promise<ImportFolderRow[]> {
    return this.db.selectFrom('import_folders').selectAll().orderBy('id').execute();
  }

  async get(id: number): Promise<ImportFolderRow | null> {
    return (await this.db.selectFrom('import_folders').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async insert(values: ImportFolderValues): Promise<ImportFolderRow> {
    return this.db.insertInto('import_folders').values(values).returningAll().executeTakeFirstOrThrow();
  }

  /** Saving a folder also forgets the device it was seen on: a folder saved on purpose is taken where it now is. */
  async update(id: number, values: ImportFolderValues): Promise<void> {
    await this.db
      .updateTable('import_folders')
      .set({ ...values, device_id: null })
      .where('id', '=', id)
      .execute();
  }

  async setAvailability(id: number, values: FolderAvailabilityValues): Promise<void> {
    await this.db.updateTable('import_folders').set(values).where('id', '=', id).execute();
  }

  async setDevice(id: number, device: string): Promise<void> {
    await this.db.updateTable('import_folders').set({ device_id: device }).where('id', '=', id).execute();
  }

  /** Location records in a folder. */
  async locationCount(id: number): Promise<number> {
    const row = await this.db
      .selectFrom('file_locations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('import_folder_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The folder's location records, and how many file records have no location elsewhere (they go with them). */
  async recordCounts(id: number): Promise<{ locations: number; files: number }> {
    const locations = await this.db
      .selectFrom('file_locations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('import_folder_id', '=', id)
      .executeTakeFirstOrThrow();
    const files = await this.db
      .selectFrom('file_locations as l')
      .select((eb) => eb.fn.count<number>('l.file_id').distinct().as('count'))
      .where('l.import_folder_id', '=', id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('file_locations as other')
              .select('other.id')
              .whereRef('other.file_id', '=', 'l.file_id')
              .where('other.import_folder_id', '<>', id),
          ),
        ),
      )
      .executeTakeFirstOrThrow();
    return { locations: Number(locations.count), files: Number(files.count) };
  }

  /** Removes the folder's location records and the file records left without a location; the folder stays. */
  async removeRecords(id: number): Promise<{ locations: number; files: number }> {
    return this.db.transaction().execute((trx) => removeLocationsOf(trx, id, true));
  }

  /** Bytes per folder: the sum of the sizes of the files located there (a join over every location). */
  async folderBytes(): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('file_locations')
      .innerJoin('files', 'files.id', 'file_locations.file_id')
      .select(['file_locations.import_folder_id as folderId', (eb) => eb.fn.sum<number>('files.size').as('bytes')])
      .groupBy('file_locations.import_folder_id')
      .execute();
    return new Map(rows.map((row) => [row.folderId, Number(row.bytes ?? 0)]));
  }

  /** Series per folder: the series the links of the files located there reach. */
  async folderSeries(): Promise<Map<number, number>> {
    // The series per folder are a maintained figure (series_file_folders, migration 0039) whenever no series waits for
    // its figures: a read of a few thousand rows instead of a join over every file (0.6–0.9 s at 100,000 files, on
    // every dashboard and file page). With series marked, the figure may be behind: counted from the files instead.
    const marked = await this.db.selectFrom('aggregate_dirty_series').select('series_id').limit(1).executeTakeFirst();
    const series = marked
      ? await this.db
          .selectFrom('file_locations')
          .innerJoin('files', 'files.id', 'file_locations.file_id')
          .innerJoin('file_episode_links', (join) =>
            join.onRef('file_episode_links.ed2k', '=', 'files.ed2k').onRef('file_episode_links.size', '=', 'files.size'),
          )
          .innerJoin('series', 'series.anime_id', 'file_episode_links.anime_id')
          .select(['file_locations.import_folder_id as folderId', (eb) => eb.fn.count<number>('series.id').distinct().as('count')])
          .groupBy('file_locations.import_folder_id')
          .execute()
      : await this.db
          .selectFrom('series_file_folders')
          .select(['import_folder_id as folderId', (eb) => eb.fn.countAll<number>().as('count')])
          .where('location_count', '>', 0)
          .groupBy('import_folder_id')
          .execute();
    return new Map(series.map((row) => [row.folderId, Number(row.count)]));
  }

  /**
   * Removes the folder and its location records; with `removeRecords` also the files left with no location.
   * Files on disk are never touched. One transaction: a crash leaves the folder either whole or gone.
   */
  async delete(id: number, removeRecords: boolean): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Keeping records: the file rows (ids, flags, links) stay, so the same content found again under a new folder
      // joins them when hashed; the locations themselves cannot outlive their folder.
      await removeLocationsOf(trx, id, removeRecords);
      await trx.deleteFrom('import_folders').where('id', '=', id).execute();
    });
  }
}

/** Deletes a folder's locations and, with `removeFiles`, the file records that had no other location. */
async function removeLocationsOf(
  trx: Transaction<Database>,
  id: number,
  removeFiles: boolean,
): Promise<{ locations: number; files: number }> {
  const fileIds = (await trx.selectFrom('file_locations').select('file_id').where('import_folder_id', '=', id).execute()).map(
    (r) => r.file_id,
  );
  await trx.deleteFrom('file_locations').where('import_folder_id', '=', id).execute();
  let files = 0;
  if (!removeFiles) return { locations: fileIds.length, files };
  for (let i = 0; i < fileIds.length; i += 500) {
    const removed = await trx
      .deleteFrom('files')
      .where('id', 'in', fileIds.slice(i, i + 500))
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('file_locations').select('id').whereRef('file_locations.file_id', '=', 'files.id'))),
      )
      .executeTakeFirst();
    files += Number(removed.numDeletedRows);
  }
  return { locations: fileIds.length, files };
}
