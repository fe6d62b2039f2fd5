import path from 'node:path';
import type { Episode, File, FileAniDB, FileIncludeType, MediaInfo } from '@shoko-ts/contract';
import { notFound, textError, validationError } from '../../http/problem.js';
import { compilePattern, PatternError, runTextMatches } from '../../shared/text-match.js';
import type { FileRow, FilesStore, LocationWithFolder } from './files.store.js';
import type { FilesForLookups } from './files.types.js';

/** The hash lookups of `File/Hash/{algorithm}` and the exact length each takes (contract files.md F4–F7). */
export const HASH_ALGORITHMS = {
  ED2K: { column: 'ed2k', length: 32 },
  CRC32: { column: 'crc32', length: 8 },
  MD5: { column: 'md5', length: 32 },
  SHA1: { column: 'sha1', length: 40 },
} as const;
export type HashAlgorithm = keyof typeof HASH_ALGORITHMS;

const FILE_NOT_FOUND = 'No File entry for the given fileID';
const ANIDB_FILE_NOT_FOUND = 'No File.Anidb entry for the given fileID';

/** What the collection side answers for these lookups (set by the composition root). */
export interface FileLookupCollection {
  /** May this user see the AniDB anime (tag restrictions)? */
  animeAllowed(userId: number, animeId: number): Promise<boolean>;
  /** Episode models of Shoko episode ids for a user, in that order. */
  episodeModels(
    episodeIds: number[],
    userId: number,
    options: { includeAniDB: boolean; includeTMDB: boolean; includeXRefs: boolean },
  ): Promise<Episode[]>;
}

export interface FileShape {
  include: FileIncludeType[];
  includeDataFrom: string[];
  viewerId?: number;
}

/** `/`, `\` → the server's separator (contract files.md F39). */
const serverSeparators = (text: string) => text.replace(/[\\/]/g, path.sep);

/**
 * Lookups of single files by something other than their id: hashes, AniDB file ids, the end of a path or a regular
 * expression over paths; and the file's AniDB record, media info and episodes (contract files.md F4–F7, F14–F17,
 * F22, F39–F42, T4).
 */
export class FileLookups {
  collection: FileLookupCollection | null = null;

  constructor(
    private readonly store: FilesStore,
    private readonly files: FilesForLookups,
  ) {}

  async byHash(algorithm: HashAlgorithm, hash: string, size: number, shape: FileShape): Promise<File> {
    const { column, length } = HASH_ALGORITHMS[algorithm];
    if (hash.length !== length) throw validationError('hash', `The field hash must be a string with a length of ${length}.`);
    // Stored hashes are upper-case hex; a lower-case query finds them too.
    const row = size > 0 ? await this.store.fileByHash(column, hash.toUpperCase(), size) : null;
    if (!row) throw notFound('No File entry for the given hash and file size.');
    return (await this.files.modelsOf([row], shape))[0];
  }

  private async anidbRecord(content: { ed2k: string; size: number }): Promise<FileAniDB | null> {
    if (!content.ed2k) return null;
    const details = this.files.details;
    const records = details ? await details.anidbFiles([content]) : null;
    return (records?.get(`${content.ed2k}:${content.size}`) as FileAniDB | undefined) ?? null;
  }

  /** F14: AniDB's record of a local file. */
  async anidbOfFile(fileId: number): Promise<FileAniDB> {
    const record = await this.anidbRecord(await this.files.content(fileId));
    if (!record) throw notFound(ANIDB_FILE_NOT_FOUND);
    return record;
  }

  /** F15: an AniDB file record by AniDB file id. */
  async anidb(anidbFileId: number): Promise<FileAniDB> {
    const content = await this.store.anidbFileContent(anidbFileId);
    const record = content ? await this.anidbRecord(content) : null;
    if (!record) throw notFound(ANIDB_FILE_NOT_FOUND);
    return record;
  }

  /** F16/F17: the local file of an AniDB file id (the two 404 texts are the other way round in Shoko, kept so). */
  private async localOfAniDB(anidbFileId: number): Promise<FileRow> {
    const content = await this.store.anidbFileContent(anidbFileId);
    if (!content) throw notFound(FILE_NOT_FOUND);
    const row = await this.store.fileOfContent(content.ed2k, content.size);
    if (!row) throw notFound(ANIDB_FILE_NOT_FOUND);
    return row;
  }

  async fileOfAniDB(anidbFileId: number, shape: FileShape): Promise<File> {
    return (await this.files.modelsOf([await this.localOfAniDB(anidbFileId)], shape))[0];
  }

  async rescanAniDB(anidbFileId: number): Promise<void> {
    await this.files.rescan((await this.localOfAniDB(anidbFileId)).id);
  }

  /** F22: the stored media info; 500 text when the file was never analysed. */
  async mediaInfo(fileId: number): Promise<MediaInfo> {
    const row = await this.store.file(fileId);
    if (!row) throw notFound(FILE_NOT_FOUND);
    let media: MediaInfo | null = null;
    try {
      media = row.media_info ? (JSON.parse(row.media_info) as MediaInfo) : null;
    } catch {
      media = null;
    }
    if (!media) throw textError(500, 'Unable to find media container for File');
    return media;
  }

