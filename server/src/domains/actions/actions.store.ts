import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** A file's content key (what MyList commands are about). */
export interface FileContent {
  ed2k: string;
  size: number;
}

/** A stored location with its import folder's path and its file's content key. */
export interface LocationOnDisk extends FileContent {
  id: number;
  file_id: number;
  import_folder_id: number;
  relative_path: string;
  folder_path: string;
}

/** SQL behind the bulk actions: which folders, files, series and TMDB entries an action walks over. */
export class ActionsStore {
  constructor(private readonly db: Kysely<Database>) {}

  async importFolderIds(): Promise<number[]> {
    return (await this.db.selectFrom('import_folders').select('id').execute()).map((row) => row.id);
  }

  /** Contents the user linked by hand (distinct). */
  async manuallyLinkedContents(): Promise<FileContent[]> {
    return this.db.selectFrom('file_episode_links').select(['ed2k', 'size']).where('source', '=', 'User').distinct().execute();
  }

  /** Contents of stored files that are linked to at least one episode (distinct). */
  async linkedFileContents(): Promise<FileContent[]> {
    return this.db
      .selectFrom('files as f')
      .innerJoin('file_episode_links as l', (j) => j.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .select(['f.ed2k', 'f.size'])
      .distinct()
      .execute();
  }

  async seriesAnimeIds(): Promise<number[]> {
    return (await this.db.selectFrom('series').select('anime_id').execute()).map((row) => row.anime_id);
  }

  /** Anime of the collection linked to neither a TMDB show nor a TMDB movie. */
  async animeIdsWithoutTmdbLink(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('series as s')
      .select('s.anime_id')
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('xref_anidb_tmdb_show as x').select('x.anime_id').whereRef('x.anime_id', '=', 's.anime_id'))),
      )
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('xref_anidb_tmdb_movie as m').select('m.anime_id').whereRef('m.anime_id', '=', 's.anime_id'))),
      )
      .execute();
    return rows.map((row) => row.anime_id);
  }

  async tmdbShowIds(): Promise<number[]> {
    return (await this.db.selectFrom('tmdb_shows').select('id').execute()).map((row) => row.id);
  }

  async tmdbMovieIds(): Promise<number[]> {
    return (await this.db.selectFrom('tmdb_movies').select('id').execute()).map((row) => row.id);
  }

  /** Files whose hash is known. */
  async hashedFileIds(): Promise<number[]> {
    return (await this.db.selectFrom('files').select('id').where('ed2k', '<>', '').execute()).map((row) => row.id);
  }

  async locationsOnDisk(): Promise<LocationOnDisk[]> {
    return this.db
      .selectFrom('file_locations as l')
      .innerJoin('import_folders as f', 'f.id', 'l.import_folder_id')
      .innerJoin('files as file', 'file.id', 'l.file_id')
      .select(['l.id', 'l.file_id', 'l.import_folder_id', 'l.relative_path', 'f.path as folder_path', 'file.ed2k', 'file.size'])
      .execute();
  }

  /** Location records per import folder, for the given folders. */
  async locationCounts(folderIds: number[]): Promise<Map<number, number>> {
    if (!folderIds.length) return new Map();
    const rows = await this.db
      .selectFrom('file_locations')
      .select(['import_folder_id as folderId', (eb) => eb.fn.countAll<number>().as('count')])
      .where('import_folder_id', 'in', folderIds)
      .groupBy('import_folder_id')
      .execute();
    return new Map(rows.map((row) => [row.folderId, Number(row.count)]));
  }

  async fileHasLocations(fileId: number): Promise<boolean> {
    return !!(await this.db.selectFrom('file_locations').select('id').where('file_id', '=', fileId).executeTakeFirst());
  }

  async deleteFile(fileId: number): Promise<void> {
    await this.db.deleteFrom('files').where('id', '=', fileId).execute();
  }
}
