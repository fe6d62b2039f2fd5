/**
 * DESIGN — import domain: the pipeline from import folders to hashed content: scans (walks and the folder watcher),
 * hashing and media info, each a persisted job. No routes of its own (ImportFolder/{id}/Scan and the actions call
 * it); it writes through the files domain's FileRecords and reads folders from import-folders. Hashed content goes on
 * to the metadata domain (`afterHash`) for AniDB identification.
 */
import fs from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { EventBus } from '../../events/bus.js';
import { JobPriority, PermanentJobError, type JobContext, type JobDefinition } from '../../jobs/job.js';
import type { QueueService } from '../../jobs/queue.service.js';
import { fileEvent, isReachable, type FileRecords, type LocationWithFolder, type StoredHashes } from '../files/index.js';
import { folderLabel, type FolderAvailability, type ImportFoldersService, type ImportFolderRow } from '../import-folders/index.js';
import type { SettingsService } from '../settings/index.js';
import { walkFilter, walkFolder, type FoundFile } from './folder-walk.js';

export interface Hasher {
  hash(path: string, options: { onProgress?: (fraction: number) => void; signal?: AbortSignal }): Promise<StoredHashes & { size: number }>;
}

export interface MediaAnalyzer {
  read(path: string, options: { timeoutMs?: number }): Promise<unknown>;
}

interface ScanPayload {
  importFolderId: number;
  onlyNew: boolean;
}

/**
 * New files are recorded this many at a time, each batch in one transaction with its maintained-figure marks, and the
 * scan lets the event loop run between batches: SQLite has one connection and better-sqlite3 runs on this thread, so
 * a page request otherwise waits behind the whole import's inserts. Hashing of a batch is queued as soon as it is
 * recorded (issue 22, import-stall).
 */
const DISCOVERY_BATCH = 50;

/** Lets timers, I/O and waiting requests run before the next batch of background work. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const absolutePathOf = (location: { folder_path: string; relative_path: string }) =>
  path.join(location.folder_path, location.relative_path);

/**
 * The import pipeline up to identification: scanning import folders, hashing new content, reading media info.
 * Each step is a persisted job, so a restart resumes where the last process stopped.
 */
export class ImportService {
  readonly scanFolderJob: JobDefinition<ScanPayload>;
  readonly hashFileJob: JobDefinition<{ locationId: number; path?: string }>;
  readonly mediaInfoJob: JobDefinition<{ fileId: number }>;
  readonly runImportJob: JobDefinition<Record<string, never>>;
  /** The next stage for hashed content (AniDB identification); set by the composition root. */
  afterHash: ((fileId: number) => Promise<void>) | null = null;
  /**
   * Locations whose hashes this process wrote but whose follow-up steps (media info, identification) have not all
   * been queued yet: when one of those writes fails (a full disk) the job runs again, and must not read the whole
   * file a second time for hashes it already saved. Kept by (size, mtime), so changed content is hashed again.
   */
  private readonly hashedPendingFollowUps = new Map<number, { size: number; mtimeMs: number; fileId: number }>();

  constructor(
    private readonly deps: {
      folders: ImportFoldersService;
      files: FileRecords;
      queue: QueueService;
      settings: SettingsService;
      hasher: Hasher;
      media: MediaAnalyzer;
      bus: EventBus;
      logger: Logger;
      availability: FolderAvailability;
    },
  ) {
    this.scanFolderJob = {
      kind: 'ScanFolderJob',
      type: 'Scan Import Folder',
      title: 'Scanning Import Folder',
      group: 'Actions',
      priority: JobPriority.Scan,
      key: (p) => `${p.importFolderId}`,
      details: (p) => ({ ImportFolderID: p.importFolderId }),
      run: (p, ctx) => this.scanFolder(p, ctx),
    };
    this.hashFileJob = {
      kind: 'HashFileJob',
      type: 'Hash File',
      title: 'Hashing File',
      group: 'Import',
      priority: JobPriority.Hash,
      key: (p) => `${p.locationId}`,
      details: (p) => ({ FileLocationID: p.locationId, ...(p.path ? { FilePath: p.path } : {}) }),
      run: (p, ctx) => this.hashLocation(p.locationId, ctx),
    };
    this.mediaInfoJob = {
      kind: 'MediaInfoJob',
      type: 'Read MediaInfo for File',
      title: 'Reading MediaInfo for File',
      group: 'Import',
      priority: JobPriority.MediaInfo,
      key: (p) => `${p.fileId}`,
      details: (p) => ({ FileID: p.fileId }),
      run: (p, ctx) => this.readMediaInfo(p.fileId, ctx),
    };
    this.runImportJob = {
      kind: 'ImportJob',
      type: 'Run Import',
      title: 'Running Import',
      group: 'Legacy',
      priority: JobPriority.Scan,
      key: () => 'all',
      details: () => ({}),
      run: (_p, ctx) => this.runImport(ctx),
    };
    deps.queue.register(this.scanFolderJob);
    deps.queue.register(this.hashFileJob);
    deps.queue.register(this.mediaInfoJob);
    deps.queue.register(this.runImportJob);
  }

