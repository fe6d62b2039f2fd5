import path from 'node:path';
import chokidar, { type FSWatcher } from 'chokidar';
import type { Logger } from 'pino';
import type { FolderAvailability, ImportFoldersService, ImportFolderRow } from '../import-folders/index.js';
import type { SettingsService } from '../settings/index.js';
import { isWantedFile, walkFilter } from './folder-walk.js';
import type { ImportService } from './import.service.js';

/** How long a new file must stop growing before it is hashed (copies in progress are left alone). */
const SETTLE_MS = 3000;

/** Removals are gathered this long, then judged together: a drive unplugged takes all its files at once. */
const REMOVAL_BATCH_MS = 1000;

/**
 * Watches the import folders that ask for it. New video files are handed to discovery once their size has been
 * stable for a few seconds; removed ones are marked missing. A folder that is offline is not watched (issue 49): its
 * watcher closes when the folder goes and opens again when it is back.
 */
export class FolderWatcher {
  private readonly watchers = new Map<number, FSWatcher>();
  /** Settles when a watcher's first scan is done: a file created before that counts as already there and is skipped. */
  private readonly scanned = new Map<number, Promise<void>>();
  /** Paths removed from each folder and not yet judged, with the timer that will judge them. */
  private readonly removals = new Map<number, { folder: ImportFolderRow; paths: Set<string>; timer: NodeJS.Timeout }>();
  private readonly judging = new Set<Promise<void>>();
  private started = false;

  constructor(
    private readonly folders: ImportFoldersService,
    private readonly importer: ImportService,
    private readonly settings: SettingsService,
    private readonly logger: Logger,
    private readonly availability: FolderAvailability,
    private readonly settleMs = SETTLE_MS,
  ) {
    folders.onChange(() => {
      if (this.started) void this.refresh();
    });
    availability.onChange(() => {
      if (this.started) void this.refresh();
    });
  }

  async start(): Promise<void> {
    this.started = true;
    await this.refresh();
  }

  async stop(): Promise<void> {
    this.started = false;
    for (const pending of this.removals.values()) clearTimeout(pending.timer);
    this.removals.clear();
    await Promise.all([...this.watchers.values()].map((watcher) => watcher.close()));
    this.watchers.clear();
    this.scanned.clear();
  }

  /** Re-reads the folder list: starts and stops watchers to match WatchForNewFiles and the folders' availability. */
  async refresh(): Promise<void> {
    const rows = await this.folders.rows();
    for (const row of rows) {
      if (row.watch_for_new_files && !row.is_available && this.watchers.has(row.id))
        this.logger.warn(`Stopped watching "${row.name}" (${row.path}): the folder is offline; watching resumes when it is back.`);
    }
    const wanted = new Map(rows.filter((f) => f.watch_for_new_files && f.is_available).map((f) => [f.id, f]));
    for (const [id, watcher] of this.watchers) {
      if (!wanted.has(id)) {
        await watcher.close();
        this.watchers.delete(id);
        this.scanned.delete(id);
      }
    }
    for (const folder of wanted.values()) if (!this.watchers.has(folder.id)) this.watch(folder);
  }

  /** Resolves once the removals seen so far are judged (tests: what the watcher did is done before they look). */
  async whenIdle(): Promise<void> {
    while (this.removals.size || this.judging.size) {
      await Promise.all([...this.judging, new Promise((resolve) => setTimeout(resolve, 50))]);
    }
  }

  /** Resolves once every watcher has finished its first scan, so that files created from then on are reported. */
  async whenWatching(): Promise<void> {
    await Promise.all(this.scanned.values());
  }

  private watch(folder: ImportFolderRow): void {
    const filter = () => walkFilter(this.settings.current.Import);
    const watcher = chokidar.watch(folder.path, {
      ignoreInitial: true,
      followSymlinks: false,
      awaitWriteFinish: { stabilityThreshold: this.settleMs, pollInterval: Math.min(500, this.settleMs) },
    });
    const relative = (file: string) => path.relative(folder.path, file);
    watcher.on('add', (file) => {
      if (!isWantedFile(file, filter())) return;
      this.logger.info(`New file detected: ${file}`);
      this.importer.discoverPaths(folder, [relative(file)]).catch((error) => this.logger.error({ err: error }, `Could not queue ${file}`));
    });
    watcher.on('unlink', (file) => this.removed(folder, relative(file)));
    const checkFolder = () => {
      this.availability.check(folder.id).catch((error) => this.logger.warn({ err: error }, `Checking ${folder.path} failed`));
    };
    // The root itself went (a share unmounted, a folder renamed): the folder is looked at now, not at the next check.
    watcher.on('unlinkDir', (dir) => {
      if (path.resolve(dir) === path.resolve(folder.path)) checkFolder();
    });
    watcher.on('error', (error) => {
      this.logger.warn({ err: error }, `Watching ${folder.path} failed`);
      checkFolder();
    });
    this.watchers.set(folder.id, watcher);
    this.scanned.set(folder.id, new Promise((resolve) => watcher.once('ready', () => resolve())));
    this.logger.info(`Watching ${folder.path} for new files`);
  }

  private removed(folder: ImportFolderRow, relativePath: string): void {
    const pending = this.removals.get(folder.id) ?? {
      folder,
      paths: new Set<string>(),
      timer: setTimeout(() => this.judgeRemovals(folder.id), Math.min(REMOVAL_BATCH_MS, this.settleMs)),
    };
    pending.paths.add(relativePath);
    this.removals.set(folder.id, pending);
  }

  /** Marks the gathered removals missing — unless the folder went offline with them, which {@link ImportService.markMissing} decides. */
  private judgeRemovals(folderId: number): void {
    const pending = this.removals.get(folderId);
    if (!pending) return;
    this.removals.delete(folderId);
    const judged = this.importer
      .markMissing(pending.folder, [...pending.paths])
      .catch((error) => this.logger.error({ err: error }, `Could not mark files of ${pending.folder.path} missing`))
      .finally(() => this.judging.delete(judged));
    this.judging.add(judged);
  }
}
