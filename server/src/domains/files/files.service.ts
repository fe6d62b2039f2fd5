/**
 * DESIGN — files domain: file records and their locations (`/api/v3/File*`, `ImportFolder/{id}/File`,
 * `Series/{id}/File*`, contract files.md): listing with filters, search and sort, flags, re-hash/re-scan and deletions
 * confined to import folders; scrobble.service.ts keeps each user's playback record. Routes: files.routes.ts,
 * scrobble.routes.ts; SQL: files.store.ts, file-list.store.ts, scrobble.store.ts. The import domain creates the
 * records, the metadata domain adds links and AniDB data (FileDetailsSource), AVDump adds its status.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type AVDumpInfo,
  type File,
  type FileIncludeType,
  type FileListQuery as FileListRequest,
  type FileLocation,
  type ListResult,
} from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { resumePositionText } from './scrobble.service.js';
import type { ListInSlices } from '../../http/list-in-slices.js';
import { badRequest, notFound, validationError } from '../../http/problem.js';
import { fileEvent } from './file-event.js';
import { fileListOptions } from './file-list-params.js';
import { FileLookups } from './file-lookups.js';
import type { FileDetailsSource, FileListQuery, FileModelShape, FileUserState } from './files.types.js';
import { FileStreams } from './file-stream.js';
import type { FileListStore } from './file-list.store.js';
import { isReachable, type FileRow, type FilesStore, type LocationWithFolder } from './files.store.js';

export type { FileDetailsSource, FileListQuery, FileUserState } from './files.types.js';

interface FileExtras {
  SeriesIDs?: unknown[];
  AniDB?: Record<string, unknown>;
  AVDump?: AVDumpInfo;
  User?: FileUserState;
}

const ZERO_DURATION = '00:00:00';
/** Files per slice of a whole list: one slice's rows, locations and extras are read in one go (see `wholeList`). */
export const WHOLE_LIST_SLICE = 2000;

