import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { JournalEntry, JournalRow, RenamerStore } from './renamer.store.js';

export interface PlacedFolder {
  id: number;
  path: string;
  /** False while the folder is offline (issue 49): nothing moves into or out of it then. */
  available?: boolean;
  name?: string;
}

/** Why a move between these folders cannot happen now, or null. */
export function offlineFolderError(...folders: PlacedFolder[]): string | null {
  const offline = folders.find((folder) => folder.available === false);
  return offline ? `Not relocating: the import folder "${offline.name ?? offline.path}" is offline.` : null;
}

/** One location to move, with the sidecar files (same base name) that go along. */
export interface MovePlan {
  fileId: number;
  locationId: number;
  size: number;
  from: { folder: PlacedFolder; relativePath: string };
  to: { folder: PlacedFolder; relativePath: string };
}

/** Ownership and mode given to moved files (settings Linux.UID/GID/Permission); negative ids and mode 0 keep what is there. */
export interface Ownership {
  uid: number;
  gid: number;
  permission: number;
}

export interface MoveOptions {
  deleteEmptyDirectories: boolean;
  /** Applied to the moved video and its sidecars; null for a direct move (N12), which keeps them as they were. */
  ownership?: Ownership | null;
  /** Directories whose path matches one of these (Import.Exclude) are never pruned, nor are their parents. */
  keepDirectories?: RegExp[];
}

export type MoveOutcome = { ok: true; moved: boolean } | { ok: false; error: string; retryable?: boolean };

/** Test hook: called after each step of a move; throwing from it stops the move there, as a crash would. */
export type StepHook = (step: 'planned' | 'moved' | 'verified', plan: MovePlan) => Promise<void> | void;

const exists = (file: string) =>
  fs.lstat(file).then(
    () => true,
    () => false,
  );
const isInside = (root: string, target: string) => {
  const relative = path.relative(path.resolve(root), path.resolve(target));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};

/** Folder-relative paths use `/`; anything that climbs out of the folder is refused. */
export function normaliseRelativePath(relativePath: string): string | null {
  const parts: string[] = [];
  for (const part of relativePath.replace(/\\/g, '/').split('/')) {
    if (!part || part === '.') continue;
    if (part === '..') {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length ? parts.join('/') : null;
}

/**
 * Moves without ever replacing an existing file: a hard link fails when the target exists, and the source is only
 * unlinked once the target is in place. Across file systems a copy made with COPYFILE_EXCL does the same.
 */
/** Waits before the next try when a file is busy (another program has it open), as Shoko does. */
const BUSY_RETRY_DELAYS_MS = [750, 3000, 5000];
const BUSY_CODES = new Set(['EBUSY', 'ETXTBSY', 'EAGAIN']);

async function retryWhileBusy<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (!code || !BUSY_CODES.has(code) || attempt >= BUSY_RETRY_DELAYS_MS.length) throw error;
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_DELAYS_MS[attempt]));
    }
  }
}