  async queueScan(importFolderId: number, onlyNew = false): Promise<void> {
    await this.deps.folders.getRow(importFolderId);
    // Looked at now, not when the job's turn comes: the console learns at once that a drive went or came back.
    await this.deps.availability.check(importFolderId);
    await this.deps.queue.enqueue(this.scanFolderJob, { importFolderId, onlyNew });
  }

  queueImport(): Promise<boolean> {
    return this.deps.queue.enqueue(this.runImportJob, {});
  }

  async queueRehash(locationId: number, priority = true): Promise<void> {
    await this.deps.queue.enqueue(this.hashFileJob, { locationId }, priority ? { priority: JobPriority.Discover } : {});
  }

  /** New paths found by the folder watcher (already settled: they stopped growing). */
  async discoverPaths(folder: ImportFolderRow, relativePaths: string[]): Promise<void> {
    const known = new Set((await this.deps.files.locationsInFolder(folder.id)).map((l) => l.relative_path));
    const found: FoundFile[] = [];
    for (const relativePath of relativePaths) {
      if (known.has(relativePath)) continue;
      const stat = await fs.stat(path.join(folder.path, relativePath)).catch(() => null);
      if (stat?.isFile()) found.push({ relativePath, size: stat.size, mtimeMs: stat.mtimeMs });
    }
    await this.addDiscovered(folder, found);
  }

  /**
   * Watched files disappeared: their locations are marked missing until a rescan or a re-hash of moved content — unless
   * the folder itself went offline (files vanish together when a drive is unplugged), which keeps them as they were.
   */
  async markMissing(folder: ImportFolderRow, relativePaths: string[]): Promise<void> {
    const current = await this.deps.availability.check(folder.id);
    if (!current) return;
    if (!current.is_available) {
      this.deps.logger.warn(
        `${relativePaths.length} file(s) vanished from ${folderLabel(folder)}, which is offline: they are not marked missing.`,
      );
      return;
    }
    const wanted = new Set(relativePaths);
    const locations = (await this.deps.files.locationsInFolder(folder.id)).filter((l) => wanted.has(l.relative_path));
    await this.deps.files.setAccessible(
      locations.map((l) => l.id),
      false,
    );
  }

  private async runImport(ctx: JobContext): Promise<void> {
    const folders = await this.deps.folders.rows();
    if (!folders.length) {
      ctx.logger.info('Run Import: no import folders are configured yet');
      return;
    }
    for (const folder of folders) await this.deps.queue.enqueue(this.scanFolderJob, { importFolderId: folder.id, onlyNew: true });
    for (const locationId of await this.deps.files.unhashedLocationIds()) await this.deps.queue.enqueue(this.hashFileJob, { locationId });
    ctx.logger.info(`Run Import: scanning ${folders.length} import folder(s)`);
  }