function parseMediaInfo(row: FileRow): Record<string, unknown> | null {
  if (!row.media_info) return null;
  try {
    return JSON.parse(row.media_info) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** Rules of the files API: listing with the contract's filters and sort, flags, and deletions confined to import folders. */
export class FilesService {
  /** `File.AVDump` of files, from the AVDump domain (set once it exists). */
  avdumpInfo: ((fileIds: number[]) => Promise<Map<number, AVDumpInfo>>) | null = null;
  /**
   * Who may see what (series domain), once wired: the AniDB tag ids hidden from a user, whose files the lists leave
   * out (files.md §0.7), and the 404/403 checks of a series whose files are asked for.
   */
  visibility: {
    hiddenTags(userId: number): Promise<number[]>;
    checkSeries(userId: number | null, seriesId: number): Promise<void>;
  } | null = null;
  /** A user's records of files (scrobble domain), for the user fields of the File model. */
  userStates: ((userId: number, fileIds: number[]) => Promise<Map<number, FileUserState>>) | null = null;

  constructor(
    private readonly store: FilesStore,
    private readonly fileList: FileListStore,
    /** The import domain's hashing queue (import depends on files, not back). */
    private readonly importer: { queueRehash(locationId: number): Promise<void> },
    private readonly bus: EventBus,
    private readonly matching: {
      /** Which of these contents (`ed2k:size`) are linked to at least one episode. */
      isLinked(contents: Array<{ ed2k: string; size: number }>): Promise<Set<string>>;
      rescan(fileId: number): Promise<void>;
      /** The last copy of a content was deleted from disk (AniDB MyList follows per the settings). */
      removedFromDisk?(content: { ed2k: string; size: number }): Promise<void>;
      /** `SeriesIDs`, `AniDB` and the ManualLinks filter, from the metadata domain. */
      details?: FileDetailsSource;
    },
  ) {
    this.lookups = new FileLookups(store, this);
    this.streams = new FileStreams(store);
  }

  /** Which physical file answers the stream routes. */
  readonly streams: FileStreams;

  /** Lookups by hash, AniDB file id, path end or path regex; a file's AniDB record, media info and episodes. */
  readonly lookups: FileLookups;

  /** What the metadata domain adds to files (links, AniDB records), when wired. */
  get details(): FileDetailsSource | undefined {
    return this.matching.details;
  }

  toModel(row: FileRow, locations: LocationWithFolder[], include: Set<string>, extras: FileExtras = {}): File {
    const media = parseMediaInfo(row);
    const video = (media?.Video as Array<{ Resolution?: string }> | undefined)?.[0];
    const model: File = {
      ID: row.id,
      Size: row.size,
      IsVariation: row.is_variation === 1,
      IsIgnored: row.is_ignored === 1,
      Hashes: { ED2K: row.ed2k, SHA1: row.sha1, CRC32: row.crc32, MD5: row.md5 },
      Locations: locations.map((location) => this.locationModel(location, include.has('AbsolutePaths'))),
      AVDump: extras.AVDump ?? { Status: null, LastDumpedAt: null, LastVersion: null },
      Resolution: video?.Resolution ?? null,
      Duration: typeof media?.Duration === 'string' ? media.Duration : ZERO_DURATION,
      ResumePosition: extras.User ? resumePositionText(extras.User.resume_position_ms) : null,
      Viewed: extras.User ? new Date(extras.User.updated_at).toISOString() : null,
      Watched: extras.User?.watched_at ? new Date(extras.User.watched_at).toISOString() : null,
      Imported: row.imported_at,
      Created: row.created_at,
      Updated: row.updated_at,
    };
    if (include.has('XRefs')) model.SeriesIDs = extras.SeriesIDs ?? [];
    if (extras.AniDB) model.AniDB = extras.AniDB;
    if (include.has('MediaInfo') && media) model.MediaInfo = media;
    return model;
  }

  /** The metadata parts of a page of files, loaded in a few queries. */
  private async extrasOf(
    rows: FileRow[],
    include: Set<string>,
    dataFrom: Set<string>,
    viewerId?: number,
    knownCrossReferences?: Map<string, unknown[]>,
  ): Promise<Map<number, FileExtras>> {
    const details = this.matching.details;
    const result = new Map<number, FileExtras>();
    const ids = rows.map((r) => r.id);
    const contents = rows.filter((r) => r.ed2k).map((r) => ({ ed2k: r.ed2k, size: r.size }));
    // Separate reads, side by side (on PostgreSQL's pool; SQLite answers each at once).
    const [avdump, user, xrefs, anidb] = await Promise.all([
      this.avdumpInfo ? this.avdumpInfo(ids) : null,
      this.userStates && viewerId !== undefined && ids.length ? this.userStates(viewerId, ids) : null,
      details && include.has('XRefs') ? (knownCrossReferences ?? details.crossReferences(contents)) : null,
      details && dataFrom.has('AniDB') ? details.anidbFiles(contents) : null,
    ]);
    if (!details) {
      for (const row of rows) result.set(row.id, { AVDump: avdump?.get(row.id), User: user?.get(row.id) });
      return result;
    }
    for (const row of rows) {
      const key = `${row.ed2k}:${row.size}`;
      result.set(row.id, { SeriesIDs: xrefs?.get(key), AniDB: anidb?.get(key), AVDump: avdump?.get(row.id), User: user?.get(row.id) });
    }
    return result;
  }

  locationModel(location: LocationWithFolder, withAbsolutePath: boolean): FileLocation {
    return {
      ID: location.id,
      FileID: location.file_id,
      ImportFolderID: location.import_folder_id,
      RelativePath: location.relative_path,
      ...(withAbsolutePath ? { AbsolutePath: path.join(location.folder_path, location.relative_path) } : {}),
      IsAccessible: isReachable(location),
    };
  }

  async get(id: number, include: FileIncludeType[], includeDataFrom: string[] = [], viewerId?: number): Promise<File> {
    const row = await this.store.file(id);
    if (!row) throw notFound('No File entry for the given fileID');
    const includeSet = new Set<string>(include);
    const extras = await this.extrasOf([row], includeSet, new Set(includeDataFrom), viewerId);
    return this.toModel(row, await this.store.locationsOfFiles([id]), includeSet, extras.get(id));
  }

  /** File models of these rows, shaped as asked (one query per kind of extra, not per file). */
  async modelsOf(rows: FileRow[], shape: FileModelShape): Promise<File[]> {
    if (!rows.length) return [];
    const include = new Set<string>(shape.include);
    const [extras, locationRows] = await Promise.all([
      this.extrasOf(rows, include, new Set(shape.includeDataFrom), shape.viewerId, shape.crossReferences),
      this.store.locationsOfFiles(rows.map((r) => r.id)),
    ]);
    const locations = groupByFile(locationRows);
    return rows.map((row) => this.toModel(row, locations.get(row.id) ?? [], include, extras.get(row.id)));
  }

  /** The content (ED2K, empty until hashed, and size) of a file. */
  /** Which of these file ids are known. */
  async existingIds(fileIds: number[]): Promise<Set<number>> {
    return new Set((await this.store.filesByIds(fileIds)).map((f) => f.id));
  }

  /** Every location of these files, with its import folder. */
  locationsOf(fileIds: number[]): Promise<LocationWithFolder[]> {
    return this.store.locationsOfFiles(fileIds);
  }

  async exists(id: number): Promise<boolean> {
    return (await this.store.file(id)) !== null;
  }

  async content(id: number): Promise<{ ed2k: string; size: number }> {
    const row = await this.store.file(id);
    if (!row) throw notFound('No File entry for the given fileID');
    return { ed2k: row.ed2k, size: row.size };
  }

  /** T3: a folder's files (optionally under one sub-folder) oldest first, ignored ones included. */
  async listInFolder(
    folderId: number,
    options: {
      page: number;
      pageSize: number;
      folderPath?: string;
      include: FileIncludeType[];
      includeDataFrom: string[];
      viewerId?: number;
    },
  ): Promise<ListResult<File>> {
    const inFolder = await this.store.locationsInFolder(folderId);
    const subFolder = options.folderPath
      ?.split(/[\\/]+/)
      .filter(Boolean)
      .join(path.sep);
    const prefix = subFolder ? subFolder + path.sep : '';
    let fileIds = [...new Set(inFolder.filter((l) => l.relative_path.startsWith(prefix)).map((l) => l.file_id))];
    // Files.md §0.7: a user's tag restrictions hide files here too (Shoko's T3 does not filter).
    const hidden = await this.fileList.hiddenFiles(await this.hiddenTagsOf(options.viewerId));
    if (hidden.size) fileIds = fileIds.filter((id) => !hidden.has(id));
    const rows: FileRow[] = [];
    for (let i = 0; i < fileIds.length; i += 5000) rows.push(...(await this.store.filesByIds(fileIds.slice(i, i + 5000))));
    rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
    const page = options.pageSize === 0 ? rows : rows.slice((options.page - 1) * options.pageSize, options.page * options.pageSize);
    const include = new Set<string>(options.include);
    const extras = await this.extrasOf(page, include, new Set(options.includeDataFrom), options.viewerId);
    const locations = groupByFile(await this.store.locationsOfFiles(page.map((r) => r.id)));
    return { Total: rows.length, List: page.map((row) => this.toModel(row, locations.get(row.id) ?? [], include, extras.get(row.id))) };
  }

  /** The tag ids hidden from this user (none for no user or when nothing is wired). */
  private async hiddenTagsOf(viewerId: number | undefined): Promise<number[]> {
    return viewerId !== undefined && this.visibility ? this.visibility.hiddenTags(viewerId) : [];
  }

  /** A series' files for a user: the series' 404 and restricted-tag 403 first. */
  async contentsOfSeriesFor(viewerId: number | undefined, seriesId: number): Promise<Set<string>> {
    await this.visibility?.checkSeries(viewerId ?? null, seriesId);
    return this.contentsOf('series', seriesId);
  }

  async contentsOf(kind: 'series' | 'episode', id: number): Promise<Set<string>> {
    const details = this.matching.details;
    const contents = details ? await (kind === 'series' ? details.contentsOfSeries(id) : details.contentsOfEpisode(id)) : null;
    if (!contents)
      throw notFound(kind === 'series' ? 'No Series entry for the given seriesID' : 'No Episode entry for the given episodeID');
    return contents;
  }

  /** The contents linked to each episode; episodes without files map to nothing. */
  async contentsOfEpisodes(episodeIds: number[]): Promise<Map<number, Set<string>>> {
    return (await this.matching.details?.contentsOfEpisodes(episodeIds)) ?? new Map();
  }

  async getLocation(id: number): Promise<FileLocation> {
    const location = await this.store.location(id);
    if (!location) throw notFound('No File.Location entry for the given locationID.');
    return this.locationModel(location, true);
  }

  /** A File list request as the API takes it (`FileListQuery`): its enum lists are checked here (400 on an unknown value). */
  listFromQuery(
    query: FileListRequest,
    scope: { search?: string; contents?: Set<string>; viewerId?: number } = {},
  ): Promise<ListResult<File>> {
    return this.list({ ...fileListOptions(query), ...scope });
  }

  async list(query: FileListQuery): Promise<ListResult<File>> {
    const { total, ids } = await this.listIds(query, { page: query.page, pageSize: query.pageSize });
    return { Total: total, List: await this.modelsOfIds(ids, query) };
  }

  /** `listFromQuery` for a whole list (`pageSize` 0), built in slices (see `wholeList`). */
  wholeListFromQuery(
    query: FileListRequest,
    scope: { search?: string; contents?: Set<string>; viewerId?: number } = {},
  ): Promise<ListInSlices<File>> {
    return this.wholeList({ ...fileListOptions(query), ...scope });
  }

  /**
   * The whole list: its Total, and its models built a slice of ids at a time, each slice when the answer asks for it,
   * so a collection of 400,000 files is neither held as 400,000 models nor serialized into one string of 200 MB.
   */
  async wholeList(query: FileListQuery, sliceSize = WHOLE_LIST_SLICE): Promise<ListInSlices<File>> {
    const { total, ids } = await this.listIds(query, { page: 1, pageSize: 0 });
    const modelsOfIds = (slice: number[]) => this.modelsOfIds(slice, query);
    async function* slices() {
      for (let i = 0; i < ids.length; i += sliceSize) yield await modelsOfIds(ids.slice(i, i + sliceSize));
    }
    return { total, sliceCount: Math.ceil(ids.length / sliceSize), slices: slices() };
  }

  private async listIds(query: FileListQuery, page: { page: number; pageSize: number }) {
    const { include, exclude, includeOnly, search, contents } = query;
    const hiddenTags = await this.hiddenTagsOf(query.viewerId);
    return this.fileList.pageIds({ include, exclude, includeOnly, search, contents, hiddenTags }, query.sortOrder, page);
  }

  /**
   * `includeFiles` of a series' episode list: the files of each of these episodes (all of the series'), in the list's
   * default order, as the list of their contents answers them (ignored files and those hidden from the viewer left
   * out); episodes without files map to nothing.
   */
  async filesOfSeriesEpisodes(seriesId: number, episodeIds: number[], shape: FileModelShape): Promise<Map<number, File[]>> {
    const wanted = new Set(episodeIds);
    const pairs = (await this.fileList.seriesEpisodeFiles(seriesId, await this.hiddenTagsOf(shape.viewerId))).filter((pair) =>
      wanted.has(pair.episode_id),
    );
    const result = new Map<number, File[]>();
    if (!pairs.length) return result;
    const models = new Map(
      (await this.modelsOf(await this.fileList.rowsByIds([...new Set(pairs.map((p) => p.id))]), shape)).map((m) => [m.ID, m]),
    );
    // An episode linked to a content twice (an AniDB and a manual link) lists its file once.
    const seen = new Set<string>();
    for (const { episode_id: episodeId, id } of pairs) {
      const key = `${episodeId}:${id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const list = result.get(episodeId);
      if (list) list.push(models.get(id)!);
      else result.set(episodeId, [models.get(id)!]);
    }
    return result;
  }

  private async modelsOfIds(ids: number[], query: FileListQuery): Promise<File[]> {
    const rows = await this.fileList.rowsByIds(ids);
    return this.modelsOf(rows, {
      include: query.include,
      includeDataFrom: query.includeDataFrom ?? [],
      viewerId: query.viewerId,
      crossReferences: query.crossReferences,
    });
  }

  async setFlag(id: number, flag: 'is_ignored' | 'is_variation', value: boolean): Promise<void> {
    if (!(await this.store.file(id))) throw notFound('No File entry for the given fileID');
    await this.store.setFlag(id, flag, value);
  }

  async rehash(id: number): Promise<void> {
    const location = await this.firstAccessibleLocation(id);
    await this.importer.queueRehash(location.id);
  }

  async rescan(id: number): Promise<void> {
    await this.firstAccessibleLocation(id);
    const file = await this.store.file(id);
    if (!file?.ed2k) throw validationError('File', 'The file has not been hashed yet.');
    await this.matching.rescan(id);
  }

  /** Ids of every file of a series (the contents linked to any of its episodes). */
  async fileIdsOfSeries(seriesId: number): Promise<number[]> {
    const contents = await this.contentsOf('series', seriesId);
    return (await this.fileList.pageIds({ include: [], exclude: [], includeOnly: [], contents }, [], { page: 1, pageSize: 0 })).ids;
  }

  /** Series File Actions: an AniDB re-check of every hashed file. */
  async rescanSeries(seriesId: number): Promise<void> {
    for (const id of await this.fileIdsOfSeries(seriesId)) {
      const file = await this.store.file(id);
      if (file?.ed2k) await this.matching.rescan(id);
    }
  }

  /** Series File Actions: a forced re-hash of every file with a reachable copy. */
  async rehashSeries(seriesId: number): Promise<void> {
    const ids = await this.fileIdsOfSeries(seriesId);
    const locations = await this.store.locationsOfFiles(ids);
    const queued = new Set<number>();
    for (const location of locations) {
      if (!isReachable(location) || queued.has(location.file_id)) continue;
      queued.add(location.file_id);
      await this.importer.queueRehash(location.id);
    }
  }

  async firstAccessibleLocation(id: number): Promise<LocationWithFolder> {
    if (!(await this.store.file(id))) throw notFound('No File entry for the given fileID');
    const location = (await this.store.locationsOfFiles([id])).find(isReachable);
    if (!location) throw validationError('File', 'Unable to resolve file location.');
    return location;
  }

  /** Deletes every location of the given files; see deleteLocation for what leaves the disk. */
  async deleteFiles(ids: number[], options: { removeFiles: boolean; removeFolders: boolean }): Promise<void> {
    const missing = [];
    for (const id of ids) if (!(await this.store.file(id))) missing.push(`Unable to find a file with id ${id}`);
    if (missing.length) throw validationError({ fileIds: missing });
    const locations = await this.store.locationsOfFiles(ids);
    // Refused before anything is deleted, so a batch never stops half done at the first offline file.
    if (options.removeFiles) {
      const offline = locations.find((location) => !location.folder_available);
      if (offline) throw offlineDeletion(offline);
    }
    for (const location of locations) await this.removeLocation(location, options);
  }

  async deleteLocationById(id: number, options: { removeFiles: boolean; removeFolders: boolean }, skipUnknown = false): Promise<void> {
    const location = await this.store.location(id);
    if (!location) {
      if (skipUnknown) return;
      throw notFound('No File.Location entry for the given locationID.');
    }
    await this.removeLocation(location, options);
  }

  /**
   * Removes a location record, and the physical file only when `removeFiles` says so. The path must resolve inside
   * its import folder: a symlink pointing elsewhere is never followed for deletion.
   */
  private async removeLocation(location: LocationWithFolder, options: { removeFiles: boolean; removeFolders: boolean }): Promise<void> {
    let deletedFromDisk = false;
    // Forgetting the record would leave the file on the drive when it comes back, and the user believing it gone.
    if (options.removeFiles && !location.folder_available) throw offlineDeletion(location);
    if (options.removeFiles) {
      const root = await fs.realpath(location.folder_path);
      const target = path.join(location.folder_path, location.relative_path);
      const parent = await fs.realpath(path.dirname(target)).catch(() => null);
      if (parent && (parent + path.sep).startsWith(root + path.sep)) {
        await fs.unlink(target).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
        deletedFromDisk = true;
        if (options.removeFolders) await pruneEmptyDirectories(path.dirname(target), root);
      }
    }
    const file = deletedFromDisk ? await this.store.file(location.file_id) : null;
    await this.store.removeLocation(location.id);
    this.bus.emit('shoko', { event: 'FileDeleted', payload: fileEvent(location.file_id, location) });
    if (file?.ed2k && !(await this.store.locationsOfFiles([file.id])).length) {
      await this.matching.removedFromDisk?.({ ed2k: file.ed2k, size: file.size }).catch(() => undefined);
    }
  }
}

function offlineDeletion(location: LocationWithFolder) {
  return badRequest(`The import folder "${location.folder_name}" is offline: ${location.relative_path} cannot be deleted from disk now.`);
}

function groupByFile(locations: LocationWithFolder[]): Map<number, LocationWithFolder[]> {
  const byFile = new Map<number, LocationWithFolder[]>();
  for (const location of locations) {
    const list = byFile.get(location.file_id) ?? [];
    list.push(location);
    byFile.set(location.file_id, list);
  }
  return byFile;
}

async function pruneEmptyDirectories(start: string, root: string): Promise<void> {
  let dir = start;
  while (dir.startsWith(root + path.sep) && dir !== root) {
    const entries = await fs.readdir(dir).catch(() => null);
    if (!entries || entries.length) return;
    await fs.rmdir(dir).catch(() => undefined);
    dir = path.dirname(dir);
  }
}
