/**
 * DESIGN — import-folders domain: the folders the collection lives in (`/api/v3/ImportFolder*`: validation, no
 * nesting, sizes) and the admin-only browser of the server's filesystem used to pick them (`/api/v3/Folder*`).
 * Routes: import-folders.routes.ts; SQL: import-folders.store.ts. The import domain scans and watches these folders,
 * the files domain lists their files (`ImportFolder/{id}/File`), and the renamer moves files between them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  DROP_FOLDER_TYPES,
  type Drive,
  type DropFolderType,
  type Folder,
  type ImportFolder,
  type ImportFolderInput,
  type OfflineFolderRecords,
} from '@shoko-ts/contract';
import { badRequest, FieldErrorCollector, notFound, validationError } from '../../http/problem.js';
import { systemLocation } from './system-locations.js';
import type { ImportFolderRow, ImportFolderValues, ImportFoldersStore } from './import-folders.store.js';

const PATH_MISSING = 'Path not provided. Import Folders must be a location that exists on the server.';
const PATH_NOT_FOUND = 'Path does not exist. Import Folders must be a location that exists on the server.';
const PATH_NOT_DIRECTORY = 'Path is not a directory. Import Folders must be a folder that exists on the server.';
const NESTED = 'Unable to nest an import folder within another import folder.';
/** How long the folders' bytes are kept at most when nothing says the collection changed. */
const KEPT_BYTES_MS = 10 * 60_000;

/** Absolute, one separator style, with a trailing separator, as Shoko stores folder paths. */
export function normalizeFolderPath(input: string): string {
  const resolved = path.resolve(input.trim().replace(/[\\/]+/g, path.sep));
  return resolved.endsWith(path.sep) ? resolved : resolved + path.sep;
}

const dropTypeOf = (row: ImportFolderRow): DropFolderType =>
  (['None', 'Source', 'Destination', 'Both'] as const)[(row.is_drop_source ? 1 : 0) + (row.is_drop_destination ? 2 : 0)];

function dropFlags(value: ImportFolderInput['DropFolderType']): { is_drop_source: number; is_drop_destination: number } {
  const bits = typeof value === 'number' ? value : DROP_FOLDER_TYPES[value ?? 'None'];
  return { is_drop_source: bits & 1 ? 1 : 0, is_drop_destination: bits & 2 ? 1 : 0 };
}

/** Pseudo and memory filesystems that hold no media (contract files.md D1). */
const HIDDEN_FS_TYPES = new Set([
  'msdos',
  'ramfs',
  'configfs',
  'fusectl',
  'tracefs',
  'hugetlbfs',
  'mqueue',
  'debugfs',
  'binfmt_misc',
  'devpts',
  'pstore',
  'bpf',
  'cgroup',
  'cgroup2',
  'securityfs',
  'proc',
  'tmpfs',
  'sysfs',
  'devtmpfs',
  'autofs',
  'overlay',
  'nsfs',
  'squashfs',
  'efivarfs',
]);
const NETWORK_FS_TYPES = new Set(['nfs', 'nfs4', 'cifs', 'smb3', 'smbfs', 'sshfs', 'fuse.sshfs', '9p']);

async function describeFolder(folderPath: string): Promise<Folder> {
  try {
    const entries = await fs.readdir(folderPath, { withFileTypes: true });
    const folders = entries.filter((entry) => entry.isDirectory()).length;
    return { Path: folderPath, IsAccessible: true, Sizes: { Folders: folders, Files: entries.length - folders } };
  } catch {
    return { Path: folderPath, IsAccessible: false, Sizes: null };
  }
}

/** Mount points from /proc/mounts (Linux); elsewhere the filesystem root. */
async function mountPoints(): Promise<Array<{ path: string; type: Drive['Type'] }>> {
  const text = await fs.readFile('/proc/mounts', 'utf8').catch(() => null);
  if (!text) return [{ path: path.parse(process.cwd()).root, type: 'Fixed' }];
  const seen = new Set<string>();
  const result: Array<{ path: string; type: Drive['Type'] }> = [];
  for (const line of text.split('\n')) {
    const [, mount, fsType] = line.split(' ');
    if (!mount || !fsType || HIDDEN_FS_TYPES.has(fsType)) continue;
    const decoded = mount.replace(/\\040/g, ' ');
    if (decoded.startsWith('/proc') || decoded.startsWith('/sys') || decoded.startsWith('/dev') || seen.has(decoded)) continue;
    seen.add(decoded);
    result.push({ path: decoded, type: NETWORK_FS_TYPES.has(fsType) ? 'Network' : 'Fixed' });
  }
  if (!seen.has('/')) result.push({ path: '/', type: 'Fixed' });
  return result;
}

export interface ImportFolderChange {
  kind: 'added' | 'updated' | 'removed';
  folder: ImportFolderRow;
}