  private async scanFolder({ importFolderId, onlyNew }: ScanPayload, ctx: JobContext): Promise<void> {
    const folder = await this.deps.availability.check(importFolderId);
    if (!folder) throw new PermanentJobError(`Import folder ${importFolderId} no longer exists`);
    if (!folder.is_available) {
      ctx.logger.warn(`Skipped the scan of ${folderLabel(folder)}: the folder is offline. ${folder.unavailable_reason ?? ''}`.trim());
      return;
    }
    const settings = this.deps.settings.current.Import;
    const filter = walkFilter(settings, (pattern) => ctx.logger.warn(`Ignoring invalid exclusion pattern: ${pattern}`));
    const known = new Map((await this.deps.files.locationsInFolder(folder.id)).map((l) => [l.relative_path, l]));
    const seen = new Set<string>();
    let newFiles = 0;
    const found: FoundFile[] = [];
    const reappeared: number[] = [];
    const changed: Array<{ locationId: number; file: FoundFile }> = [];
    // Files under a folder that could not be read are not missing: nothing is known about them.
    const unreadable: string[] = [];
    const onUnreadable = (dir: string, error: Error) => {
      ctx.logger.warn(`Cannot read ${dir}: ${error.message}`);
      unreadable.push(path.relative(folder.path, dir));
    };
    for await (const file of walkFolder(folder.path, filter, onUnreadable)) {
      seen.add(file.relativePath);
      const location = known.get(file.relativePath);
      if (!location) {
        found.push(file);
        newFiles += 1;
        // Recorded while the walk goes on, so hashing starts with the first batch rather than after the whole folder.
        if (found.length >= DISCOVERY_BATCH) {
          await this.addDiscovered(folder, found.splice(0));
          // Shutdown aborts the scan here; it runs again at the next start and skips what is recorded.
          ctx.signal.throwIfAborted();
        }
      } else if (contentChanged(location, file)) changed.push({ locationId: location.id, file });
      else if (!location.is_accessible) reappeared.push(location.id);
      if (seen.size % 500 === 0) ctx.progress(0, { ImportFolderID: folder.id, FilesFound: seen.size });
    }
    // The folder may have gone while it was walked: then nothing that was not seen is missing.
    const after = await this.deps.availability.check(folder.id);
    if (!after?.is_available) {
      ctx.logger.warn(`The scan of ${folderLabel(folder)} stopped: the folder went offline. Its records are kept.`);
      await this.addDiscovered(folder, found);
      return;
    }
    const underUnreadable = (relativePath: string) => unreadable.some((dir) => dir === '' || relativePath.startsWith(dir + path.sep));
    const missing = [...known.values()]
      .filter((l) => l.is_accessible && !seen.has(l.relative_path) && !underUnreadable(l.relative_path))
      .map((l) => l.id);
    await this.deps.files.setAccessible(reappeared, true);
    await this.deps.files.setAccessible(missing, false);
    await this.addDiscovered(folder, found);
    for (const { locationId, file } of changed) {
      ctx.logger.info(`Changed on disk, hashing again: ${path.join(folder.path, file.relativePath)}`);
      await this.deps.files.detachChangedContent(locationId, file.size, file.mtimeMs);
      await this.deps.queue.enqueue(this.hashFileJob, { locationId });
    }
    if (!onlyNew) {
      // A full scan re-checks content that was never hashed (e.g. a failed hash).
      const unhashed = new Set(await this.deps.files.unhashedLocationIds());
      for (const location of known.values())
        if (unhashed.has(location.id)) await this.deps.queue.enqueue(this.hashFileJob, { locationId: location.id });
    }
    ctx.logger.info(`Scanned ${folder.path}: ${seen.size} video file(s), ${newFiles} new, ${missing.length} missing`);
  }

  /** Records new files batch by batch (see DISCOVERY_BATCH), queueing each batch's hashing once it is recorded. */
  private async addDiscovered(folder: ImportFolderRow, found: FoundFile[]): Promise<void> {
    for (let i = 0; i < found.length; i += DISCOVERY_BATCH) {
      const batch = found.slice(i, i + DISCOVERY_BATCH);
      const locationIds = await this.deps.files.createDiscovered(folder.id, batch);
      for (const file of batch)
        this.deps.bus.emit('shoko', { event: 'FileDetected', payload: { RelativePath: file.relativePath, ImportFolderID: folder.id } });
      await this.deps.queue.enqueueMany(
        this.hashFileJob,
        locationIds.map((locationId) => ({ locationId })),
      );
      await yieldToEventLoop();
    }
  }

  private async hashLocation(locationId: number, ctx: JobContext): Promise<void> {
    const location = await this.deps.files.location(locationId);
    if (!location) return void this.hashedPendingFollowUps.delete(locationId); // removed meanwhile
    const absolutePath = absolutePathOf(location);
    ctx.progress(0, { FilePath: absolutePath });
    const stat = await fs.stat(absolutePath).catch((error: NodeJS.ErrnoException) => error);
    if (stat instanceof Error) {
      const folder = await this.deps.availability.check(location.import_folder_id);
      if (folder && !folder.is_available)
        throw new PermanentJobError(
          `Cannot hash ${absolutePath}: the import folder ${folderLabel(folder)} is offline; it is hashed when the folder is back.`,
        );
      if (stat.code === 'ENOENT') await this.deps.files.setAccessible([locationId], false);
      throw new PermanentJobError(`Cannot hash ${absolutePath}: ${describeFsError(stat)}`);
    }
    if (!stat.isFile()) throw new PermanentJobError(`Cannot hash ${absolutePath}: it is not a regular file`);
    if (stat.size === 0) throw new PermanentJobError(`Cannot hash ${absolutePath}: the file is empty (0 bytes)`);
    const pending = this.hashedPendingFollowUps.get(locationId);
    const alreadyHashed = pending?.size === stat.size && pending.mtimeMs === stat.mtimeMs && pending.fileId === location.file_id;
    if (alreadyHashed) ctx.logger.info(`Already hashed ${absolutePath}; queueing what follows`);
    const fileId = alreadyHashed ? location.file_id : await this.hashAndSave(location, absolutePath, stat, ctx);
    const file = await this.deps.files.file(fileId);
    if (file && !file.media_info) await this.deps.queue.enqueue(this.mediaInfoJob, { fileId: file.id });
    if (file) await this.afterHash?.(file.id);
    this.hashedPendingFollowUps.delete(locationId);
  }

