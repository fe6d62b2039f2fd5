/**
 * Offline is not missing (issue 49): an import folder whose root is gone, unreadable, or a bare mount point where files
 * were known is *unavailable*. Its records stay; scans, the watcher, Remove Missing Files and the renamer skip it and
 * say so; when it comes back everything resumes. This module decides availability (one stat and the first directory
 * entry per folder), keeps it in the folder's row and announces changes.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { EventBus } from '../../events/bus.js';
import type { ImportFolderRow, ImportFoldersStore } from './import-folders.store.js';

/** How often every folder is looked at: one stat and one directory read each, so cheap enough to do often. */
export const AVAILABILITY_CHECK_MS = 30_000;

export interface FolderProbe {
  available: boolean;
  /** Why the folder is unavailable, in words for the log and the console; null when available. */
  reason: string | null;
  /** The filesystem device of the folder when it could be read. */
  device: string | null;
  /** Whether the folder holds any entry at all. */
  hasEntries: boolean;
}

/** The filesystem calls a probe makes, replaceable in tests (a mount cannot be made there). */
export interface ProbeFs {
  stat(target: string): Promise<{ dev: number | bigint; isDirectory(): boolean }>;
  /** Whether the directory has at least one entry (reads one, never the whole listing). */
  hasEntries(directory: string): Promise<boolean>;
}

const nodeProbeFs: ProbeFs = {
  stat: (target) => fs.stat(target),
  async hasEntries(directory) {
    const dir = await fs.opendir(directory);
    try {
      return (await dir.read()) !== null;
    } finally {
      await dir.close().catch(() => undefined);
    }
  },
};

function describeError(folderPath: string, error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return `The folder ${folderPath} does not exist (a drive not mounted or a network share not connected?).`;
    case 'EACCES':
    case 'EPERM':
      return `The folder ${folderPath} cannot be read: permission denied.`;
    case 'ENOTDIR':
      return `${folderPath} is not a folder.`;
    default:
      return `The folder ${folderPath} cannot be read: ${error.code ?? error.message}.`;
  }
}

/**
 * Whether a folder can be reached. `known.files` is how many file locations are recorded in it and `known.device` the
 * device it had when it last held files: a folder that is empty where files were recorded, or that now sits on its
 * parent's filesystem where it had one of its own, is taken for an unmounted drive.
 */
export async function probeFolder(
  folderPath: string,
  known: { files: number | (() => Promise<number>); device: string | null },
  fsApi: ProbeFs = nodeProbeFs,
): Promise<FolderProbe> {
  // Counted only when the answer depends on it (an empty root, another device): a folder with files costs no query.
  let counted: number | null = typeof known.files === 'number' ? known.files : null;
  const recorded = async () => (counted ??= await (known.files as () => Promise<number>)());
  const root = folderPath.length > 1 ? folderPath.replace(/[\\/]+$/, '') : folderPath;
  const unavailable = (reason: string, device: string | null = null): FolderProbe => ({
    available: false,
    reason,
    device,
    hasEntries: false,
  });
  let stat: Awaited<ReturnType<ProbeFs['stat']>>;
  try {
    stat = await fsApi.stat(root);
  } catch (error) {
    return unavailable(describeError(folderPath, error as NodeJS.ErrnoException));
  }
  if (!stat.isDirectory()) return unavailable(`${folderPath} is not a folder.`);
  const device = String(stat.dev);
  let hasEntries: boolean;
  try {
    hasEntries = await fsApi.hasEntries(root);
  } catch (error) {
    return unavailable(describeError(folderPath, error as NodeJS.ErrnoException), device);
  }
  if (!hasEntries && (await recorded()) > 0) {
    return unavailable(
      `The folder ${folderPath} is empty, but ${await recorded()} file(s) were recorded in it (an unmounted drive?).`,
      device,
    );
  }
  if (known.device !== null && known.device !== device && (await recorded()) > 0) {
    const parent = await fsApi.stat(path.dirname(root)).catch(() => null);
    if (parent && String(parent.dev) === device) {
      return {
        ...unavailable(
          `The folder ${folderPath} now lies on the filesystem of its parent folder, but its files were on a drive of their own (an unmounted drive?). If it moved there on purpose, save the import folder again.`,
          device,
        ),
        hasEntries,
      };
    }
  }
  return { available: true, reason: null, device, hasEntries };
}

/** The state a folder changed to, as the hub and listeners hear it. */
export interface AvailabilityChange {
  folder: ImportFolderRow;
  available: boolean;
  /** Location records in the folder: all kept while it is offline. */
  files: number;
}

