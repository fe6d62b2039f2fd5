import fs from 'node:fs/promises';
import path from 'node:path';
import {
  FILE_SORT_CRITERIA,
  type File,
  type FileExcludeType,
  type FileIncludeOnlyType,
  type FileIncludeType,
  type FileLocation,
  type ListResult,
} from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { notFound, validationError } from '../../http/problem.js';
import { fileEvent, type ImportService } from '../import/import.service.js';
import type { FileRow, FilesStore, LocationWithFolder } from './files.store.js';

export interface FileListQuery {
  page: number;
  pageSize: number;
  include: FileIncludeType[];
  includeOnly: FileIncludeOnlyType[];
  includeDataFrom?: string[];
  /** Only these contents (`ed2k:size`): the files of a series or an episode. */
  contents?: Set<string>;
  exclude: FileExcludeType[];
  sortOrder: string[];
  search?: string;
}

type Content = { ed2k: string; size: number };

/** What the metadata domain adds to files. */
export interface FileDetailsSource {
  crossReferences(contents: Content[]): Promise<Map<string, unknown[]>>;
  anidbFiles(contents: Content[]): Promise<Map<string, Record<string, unknown>>>;
  manuallyLinked(contents: Content[]): Promise<Set<string>>;
  /** `ed2k:size` of the contents linked to a series / an episode; null when there is no such series / episode. */
  contentsOfSeries(seriesId: number): Promise<Set<string> | null>;
  contentsOfEpisode(episodeId: number): Promise<Set<string> | null>;
}

interface FileExtras {
  SeriesIDs?: unknown[];
  AniDB?: Record<string, unknown>;
}

interface Candidate {
  row: FileRow;
  locations: LocationWithFolder[];
}

const ZERO_DURATION = '00:00:00';

