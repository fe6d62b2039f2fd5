import type { Kysely } from 'kysely';
import type { Database, ImportFoldersTable } from '../../db/schema.js';

export type ImportFolderRow = Omit<ImportFoldersTable, 'id'> & { id: number };
export type ImportFolderValues = Omit<ImportFolderRow, 'id'>;

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

  async update(id: number, values: ImportFolderValues): Promise<void> {
    await this.db.updateTable('import_folders').set(values).where('id', '=', id).execute();
  }

  /** Total bytes of the files located in each folder. */
  /** Bytes and series per folder: the sum of the files located there and the series their links reach. */
  async fileSizes(): Promise<Map<number, { bytes: number; series: number }>> {
    const rows = await this.db
      .selectFrom('file_locations')
      .innerJoin('files', 'files.id', 'file_locations.file_id')
      .select(['file_locations.import_folder_id as folderId', (eb) => eb.fn.sum<number>('files.size').as('bytes')])
      .groupBy('file_locations.import_folder_id')
      .execute();
    const series = await this.db
      .selectFrom('file_locations')
      .innerJoin('files', 'files.id', 'file_locations.file_id')
      .innerJoin('file_episode_links', (join) =>
        join.onRef('file_episode_links.ed2k', '=', 'files.ed2k').onRef('file_episode_links.size', '=', 'files.size'),
      )
      .innerJoin('series', 'series.anime_id', 'file_episode_links.anime_id')
      .select(['file_locations.import_folder_id as folderId', (eb) => eb.fn.count<number>('series.id').distinct().as('count')])
      .groupBy('file_locations.import_folder_id')
      .execute();
    const seriesByFolder = new Map(series.map((row) => [row.folderId, Number(row.count)]));
    return new Map(rows.map((row) => [row.folderId, { bytes: Number(row.bytes ?? 0), series: seriesByFolder.get(row.folderId) ?? 0 }]));
  }

  /**
   * Removes the folder and its location records; with `removeRecords` also the files left with no location.
   * Files on disk are never touched. One transaction: a crash leaves the folder either whole or gone.
   */
  async delete(id: number, removeRecords: boolean): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (removeRecords) {
        const fileIds = (await trx.selectFrom('file_locations').select('file_id').where('import_folder_id', '=', id).execute()).map(
          (r) => r.file_id,
        );
        await trx.deleteFrom('file_locations').where('import_folder_id', '=', id).execute();
        if (fileIds.length) {
          for (let i = 0; i < fileIds.length; i += 500) {
            const chunk = fileIds.slice(i, i + 500);
            await trx
              .deleteFrom('files')
              .where('id', 'in', chunk)
              .where(({ not, exists, selectFrom }) =>
                not(exists(selectFrom('file_locations').select('id').whereRef('file_locations.file_id', '=', 'files.id'))),
              )
              .execute();
          }
        }
      } else {
        // Keeping records: the file rows (ids, flags, links) stay, so the same content found again under a new
        // folder joins them when hashed; the locations themselves cannot outlive their folder.
        await trx.deleteFrom('file_locations').where('import_folder_id', '=', id).execute();
      }
      await trx.deleteFrom('import_folders').where('id', '=', id).execute();
    });
  }
}