/** Cancels a repeating timer. */
export type RepeatTimer = (run: () => void, everyMs: number) => () => void;

const repeatEvery: RepeatTimer = (run, everyMs) => {
  const handle = setInterval(run, everyMs);
  handle.unref();
  return () => clearInterval(handle);
};

/**
 * Keeps each folder's availability: checked every {@link AVAILABILITY_CHECK_MS}, and whenever a scan, the watcher,
 * Remove Missing Files or the renamer is about to rely on a folder. A change is stored, logged and announced.
 */
export class FolderAvailability {
  private readonly listeners: Array<(change: AvailabilityChange) => void> = [];
  private cancelTimer: (() => void) | null = null;
  /** Checks run one after another, so a change is stored and announced once. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: {
      store: ImportFoldersStore;
      bus: EventBus;
      logger: Logger;
      timer?: RepeatTimer;
      intervalMs?: number;
      probe?: ProbeFs;
      now?: () => Date;
    },
  ) {}

  onChange(listener: (change: AvailabilityChange) => void): void {
    this.listeners.push(listener);
  }

  start(): void {
    if (this.cancelTimer) return;
    const timer = this.deps.timer ?? repeatEvery;
    this.cancelTimer = timer(() => {
      this.checkAll().catch((error) => this.deps.logger.warn({ err: error }, 'Checking the import folders failed'));
    }, this.deps.intervalMs ?? AVAILABILITY_CHECK_MS);
  }

  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  /** Checks every folder; returns their rows as they are now. */
  checkAll(): Promise<ImportFolderRow[]> {
    return this.serialized(async () => {
      const result: ImportFolderRow[] = [];
      for (const row of await this.deps.store.list()) result.push(await this.settle(row));
      return result;
    });
  }

  /** Checks one folder; returns its row as it is now (null when the folder no longer exists). */
  check(folderId: number): Promise<ImportFolderRow | null> {
    return this.serialized(async () => {
      const row = await this.deps.store.get(folderId);
      return row ? this.settle(row) : null;
    });
  }

  /** The folders that cannot be reached right now (checked afresh), by id. */
  async unavailable(): Promise<Map<number, ImportFolderRow>> {
    return new Map((await this.checkAll()).filter((row) => !row.is_available).map((row) => [row.id, row]));
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.chain.then(work, work);
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async settle(row: ImportFolderRow): Promise<ImportFolderRow> {
    const probe = await probeFolder(
      row.path,
      { files: () => this.deps.store.locationCount(row.id), device: row.device_id },
      this.deps.probe,
    );
    // The device is remembered while the folder holds files, so an unmount later shows as a change of filesystem.
    if (probe.available && probe.hasEntries && probe.device && probe.device !== row.device_id) {
      await this.deps.store.setDevice(row.id, probe.device);
      row = { ...row, device_id: probe.device };
    }
    const wasAvailable = row.is_available === 1;
    if (probe.available === wasAvailable && (probe.available || probe.reason === row.unavailable_reason)) return row;
    const next = {
      is_available: probe.available ? 1 : 0,
      unavailable_since: probe.available ? null : (row.unavailable_since ?? (this.deps.now?.() ?? new Date()).toISOString()),
      unavailable_reason: probe.reason,
    };
    await this.deps.store.setAvailability(row.id, next);
    const updated = { ...row, ...next };
    if (probe.available === wasAvailable) return updated; // only the reason changed
    const files = await this.deps.store.locationCount(row.id);
    if (probe.available) {
      this.deps.logger.info(`Import folder "${row.name}" (${row.path}) is available again: scanning and watching resume.`);
    } else {
      this.deps.logger.warn(
        `Import folder "${row.name}" is offline: ${probe.reason} Its ${files} file record(s) are kept; scans, the watcher, Remove Missing Files and the renamer skip it until it is back.`,
      );
    }
    this.deps.bus.emit('shoko', {
      event: 'ImportFolderAvailabilityChanged',
      payload: {
        ImportFolderID: row.id,
        IsAvailable: probe.available,
        UnavailableSince: updated.unavailable_since,
        UnavailableReason: updated.unavailable_reason,
        FileCount: files,
      },
    });
    for (const listener of this.listeners) listener({ folder: updated, available: probe.available, files });
    return updated;
  }
}

/** A folder's name for messages: `"NAS" (/mnt/nas/)`. */
export const folderLabel = (row: { name: string; path: string }) => `"${row.name}" (${row.path})`;
