import path from 'node:path';
import chokidar, { type FSWatcher } from 'chokidar';
import type { Logger } from 'pino';
import type { ImportFoldersService } from '../import-folders/import-folders.service.js';
import type { ImportFolderRow } from '../import-folders/import-folders.store.js';
import type { SettingsService } from '../settings/settings.service.js';
import { isWantedFile, walkFilter } from './folder-walk.js';
import type { ImportService } from './import.service.js';

/** How long a new file must stop growing before it is hashed (copies in progress are left alone). */
const SETTLE_MS = 3000;

/**
 * Watches the import folders that ask for it. New video files are handed to discovery once their size has been
 * stable for a few seconds; removed ones are marked missing.
 */
export class FolderWatcher {
  private readonly watchers = new Map<number, FSWatcher>();
  /** Settles when a watcher's first scan is done: a file created before that counts as already there and is skipped. */
  private readonly scanned = new Map<number, Promise<void>>();
  private started = false;

  constructor(
    private readonly folders: ImportFoldersService,
    private readonly importer: ImportService,
    private readonly settings: SettingsService,
    private readonly logger: Logger,
    private readonly settleMs = SETTLE_MS,
  ) {
    folders.onChange(() => {
      if (this.started) void this.refresh();
    });
  }

  async start(): Promise<void> {
    this.started = true;
    await this.refresh();
  }

  async stop(): Promise<void> {
    this.started = false;
    await Promise.all([...this.watchers.values()].map((watcher) => watcher.close()));
    this.watchers.clear();
    this.scanned.clear();
  }

  /** Re-reads the folder list: starts and stops watchers to match WatchForNewFiles. */
  async refresh(): Promise<void> {
    const wanted = new Map((await this.folders.rows()).filter((f) => f.watch_for_new_files).map((f) => [f.id, f]));
    for (const [id, watcher] of this.watchers) {
      if (!wanted.has(id)) {
        await watcher.close();
        this.watchers.delete(id);
        this.scanned.delete(id);
      }
    }
    for (const folder of wanted.values()) if (!this.watchers.has(folder.id)) this.watch(folder);
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
    watcher.on('unlink', (file) => {
      this.importer
        .markMissing(folder, relative(file))
        .catch((error) => this.logger.error({ err: error }, `Could not mark ${file} missing`));
    });
    watcher.on('error', (error) => this.logger.warn({ err: error }, `Watching ${folder.path} failed`));
    this.watchers.set(folder.id, watcher);
    this.scanned.set(folder.id, new Promise((resolve) => watcher.once('ready', () => resolve())));
    this.logger.info(`Watching ${folder.path} for new files`);
  }
}