async function moveNoClobber(from: string, to: string): Promise<void> {
  await retryWhileBusy(async () => {
    try {
      await fs.link(from, to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw error;
      // Another disk: a copy, which needs room for the whole file first.
      const [{ size }, space] = await Promise.all([fs.stat(from), fs.statfs(path.dirname(to))]);
      if (space.bavail * space.bsize < size)
        throw Object.assign(new Error(`not enough free space on the destination for ${size} bytes`), { code: 'ENOSPC' });
      try {
        await fs.copyFile(from, to, fs.constants.COPYFILE_EXCL);
      } catch (copyError) {
        // The target was created by this copy (COPYFILE_EXCL), so a half-written one is ours to remove.
        if ((copyError as NodeJS.ErrnoException).code !== 'EEXIST') await fs.rm(to, { force: true });
        throw copyError;
      }
    }
  });
  await retryWhileBusy(() => fs.unlink(from));
}

/** A file that moved or was renamed, for the hub's FileMoved / FileRenamed events. */
export interface RelocatedFile {
  fileId: number;
  locationId: number;
  from: { folderId: number; relativePath: string };
  to: { folderId: number; relativePath: string };
}

/**
 * Journaled relocation: every move is planned in the database before the disk is touched, then moved, verified and
 * committed together with the location record. {@link Relocator.recover} finishes or rolls back what a crash left.
 */
export class Relocator {
  stepHook: StepHook | null = null;
  /** Told about every committed relocation. */
  onRelocated: ((file: RelocatedFile) => void) | null = null;

  constructor(
    private readonly store: RenamerStore,
    private readonly folders: () => Promise<PlacedFolder[]>,
    private readonly isVideo: (fileName: string) => boolean,
    private readonly logger: Logger,
  ) {}

  newBatch(): string {
    return randomUUID();
  }

  /** Sidecars: other files in the same directory whose name is the video's base name plus a suffix. */
  private async sidecarsOf(absolute: string): Promise<string[]> {
    const directory = path.dirname(absolute);
    const name = path.basename(absolute);
    const base = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name;
    const entries = await fs.readdir(directory, { withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isFile() && e.name !== name && e.name.startsWith(`${base}.`) && !this.isVideo(e.name))
      .map((e) => e.name);
  }

  async execute(plan: MovePlan, batchId: string, options: MoveOptions): Promise<MoveOutcome> {
    const source = path.join(plan.from.folder.path, plan.from.relativePath);
    const target = path.join(plan.to.folder.path, plan.to.relativePath);
    const offline = offlineFolderError(plan.from.folder, plan.to.folder);
    if (offline) return { ok: false, error: offline, retryable: true };
    if (!isInside(plan.to.folder.path, target)) return { ok: false, error: 'The provided relative path leads outside the import folder.' };
    if (source === target) return { ok: true, moved: false };
    if (!(await exists(source))) return { ok: false, error: `Could not find or access the file to move: "${source}"`, retryable: true };
    if ((await exists(target)) || (await this.store.locationAt(plan.to.folder.id, plan.to.relativePath))) {
      return { ok: false, error: `Not moving: a file already exists at the new location: "${target}"` };
    }

    const sourceDirectory = path.dirname(plan.from.relativePath);
    const targetDirectory = path.dirname(plan.to.relativePath);
    const sourceBase = path.basename(plan.from.relativePath).replace(/\.[^.]*$/, '');
    const targetBase = path.basename(plan.to.relativePath).replace(/\.[^.]*$/, '');
    const entries: JournalEntry[] = [
      {
        file_id: plan.fileId,
        location_id: plan.locationId,
        kind: 'file',
        from_folder_id: plan.from.folder.id,
        from_path: plan.from.relativePath,
        to_folder_id: plan.to.folder.id,
        to_path: plan.to.relativePath,
      },
    ];
    for (const sidecar of await this.sidecarsOf(source)) {
      const to = path.posix.join(targetDirectory, targetBase + sidecar.slice(sourceBase.length));
      // A sidecar that would land on an existing file stays where it is.
      if (await exists(path.join(plan.to.folder.path, to))) continue;
      entries.push({ ...entries[0], kind: 'sidecar', from_path: path.posix.join(sourceDirectory, sidecar), to_path: to });
    }

    // Make sure the target directory really is inside the folder (no symbolic link leading out).
    const targetDirAbsolute = path.dirname(target);
    await fs.mkdir(targetDirAbsolute, { recursive: true });
    const [realRoot, realDirectory] = await Promise.all([fs.realpath(plan.to.folder.path), fs.realpath(targetDirAbsolute)]);
    if (realDirectory !== realRoot && !isInside(realRoot, realDirectory))
      return { ok: false, error: 'The provided relative path leads outside the import folder.' };

    const rows = await this.store.plan(entries, batchId);
    await this.stepHook?.('planned', plan);
    const [videoRow, ...sidecarRows] = rows;
    try {
      await moveNoClobber(source, target);
    } catch (error) {
      await this.store.setState([videoRow.id, ...sidecarRows.map((r) => r.id)], 'rolled_back', (error as Error).message);
      const code = (error as NodeJS.ErrnoException).code;
      return {
        ok: false,
        error:
          code === 'EEXIST'
            ? `Not moving: a file already exists at the new location: "${target}"`
            : `Could not move the file: ${(error as Error).message}`,
      };
    }
    const moved = [videoRow];
    for (const row of sidecarRows) {
      try {
        await moveNoClobber(path.join(plan.from.folder.path, row.from_path), path.join(plan.to.folder.path, row.to_path));
        moved.push(row);
      } catch (error) {
        await this.store.setState([row.id], 'failed', (error as Error).message);
      }
    }
    await this.store.setState(
      moved.map((r) => r.id),
      'moved',
    );
    await this.stepHook?.('moved', plan);

    const stat = await fs.stat(target).catch(() => null);
    if (!stat || stat.size !== plan.size || (await exists(source))) {
      // Should never happen; the journal keeps the entry for recovery to decide.
      return { ok: false, error: `The moved file could not be verified at "${target}".` };
    }
    await this.stepHook?.('verified', plan);
    if (options.ownership) {
      for (const row of moved) await this.applyOwnership(path.join(plan.to.folder.path, row.to_path), options.ownership);
    }
    await this.store.commit(moved, plan.locationId, plan.to.folder.id, plan.to.relativePath);
    this.onRelocated?.({
      fileId: plan.fileId,
      locationId: plan.locationId,
      from: { folderId: plan.from.folder.id, relativePath: plan.from.relativePath },
      to: { folderId: plan.to.folder.id, relativePath: plan.to.relativePath },
    });
    if (options.deleteEmptyDirectories)
      await this.pruneEmptyDirectories(plan.from.folder.path, path.dirname(source), options.keepDirectories ?? []);
    return { ok: true, moved: true };
  }

  /** Best effort: a server that may not change owners (not root) still moves the file, and says so in the log. */
  private async applyOwnership(file: string, ownership: Ownership): Promise<void> {
    try {
      if (ownership.uid >= 0 || ownership.gid >= 0) await fs.chown(file, ownership.uid, ownership.gid);
      if (ownership.permission > 0) await fs.chmod(file, ownership.permission & 0o7777);
    } catch (error) {
      this.logger.warn(`Could not set the owner or permissions of "${file}": ${(error as Error).message}`);
    }
  }

  /** Removes empty directories from `directory` up to (not including) the folder root, keeping excluded ones. */
  private async pruneEmptyDirectories(root: string, directory: string, keep: RegExp[]): Promise<void> {
    // Patterns are written for paths with a trailing separator (e.g. `[\\/]\.Trash-\d+[\\/]`).
    let current = directory;
    while (isInside(root, current)) {
      if (keep.some((pattern) => pattern.test(`${current}${path.sep}`) || pattern.test(current))) return;
      try {
        await fs.rmdir(current);
      } catch {
        return;
      }
      current = path.dirname(current);
    }
  }

  /**
   * Completes or rolls back every journal entry a crash left unfinished. The video entry decides: moved on disk ⇒ the
   * location record is committed to the new path; otherwise rolled back. Sidecars follow their video.
   */
  async recover(): Promise<{ completed: number; rolledBack: number; failed: number }> {
    const pending = await this.store.unfinished();
    const summary = { completed: 0, rolledBack: 0, failed: 0 };
    if (!pending.length) return summary;
    const folders = new Map((await this.folders()).map((f) => [f.id, f]));
    const groups = new Map<string, JournalRow[]>();
    for (const row of pending) {
      const key = `${row.batch_id}:${row.location_id}`;
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    for (const rows of groups.values()) {
      const video = rows.find((r) => r.kind === 'file');
      const sidecars = rows.filter((r) => r.kind === 'sidecar');
      const pathsOf = (row: JournalRow) => {
        const from = folders.get(row.from_folder_id);
        const to = folders.get(row.to_folder_id);
        return from && to ? { from: path.join(from.path, row.from_path), to: path.join(to.path, row.to_path) } : null;
      };
      if (!video) {
        // Sidecars of a committed video that were not marked: put them where the video is.
        for (const row of sidecars) await this.settleSidecar(row, pathsOf(row), true);
        continue;
      }
      const paths = pathsOf(video);
      const offline = offlineFolderError(
        ...[folders.get(video.from_folder_id), folders.get(video.to_folder_id)].filter((f): f is PlacedFolder => !!f),
      );
      if (offline) {
        // Left unfinished: judged at the next start, when the folder may be back.
        this.logger.warn(`Relocation of "${video.from_path}" left for later: ${offline}`);
        continue;
      }
      if (!paths) {
        await this.store.setState(
          rows.map((r) => r.id),
          'failed',
          'The import folder no longer exists.',
        );
        summary.failed++;
        continue;
      }
      const state = await this.diskState(paths.from, paths.to);
      if (state === 'moved') {
        await this.store.commit([video], video.location_id, video.to_folder_id, video.to_path);
        for (const row of sidecars) await this.settleSidecar(row, pathsOf(row), true);
        summary.completed++;
        this.logger.info(`Recovered relocation: "${paths.from}" → "${paths.to}" completed`);
      } else if (state === 'not-moved') {
        await this.store.setState([video.id], 'rolled_back', 'Rolled back after an interrupted relocation.');
        for (const row of sidecars) await this.settleSidecar(row, pathsOf(row), false);
        summary.rolledBack++;
        this.logger.info(`Recovered relocation: "${paths.from}" stays (rolled back)`);
      } else {
        await this.store.setState(
          rows.map((r) => r.id),
          'failed',
          'The file is at neither its old nor its new path.',
        );
        summary.failed++;
      }
    }
    return summary;
  }

  /** Where a move stands on disk; a half-done link or copy is resolved towards one side. */
  private async diskState(from: string, to: string): Promise<'moved' | 'not-moved' | 'missing'> {
    const [source, target] = await Promise.all([fs.stat(from).catch(() => null), fs.stat(to).catch(() => null)]);
    if (source && target) {
      if (source.ino === target.ino && source.dev === target.dev) {
        // Linked but the old name not yet removed: finish the move.
        await fs.unlink(from);
        return 'moved';
      }
      // A copy that may be partial: the source is whole, so drop the copy.
      await fs.unlink(to);
      return 'not-moved';
    }
    if (target) return 'moved';
    if (source) return 'not-moved';
    return 'missing';
  }

  private async settleSidecar(row: JournalRow, paths: { from: string; to: string } | null, forward: boolean): Promise<void> {
    if (!paths) return this.store.setState([row.id], 'failed', 'The import folder no longer exists.');
    const state = await this.diskState(paths.from, paths.to);
    try {
      if (forward && state === 'not-moved') await moveNoClobber(paths.from, paths.to);
      if (!forward && state === 'moved') await moveNoClobber(paths.to, paths.from);
      await this.store.setState([row.id], forward ? 'committed' : 'rolled_back');
    } catch (error) {
      await this.store.setState([row.id], 'failed', (error as Error).message);
    }
  }

  /** Moves every committed file of a batch back where it was, as a new journaled batch. */
  async undo(batchId: string): Promise<{ batchId: string; restored: number; failed: { fileId: number; error: string }[] } | null> {
    const rows = await this.store.batch(batchId);
    if (!rows.length) return null;
    const folders = new Map((await this.folders()).map((f) => [f.id, f]));
    const undoBatch = this.newBatch();
    const failed: { fileId: number; error: string }[] = [];
    let restored = 0;
    for (const row of rows.filter((r) => r.kind === 'file' && r.state === 'committed' && !r.undone_by).reverse()) {
      const location = await this.store.location(row.location_id);
      const from = folders.get(row.to_folder_id);
      const to = folders.get(row.from_folder_id);
      if (!location || !from || !to || location.import_folder_id !== row.to_folder_id || location.relative_path !== row.to_path) {
        failed.push({ fileId: row.file_id, error: 'The file has moved since; it is left where it is.' });
        continue;
      }
      const size = (await fs.stat(path.join(from.path, row.to_path)).catch(() => null))?.size ?? -1;
      const outcome = await this.execute(
        {
          fileId: row.file_id,
          locationId: row.location_id,
          size,
          from: { folder: from, relativePath: row.to_path },
          to: { folder: to, relativePath: row.from_path },
        },
        undoBatch,
        { deleteEmptyDirectories: true },
      );
      if (outcome.ok) restored++;
      else failed.push({ fileId: row.file_id, error: outcome.error });
    }
    await this.store.markUndone(batchId, undoBatch);
    return { batchId: undoBatch, restored, failed };
  }
}