  /** Reads the file's hashes and saves them; the id of the file record the location now belongs to. */
  private async hashAndSave(location: LocationWithFolder, absolutePath: string, stat: Stats, ctx: JobContext): Promise<number> {
    let hashes: StoredHashes & { size: number };
    try {
      hashes = await this.deps.hasher.hash(absolutePath, { onProgress: (fraction) => ctx.progress(fraction), signal: ctx.signal });
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      throw new PermanentJobError(`Cannot hash ${absolutePath}: ${describeFsError(error as NodeJS.ErrnoException)}`);
    }
    const { fileId, merged, otherLocations } = await this.deps.files.applyHashes(location.id, hashes.size, hashes, stat.mtimeMs);
    this.hashedPendingFollowUps.set(location.id, { size: stat.size, mtimeMs: stat.mtimeMs, fileId });
    ctx.logger.info(`Hashed ${absolutePath} (ED2K ${hashes.ED2K})`);
    this.deps.bus.emit('shoko', { event: 'FileHashed', payload: fileEvent(fileId, location) });
    if (merged && otherLocations > 0) await this.handleDuplicate(location, fileId, ctx);
    return fileId;
  }

  private async handleDuplicate(location: LocationWithFolder, fileId: number, ctx: JobContext): Promise<void> {
    const absolutePath = absolutePathOf(location);
    if (!this.deps.settings.current.Import.AutomaticallyDeleteDuplicatesOnImport) {
      ctx.logger.info(`Duplicate file: ${absolutePath} has the same content as another location of file ${fileId}`);
      return;
    }
    // The copy kept must be one that can be read now: a copy in an offline folder may never come back (issue 49).
    const others = (await this.deps.files.locationsOfFiles([fileId])).filter((other) => other.id !== location.id && isReachable(other));
    if (!others.length) {
      ctx.logger.warn(`Duplicate file kept: ${absolutePath} — the other copy of file ${fileId} is in an offline import folder`);
      return;
    }
    ctx.logger.warn(`Deleting duplicate file ${absolutePath} (Import.AutomaticallyDeleteDuplicatesOnImport is on)`);
    await fs.unlink(absolutePath);
    await this.deps.files.removeLocation(location.id);
    this.deps.bus.emit('shoko', { event: 'FileDeleted', payload: fileEvent(fileId, location) });
  }

  private async readMediaInfo(fileId: number, ctx: JobContext): Promise<void> {
    const locations = (await this.deps.files.locationsOfFiles([fileId])).filter(isReachable);
    if (!locations.length) throw new PermanentJobError(`File ${fileId} has no location on disk to read media info from`);
    const absolutePath = absolutePathOf(locations[0]);
    ctx.progress(0, { FilePath: absolutePath });
    const timeoutMs = this.deps.settings.current.Import.MediaInfoTimeoutMinutes * 60_000;
    try {
      await this.deps.files.setMediaInfo(fileId, await this.deps.media.read(absolutePath, { timeoutMs }));
    } catch (error) {
      throw new PermanentJobError(`Cannot read media info of ${absolutePath}: ${(error as Error).message}`);
    }
  }
}

/**
 * A known path whose size or modification time differs from what was hashed holds new content. A location from before
 * modification times were kept (null) is taken as unchanged: hashing every file again after an upgrade would be worse.
 */
function contentChanged(location: { file_size: number; mtime_ms: number | null; is_accessible: number }, file: FoundFile): boolean {
  if (location.mtime_ms === null) return false;
  return location.file_size !== file.size || location.mtime_ms !== Math.round(file.mtimeMs);
}

function describeFsError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'the file no longer exists';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return error.message;
  }
}