  /** T4: the episodes a file is linked to; 403 when any of their series is hidden from the user. */
  async episodes(
    fileId: number,
    userId: number,
    options: { includeFiles: boolean; includeXRefs: boolean; includeAniDB: boolean; includeTMDB: boolean; files: FileShape },
  ): Promise<Episode[]> {
    const row = await this.store.file(fileId);
    if (!row) throw notFound(FILE_NOT_FOUND);
    const linked = row.ed2k ? await this.store.episodesOfContent(row.ed2k, row.size) : [];
    if (!linked.length || !this.collection) return [];
    for (const animeId of new Set(linked.map((l) => l.animeId))) {
      if (!(await this.collection.animeAllowed(userId, animeId)))
        throw textError(403, 'Accessing File is not allowed for the current user');
    }
    const episodes = await this.collection.episodeModels(
      linked.map((l) => l.episodeId),
      userId,
      options,
    );
    if (options.includeFiles) {
      for (const episode of episodes) {
        const contents = await this.files.contentsOf('episode', episode.IDs.ID);
        episode.Files = (
          await this.files.list({
            page: 1,
            pageSize: 0,
            include: options.files.include,
            exclude: [],
            includeOnly: [],
            sortOrder: [],
            contents,
            includeDataFrom: options.files.includeDataFrom,
            viewerId: userId,
          })
        ).List;
      }
    }
    return episodes;
  }

  /** Drops files whose first linked series the user may not see (path searches check only that one, F39–F42). */
  private async visible(rows: FileRow[], userId: number | undefined): Promise<FileRow[]> {
    if (userId === undefined || !this.collection) return rows;
    const first = await this.store.firstAnimeOfContents([...new Set(rows.map((r) => r.ed2k).filter(Boolean))]);
    const allowed = new Map<number, boolean>();
    const kept: FileRow[] = [];
    for (const row of rows) {
      const animeId = first.get(`${row.ed2k}:${row.size}`);
      if (animeId !== undefined) {
        if (!allowed.has(animeId)) allowed.set(animeId, await this.collection.animeAllowed(userId, animeId));
        if (!allowed.get(animeId)) continue;
      }
      kept.push(row);
    }
    return kept;
  }

  /** The distinct files of these locations, in location order. */
  private async filesOf(locations: LocationWithFolder[]): Promise<FileRow[]> {
    const ids = [...new Set(locations.map((l) => l.file_id))];
    const rows = new Map<number, FileRow>();
    for (let i = 0; i < ids.length; i += 5000) for (const row of await this.store.filesByIds(ids.slice(i, i + 5000))) rows.set(row.id, row);
    return ids.map((id) => rows.get(id)).filter((row) => row !== undefined);
  }

  /**
   * F39/F40: files with a location whose absolute path ends with `text` (either slash, any case). An empty text, or
   * one ending in a separator, names no file.
   */
  async pathEndsWith(text: string, options: FileShape & { limit: number }): Promise<File[]> {
    const tail = serverSeparators(text);
    const fileName = tail.slice(tail.lastIndexOf(path.sep) + 1);
    if (!fileName) return [];
    const lowerTail = tail.toLowerCase();
    const locations = (await this.store.locationsEndingWith(fileName)).filter((l) =>
      path.join(l.folder_path, l.relative_path).toLowerCase().endsWith(lowerTail),
    );
    let rows = await this.visible(await this.filesOf(locations), options.viewerId);
    if (options.limit > 0) rows = rows.slice(0, options.limit);
    return this.files.modelsOf(rows, options);
  }

  /**
   * F41/F42: files with a location whose absolute path (or file name) matches a case-insensitive regular expression.
   * The pattern passes the filter expressions' guard (no nested repetition or back-references, bounded length) and
   * runs in a worker with a time limit; a refused or invalid pattern is a 400 naming `path`.
   */
  async pathRegex(pattern: string, target: 'path' | 'name', viewerId?: number): Promise<File[]> {
    try {
      compilePattern(pattern, true);
    } catch (error) {
      if (error instanceof PatternError) throw validationError('path', error.message);
      throw error;
    }
    const locations = await this.store.allLocations();
    if (!locations.length) return [];
    const values = locations.map((l) => (target === 'path' ? path.join(l.folder_path, l.relative_path) : path.basename(l.relative_path)));
    let flags: Uint8Array;
    try {
      [flags] = await runTextMatches([{ kind: 'regex', pattern, ignoreCase: true, values, needles: null }]);
    } catch (error) {
      if (error instanceof PatternError) throw validationError('path', error.message);
      throw error;
    }
    const rows = await this.visible(await this.filesOf(locations.filter((_, i) => flags[i] === 1)), viewerId);
    return this.files.modelsOf(rows, { include: ['XRefs'], includeDataFrom: [], viewerId });
  }
}