/** .NET TimeSpan text of seconds, as Shoko serialises durations. */
function timeSpan(seconds: number): string {
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const fraction = Math.round((seconds - whole) * 1e7);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${fraction ? `.${String(fraction).padStart(7, '0')}` : ''}`;
}

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
  constructor(
    private readonly store: FilesStore,
    private readonly importer: ImportService,
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
  ) {}

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
      AVDump: { Status: null, LastDumpedAt: null, LastVersion: null },
      Resolution: video?.Resolution ?? null,
      Duration: typeof media?.Duration === 'string' ? media.Duration : ZERO_DURATION,
      ResumePosition: null,
      Viewed: null,
      Watched: null,
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
  private async extrasOf(rows: FileRow[], include: Set<string>, dataFrom: Set<string>): Promise<Map<number, FileExtras>> {
    const details = this.matching.details;
    const result = new Map<number, FileExtras>();
    if (!details) return result;
    const contents = rows.filter((r) => r.ed2k).map((r) => ({ ed2k: r.ed2k, size: r.size }));
    const xrefs = include.has('XRefs') ? await details.crossReferences(contents) : null;
    const anidb = dataFrom.has('AniDB') ? await details.anidbFiles(contents) : null;
    for (const row of rows) {
      const key = `${row.ed2k}:${row.size}`;
      result.set(row.id, { SeriesIDs: xrefs?.get(key), AniDB: anidb?.get(key) });
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
      IsAccessible: location.is_accessible === 1,
    };
  }

  async get(id: number, include: FileIncludeType[], includeDataFrom: string[] = []): Promise<File> {
    const row = await this.store.file(id);
    if (!row) throw notFound('No File entry for the given fileID');
    const includeSet = new Set<string>(include);
    const extras = await this.extrasOf([row], includeSet, new Set(includeDataFrom));
    return this.toModel(row, await this.store.locationsOfFiles([id]), includeSet, extras.get(id));
  }

  /** T3: a folder's files (optionally under one sub-folder) oldest first, ignored ones included. */
  async listInFolder(folderId: number, options: { page: number; pageSize: number; folderPath?: string; include: FileIncludeType[]; includeDataFrom: string[] }): Promise<ListResult<File>> {
    const locations = (await this.store.locationsOfFiles((await this.store.allFiles()).map((r) => r.id))).filter((l) => l.import_folder_id === folderId);
    const subFolder = options.folderPath?.split(/[\\/]+/).filter(Boolean).join(path.sep);
    const prefix = subFolder ? subFolder + path.sep : '';
    const fileIds = [...new Set(locations.filter((l) => l.relative_path.startsWith(prefix)).map((l) => l.file_id))];
    const rows = (await Promise.all(fileIds.map((id) => this.store.file(id)))).filter((r): r is FileRow => r !== null);
    rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
    const page = options.pageSize === 0 ? rows : rows.slice((options.page - 1) * options.pageSize, options.page * options.pageSize);
    const include = new Set<string>(options.include);
    const extras = await this.extrasOf(page, include, new Set(options.includeDataFrom));
    const allLocations = await this.store.locationsOfFiles(page.map((r) => r.id));
    return {
      Total: rows.length,
      List: page.map((row) => this.toModel(row, allLocations.filter((l) => l.file_id === row.id), include, extras.get(row.id))),
    };
  }

  async contentsOf(kind: 'series' | 'episode', id: number): Promise<Set<string>> {
    const details = this.matching.details;
    const contents = details ? await (kind === 'series' ? details.contentsOfSeries(id) : details.contentsOfEpisode(id)) : null;
    if (!contents) throw notFound(kind === 'series' ? 'No Series entry for the given seriesID' : 'No Episode entry for the given episodeID');
    return contents;
  }

  async getLocation(id: number): Promise<FileLocation> {
    const location = await this.store.location(id);
    if (!location) throw notFound('No File.Location entry for the given locationID.');
    return this.locationModel(location, true);
  }

  async list(query: FileListQuery): Promise<ListResult<File>> {
    const rows = await this.store.allFiles();
    const locationsByFile = new Map<number, LocationWithFolder[]>();
    for (const location of await this.store.locationsOfFiles(rows.map((r) => r.id))) {
      const list = locationsByFile.get(location.file_id) ?? [];
      list.push(location);
      locationsByFile.set(location.file_id, list);
    }
    let candidates: Candidate[] = rows.map((row) => ({ row, locations: locationsByFile.get(row.id) ?? [] }));
    const only = new Set(query.includeOnly);
    const exclude = new Set(query.exclude);
    const include = new Set<string>(query.include);
    const linked = await this.matching.isLinked(candidates.map((c) => ({ ed2k: c.row.ed2k, size: c.row.size })));
    const hasLinks = (c: Candidate) => linked.has(`${c.row.ed2k}:${c.row.size}`);
    if (only.has('Ignored')) candidates = candidates.filter((c) => c.row.is_ignored === 1);
    else if (!include.has('Ignored')) candidates = candidates.filter((c) => c.row.is_ignored === 0);
    if (only.has('Duplicates')) candidates = candidates.filter((c) => c.locations.length > 1);
    if (exclude.has('Duplicates')) candidates = candidates.filter((c) => c.locations.length <= 1);
    if (only.has('Unrecognized')) candidates = candidates.filter((c) => !hasLinks(c));
    if (exclude.has('Unrecognized')) candidates = candidates.filter(hasLinks);
    if (only.has('ManualLinks')) {
      const manual = (await this.matching.details?.manuallyLinked(candidates.map((c) => ({ ed2k: c.row.ed2k, size: c.row.size })))) ?? new Set<string>();
      candidates = candidates.filter((c) => manual.has(`${c.row.ed2k}:${c.row.size}`));
    }
    if (exclude.has('ManualLinks')) {
      const manual = (await this.matching.details?.manuallyLinked(candidates.map((c) => ({ ed2k: c.row.ed2k, size: c.row.size })))) ?? new Set<string>();
      candidates = candidates.filter((c) => !manual.has(`${c.row.ed2k}:${c.row.size}`));
    }
    if (only.has('ImportLimbo') || only.has('Watched')) candidates = [];

    if (query.contents) candidates = candidates.filter((c) => query.contents!.has(`${c.row.ed2k}:${c.row.size}`));
    if (query.search !== undefined) candidates = searchByPath(candidates, query.search);
    const sort = query.sortOrder.length || query.search !== undefined ? query.sortOrder : ['1', '4'];
    candidates = sortCandidates(candidates, sort);
    const total = candidates.length;
    const page = query.pageSize === 0 ? candidates : candidates.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
    const extras = await this.extrasOf(page.map((c) => c.row), include, new Set(query.includeDataFrom ?? []));
    return { Total: total, List: page.map((c) => this.toModel(c.row, c.locations, include, extras.get(c.row.id))) };
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

  async firstAccessibleLocation(id: number): Promise<LocationWithFolder> {
    if (!(await this.store.file(id))) throw notFound('No File entry for the given fileID');
    const location = (await this.store.locationsOfFiles([id])).find((l) => l.is_accessible);
    if (!location) throw validationError('File', 'Unable to resolve file location.');
    return location;
  }

  /** Deletes every location of the given files; see deleteLocation for what leaves the disk. */
  async deleteFiles(ids: number[], options: { removeFiles: boolean; removeFolders: boolean }): Promise<void> {
    const missing = [];
    for (const id of ids) if (!(await this.store.file(id))) missing.push(`Unable to find a file with id ${id}`);
    if (missing.length) throw validationError({ fileIds: missing });
    for (const location of await this.store.locationsOfFiles(ids)) await this.removeLocation(location, options);
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

async function pruneEmptyDirectories(start: string, root: string): Promise<void> {
  let dir = start;
  while (dir.startsWith(root + path.sep) && dir !== root) {
    const entries = await fs.readdir(dir).catch(() => null);
    if (!entries || entries.length) return;
    await fs.rmdir(dir).catch(() => undefined);
    dir = path.dirname(dir);
  }
}

const firstLocation = (c: Candidate) => c.locations[0];
const fileName = (c: Candidate) => path.basename(firstLocation(c)?.relative_path ?? '');

type Key = (c: Candidate) => string | number | null;
const SORT_KEYS: Partial<Record<(typeof FILE_SORT_CRITERIA)[number], Key>> = {
  ImportFolderName: (c) => firstLocation(c)?.folder_name.toLowerCase() ?? '',
  ImportFolderID: (c) => firstLocation(c)?.import_folder_id ?? 0,
  AbsolutePath: (c) => (firstLocation(c) ? path.join(firstLocation(c).folder_path, firstLocation(c).relative_path).toLowerCase() : ''),
  RelativePath: (c) => firstLocation(c)?.relative_path.toLowerCase() ?? '',
  FileSize: (c) => c.row.size,
  DuplicateCount: (c) => c.locations.length,
  CreatedAt: (c) => c.row.created_at,
  ImportedAt: (c) => c.row.imported_at,
  ED2K: (c) => c.row.ed2k,
  MD5: (c) => c.row.md5,
  SHA1: (c) => c.row.sha1,
  CRC32: (c) => c.row.crc32,
  FileName: (c) => fileName(c).toLowerCase(),
  FileID: (c) => c.row.id,
};

/** Sorts by each criterion in turn (`-` = descending); files without a value sort last either way. */
function sortCandidates(candidates: Candidate[], sortOrder: string[]): Candidate[] {
  const criteria = sortOrder
    .map((raw) => {
      const descending = raw.startsWith('-');
      const name = raw.replace(/^-/, '');
      const criterion = /^\d+$/.test(name) ? FILE_SORT_CRITERIA[Number(name)] : FILE_SORT_CRITERIA.find((c) => c.toLowerCase() === name.toLowerCase());
      const key = criterion ? SORT_KEYS[criterion] : undefined;
      return key ? { key, descending } : null;
    })
    .filter((c): c is { key: Key; descending: boolean } => c !== null);
  if (!criteria.length) return candidates;
  return [...candidates].sort((a, b) => {
    for (const { key, descending } of criteria) {
      const x = key(a);
      const y = key(b);
      if (x === y) continue;
      if (x === null) return 1;
      if (y === null) return -1;
      const order = x < y ? -1 : 1;
      return descending ? -order : order;
    }
    return 0;
  });
}

/** Case-insensitive match of the search text against relative paths; substring matches first, by position. */
function searchByPath(candidates: Candidate[], search: string): Candidate[] {
  const needle = search.trim().toLowerCase().replace(/[_-]/g, ' ').replace(/\s+/g, ' ');
  if (!needle) return candidates;
  const scored: Array<{ c: Candidate; index: number }> = [];
  for (const c of candidates) {
    let best = -1;
    for (const location of c.locations) {
      const hay = location.relative_path.toLowerCase().replace(/[_-]/g, ' ').replace(/\s+/g, ' ');
      const index = hay.indexOf(needle);
      if (index >= 0 && (best < 0 || index < best)) best = index;
    }
    if (best >= 0) scored.push({ c, index: best });
  }
  return scored.sort((a, b) => a.index - b.index).map((s) => s.c);
}