/** Import folders: validation (existing directory, no nesting), storage, and the output model with its sizes. */
export class ImportFoldersService {
  private listeners: Array<(change: ImportFolderChange) => void> = [];

  private readonly dataDirectory: string;

  private keptBytes: { expires: number; bytes: Promise<Map<number, number>> } | null = null;

  constructor(
    private readonly store: ImportFoldersStore,
    options: { dataDirectory?: string } = {},
    private readonly now: () => number = Date.now,
  ) {
    this.dataDirectory = path.resolve(options.dataDirectory ?? process.cwd());
  }

  onChange(listener: (change: ImportFolderChange) => void): void {
    this.listeners.push(listener);
  }

  async list(): Promise<ImportFolder[]> {
    const [rows, sizes] = await Promise.all([this.store.list(), this.fileSizes()]);
    return rows.map((row) => this.toModel(row, sizes));
  }

  /** The collection's files or their places changed: the folders' bytes are summed again when next asked for. */
  forgetKeptFigures(): void {
    this.keptBytes = null;
  }

  /**
   * Bytes and series per folder. The bytes are a sum over every location (about 0.4 s on PostgreSQL at 400,000 files,
   * the slowest request of every dashboard visit), so they are kept until the collection changes (`forgetKeptFigures`,
   * on the read cache's signals) or for KEPT_BYTES_MS; the series come from a maintained figure and are read each time.
   */
  private async fileSizes(): Promise<Map<number, { bytes: number; series: number }>> {
    const now = this.now();
    if (!this.keptBytes || this.keptBytes.expires <= now) {
      const kept = { expires: now + KEPT_BYTES_MS, bytes: this.store.folderBytes() };
      this.keptBytes = kept;
      kept.bytes.catch(() => this.keptBytes === kept && (this.keptBytes = null));
    }
    const [bytes, series] = await Promise.all([this.keptBytes.bytes, this.store.folderSeries()]);
    return new Map([...bytes].map(([id, sum]) => [id, { bytes: sum, series: series.get(id) ?? 0 }]));
  }

  rows(): Promise<ImportFolderRow[]> {
    return this.store.list();
  }

  async getRow(id: number): Promise<ImportFolderRow> {
    const row = await this.store.get(id);
    if (!row) throw notFound('Folder not found.');
    return row;
  }

  async get(id: number): Promise<ImportFolder> {
    return this.toModel(await this.getRow(id), await this.fileSizes());
  }

  async create(input: ImportFolderInput): Promise<ImportFolder> {
    if (input.ID) return this.replace(input).then(() => this.get(input.ID!));
    const values = await this.validate(input, null, 'Body', new FieldErrorCollector());
    const row = await this.store.insert(values);
    this.emit({ kind: 'added', folder: row });
    return this.toModel(row, new Map());
  }

  async replace(input: ImportFolderInput): Promise<void> {
    const errors = new FieldErrorCollector();
    if (!input.ID) errors.add('ID', 'ID missing. If this is a new Folder, then use POST.');
    else if (!(await this.store.get(input.ID))) errors.add('ID', 'ID invalid. If this is a new Folder, then use POST.');
    const values = await this.validate(input, input.ID ?? null, 'Path', errors);
    await this.store.update(input.ID!, values);
    this.emit({ kind: 'updated', folder: await this.getRow(input.ID!) });
  }

  /** What removing the records of a folder would remove (`GET ImportFolder/{id}/OfflineRecords`). */
  async offlineRecords(id: number): Promise<OfflineFolderRecords> {
    const row = await this.getRow(id);
    const counts = await this.store.recordCounts(id);
    return { ImportFolderID: id, IsAvailable: row.is_available === 1, Locations: counts.locations, Files: counts.files };
  }

  /**
   * Removes the records of an offline folder's files, the folder itself staying (`DELETE ImportFolder/{id}/OfflineRecords`):
   * the one way to drop what an offline folder held. `confirmedLocations` must be the count the admin was shown, so a
   * confirmation given for another state of the folder removes nothing. Files on disk are never touched.
   */
  async removeOfflineRecords(
    id: number,
    confirmedLocations: number,
    isAvailable: () => Promise<boolean>,
  ): Promise<{ locations: number; files: number }> {
    const row = await this.getRow(id);
    if (await isAvailable())
      throw badRequest(`The import folder "${row.name}" is available; Remove Missing Files forgets the files that are gone from it.`);
    const counts = await this.store.recordCounts(id);
    if (counts.locations !== confirmedLocations) {
      throw validationError(
        'locationCount',
        `The import folder "${row.name}" holds ${counts.locations} file record(s), not ${confirmedLocations}; confirm again with the current count.`,
      );
    }
    const removed = await this.store.removeRecords(id);
    this.emit({ kind: 'updated', folder: row });
    return removed;
  }

  async delete(id: number, options: { removeRecords: boolean }): Promise<void> {
    const row = await this.store.get(id);
    if (!row) {
      if (!options.removeRecords) return;
      throw notFound('Folder not found.');
    }
    await this.store.delete(id, options.removeRecords);
    this.emit({ kind: 'removed', folder: row });
  }

  /** Mounted filesystems that can hold media (`Folder/Drives`, `Folder/MountPoints`), by path. */
  async drives(): Promise<Drive[]> {
    const points = (await mountPoints()).filter(({ path: p }) => !systemLocation(p, this.dataDirectory, false).refused);
    const described = await Promise.all(points.map(async ({ path: p, type }) => ({ ...(await describeFolder(p)), Type: type })));
    return described.sort((a, b) => a.Path.localeCompare(b.Path));
  }

  /** The sub-folders of a server folder (`GET Folder`); files are counted, never listed. */
  async childFolders(requested: string | undefined): Promise<Folder[]> {
    if (!requested) throw notFound('Directory not found');
    const folderPath = path.resolve(requested);
    const refusal = systemLocation(folderPath, this.dataDirectory, false);
    if (refusal.refused) throw validationError('path', `${refusal.reason} The folder browser does not list system folders.`);
    const entries = await fs.readdir(folderPath, { withFileTypes: true }).catch(() => null);
    if (!entries) throw notFound('Directory not found');
    const children = entries
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(folderPath, entry.name))
      .filter((child) => !systemLocation(child, this.dataDirectory, false).refused);
    return (await Promise.all(children.map(describeFolder))).sort((a, b) => a.Path.localeCompare(b.Path));
  }

  /** The current model of a folder, for the JSON Patch route. */
  async asInput(id: number): Promise<ImportFolderInput> {
    const folder = await this.get(id);
    return {
      ID: folder.ID,
      Name: folder.Name,
      Path: folder.Path,
      DropFolderType: folder.DropFolderType,
      WatchForNewFiles: folder.WatchForNewFiles,
    };
  }

  /** Adds every problem with the input to `errors` (which may already hold some) and throws them all together. */
  private async validate(
    input: ImportFolderInput,
    ownId: number | null,
    nestingField: string,
    errors: FieldErrorCollector,
  ): Promise<ImportFolderValues> {
    if (!input.Name?.trim()) errors.add('Name', 'The Name field is required.');
    const rawPath = input.Path?.trim() ?? '';
    let folderPath = '';
    if (!rawPath) {
      errors.add('Path', PATH_MISSING);
    } else {
      folderPath = normalizeFolderPath(rawPath);
      const stat = await fs.stat(path.resolve(rawPath)).catch(() => null);
      if (!stat) errors.add('Path', PATH_NOT_FOUND);
      else if (!stat.isDirectory()) errors.add('Path', PATH_NOT_DIRECTORY);
      else {
        const refusal = await this.refusedAsImportFolder(rawPath);
        const lower = folderPath.toLowerCase();
        const others = refusal ? [] : (await this.store.list()).filter((row) => row.id !== ownId);
        if (refusal) errors.add('Path', refusal);
        else if (others.some((row) => lower.startsWith(row.path.toLowerCase()) || row.path.toLowerCase().startsWith(lower))) {
          errors.add(nestingField, NESTED);
        }
      }
    }
    errors.throwIfAny();
    return {
      name: input.Name.trim(),
      path: folderPath,
      ...dropFlags(input.DropFolderType),
      watch_for_new_files: input.WatchForNewFiles ? 1 : 0,
    };
  }

  /** Why a folder may not hold a collection (a system folder, the data directory), judged on the path and on its real path. */
  private async refusedAsImportFolder(rawPath: string): Promise<string | undefined> {
    const resolved = path.resolve(rawPath);
    const real = await fs.realpath(resolved).catch(() => resolved);
    for (const candidate of new Set([resolved, real])) {
      const verdict = systemLocation(candidate, this.dataDirectory, true);
      if (verdict.refused) return verdict.reason;
    }
    return undefined;
  }

  private toModel(row: ImportFolderRow, sizes: Map<number, { bytes: number; series: number }>): ImportFolder {
    return {
      ID: row.id,
      Name: row.name,
      Path: row.path,
      DropFolderType: dropTypeOf(row),
      WatchForNewFiles: row.watch_for_new_files === 1,
      FileSize: sizes.get(row.id)?.bytes ?? 0,
      Size: sizes.get(row.id)?.series ?? 0,
      IsAvailable: row.is_available === 1,
      UnavailableSince: row.unavailable_since,
      UnavailableReason: row.unavailable_reason,
    };
  }

  private emit(change: ImportFolderChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
