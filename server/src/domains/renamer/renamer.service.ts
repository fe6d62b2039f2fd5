/**
 * DESIGN — renamer domain: renamers and their configs, previews and relocations (`/api/v3/Renamer*`, contract files.md §7),
 * rename-on-import, and the relocation journal (list, undo, crash recovery at start-up). Routes: renamer.routes.ts; SQL:
 * renamer.store.ts; renamers and configs: renamer-configs.ts; the script renamer: script.ts/renamers.ts; multi-step moves: relocation.ts. Relocations run as jobs
 * on the jobs queue; import folders come from the import-folders domain, and moved files are announced on the bus.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type { RelocationResult } from '@shoko-ts/contract';
import { badRequest, notFound } from '../../http/problem.js';
import type { QueueService } from '../../jobs/queue.service.js';
import { JobPriority, type JobDefinition } from '../../jobs/job.js';
import type { ImportFolderRow } from '../import-folders/index.js';
import { dirnameOf, type RenameFolder } from './renamers.js';
import { normaliseRelativePath, offlineFolderError, Relocator, type MoveOptions, type MovePlan, type RelocatedFile } from './relocation.js';
import { walkFilter } from '../import/index.js';
import { RenamerConfigs, type RelocationFlags, type RenamerConfigsDeps, type ResolvedConfig } from './renamer-configs.js';
import type { RenameCandidate } from './renamer.store.js';

type Computed = { ok: true; folderId: number; relativePath: string; isRelocated: boolean } | { ok: false; error: string };

type PlacedRenameFolder = RenameFolder & { path: string; available: boolean; name: string };
const folderOf = (row: ImportFolderRow): PlacedRenameFolder => ({
  id: row.id,
  path: row.path,
  isSource: !!row.is_drop_source,
  isDestination: !!row.is_drop_destination,
  available: row.is_available === 1,
  name: row.name,
});
const absolute = (folder: { path: string }, relativePath: string) => path.join(folder.path, relativePath);

/** Renamer configs, previews and journaled relocations (contract files.md §7). */
export class RenamerService extends RenamerConfigs {
  declare protected readonly deps: RenamerConfigsDeps & {
    folders: () => Promise<ImportFolderRow[]>;
    logger: Logger;
    jobs?: QueueService;
  };
  readonly relocator: Relocator;
  /** Relocations run one at a time so two batches never race for the same target. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The queued form of {@link renameOnImport}: one "Rename/Move File" job per file. */
  private readonly job: JobDefinition<{ fileId: number }>;

  constructor(deps: RenamerService['deps']) {
    super(deps);
    this.job = {
      kind: 'RenameMoveFileJob',
      type: 'Rename/Move File',
      title: 'Renaming/Moving File',
      group: 'Import',
      priority: JobPriority.Maintenance,
      key: (p) => `${p.fileId}`,
      details: (p) => ({ FileID: p.fileId }),
      run: async (p) => {
        await this.renameOnImport(p.fileId);
      },
    };
    deps.jobs?.register(this.job);
    this.relocator = new Relocator(
      deps.store,
      async () => (await deps.folders()).map((f) => ({ id: f.id, path: f.path, available: f.is_available === 1, name: f.name })),
      (name) => {
        const extension = path.extname(name).slice(1).toUpperCase();
        return deps.settings.current.Import.VideoExtensions.some((e) => e.trim().replace(/^\./, '').toUpperCase() === extension);
      },
      deps.logger,
    );
  }

  /** Told about every committed relocation (the hub's FileMoved / FileRenamed). */
  set onRelocated(listener: ((file: RelocatedFile) => void) | null) {
    this.relocator.onRelocated = listener;
  }

  // Computing new paths

  private compute(
    candidate: RenameCandidate,
    config: ResolvedConfig,
    flags: RelocationFlags,
    folders: Map<number, PlacedRenameFolder>,
  ): Computed {
    const folder = folders.get(candidate.folderId);
    if (!folder) return { ok: false, error: `Unable to find the import folder with ID ${candidate.folderId}.` };
    const sourceOffline = offlineFolderError(folder);
    if (sourceOffline) return { ok: false, error: sourceOffline };
    if (!folder.isSource && !folder.isDestination)
      return { ok: false, error: 'Not relocating file as it is not in a drop source or drop destination.' };
    if (!folder.isSource && !flags.allowRelocationInsideDestination) {
      return {
        ok: false,
        error:
          "Not relocating file because it's in a drop destination not also marked as a drop source and relocating inside destinations is disabled.",
      };
    }
    if (candidate.missingEpisodes > 0)
      return {
        ok: false,
        error: `Not enough data to do renaming for the recognized file. Missing metadata for ${candidate.missingEpisodes} episodes.`,
      };
    if (!candidate.subject && !config.plugin.supportsUnrecognized)
      return { ok: false, error: 'Configured renamer does not support unrecognized files, and the file is unrecognized.' };
    const output = config.plugin.rename({
      subject: candidate.subject,
      folder,
      relativePath: candidate.relativePath,
      folders: [...folders.values()].filter((f) => f.isSource || f.isDestination),
      move: flags.move,
      rename: flags.rename,
      settings: config.settings,
      animeDirectories: candidate.animeDirectories,
      series: candidate.series,
    });
    if ('error' in output) return { ok: false, error: output.error };

    const currentName = path.posix.basename(candidate.relativePath);
    let fileName = currentName;
    let directory = dirnameOf(candidate.relativePath);
    let folderId = candidate.folderId;
    let renamerDirectory = output.directory;
    if (flags.rename) {
      const given = (output.fileName ?? '').replace(/\\/g, '/');
      if (!given.trim())
        return { ok: false, error: `The renamer "${config.plugin.name}" returned a null or empty value for the file name.` };
      const leaf = given.slice(given.lastIndexOf('/') + 1);
      if (given.includes('/') && renamerDirectory === undefined) renamerDirectory = given.slice(0, given.lastIndexOf('/'));
      if (!leaf.trim())
        return { ok: false, error: `The renamer "${config.plugin.name}" returned a null or empty value for the file name.` };
      fileName = leaf;
    }
    if (flags.move) {
      if (output.folderId === undefined || !folders.has(output.folderId) || renamerDirectory === undefined) {
        return { ok: false, error: `The renamer "${config.plugin.name}" could not find a valid destination.` };
      }
      folderId = output.folderId;
      directory = renamerDirectory;
    }
    const relativePath = normaliseRelativePath(directory ? `${directory}/${fileName}` : fileName);
    if (!relativePath) return { ok: false, error: 'The provided relative path leads outside the import folder.' };
    const targetOffline = offlineFolderError(folders.get(folderId)!);
    if (targetOffline) return { ok: false, error: targetOffline };
    const isRelocated = folderId !== candidate.folderId || relativePath !== candidate.relativePath;
    return { ok: true, folderId, relativePath, isRelocated };
  }

  private async folderMap() {
    return new Map((await this.deps.folders()).map((row) => [row.id, folderOf(row)]));
  }

  /** Per file id, in order: the first location's candidate or the reason there is none. */
  private async firstCandidates(fileIds: number[]): Promise<Map<number, RenameCandidate[]>> {
    const byFile = new Map<number, RenameCandidate[]>();
    for (const candidate of await this.deps.store.candidates(fileIds))
      byFile.set(candidate.fileId, [...(byFile.get(candidate.fileId) ?? []), candidate]);
    return byFile;
  }

  async preview(fileIds: number[], config: ResolvedConfig, flags: RelocationFlags): Promise<RelocationResult[]> {
    const folders = await this.folderMap();
    const candidates = await this.firstCandidates(fileIds);
    const known = new Set(await this.deps.store.existingFiles(fileIds));
    return fileIds.map((fileId) => {
      if (!known.has(fileId))
        return { FileID: fileId, IsSuccess: false, IsPreview: true, ErrorMessage: `Unable to find File with ID ${fileId}` };
      const candidate = candidates.get(fileId)?.[0];
      if (!candidate)
        return {
          FileID: fileId,
          IsSuccess: false,
          IsPreview: true,
          ErrorMessage: `Unable to find any resolvable File.Location for File with ID ${fileId}.`,
        };
      return this.resultOf(candidate, this.compute(candidate, config, flags, folders), config, folders, true);
    });
  }

  private resultOf(
    candidate: RenameCandidate,
    computed: Computed,
    config: ResolvedConfig,
    folders: Map<number, PlacedRenameFolder>,
    preview: boolean,
  ): RelocationResult {
    const base: RelocationResult = {
      FileID: candidate.fileId,
      FileLocationID: candidate.locationId,
      ...(config.name !== null ? { ConfigName: config.name } : {}),
      IsSuccess: computed.ok,
    };
    if (preview) base.IsPreview = true;
    if (!computed.ok) return { ...base, ErrorMessage: computed.error };
    return {
      ...base,
      ImportFolderID: computed.folderId,
      IsRelocated: computed.isRelocated,
      RelativePath: computed.relativePath,
      AbsolutePath: absolute(folders.get(computed.folderId)!, computed.relativePath),
    };
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Renames/moves every location of the given files as one journaled batch. */
  async relocate(
    fileIds: number[],
    config: ResolvedConfig,
    flags: RelocationFlags,
    options: { deleteEmptyDirectories: boolean },
  ): Promise<{ batchId: string; results: RelocationResult[] }> {
    return this.serialized(async () => {
      const batchId = this.relocator.newBatch();
      const folders = await this.folderMap();
      const candidates = await this.firstCandidates(fileIds);
      const known = new Set(await this.deps.store.existingFiles(fileIds));
      const results: RelocationResult[] = [];
      const nameOf = config.name !== null ? { ConfigName: config.name } : {};
      for (const fileId of fileIds) {
        if (!known.has(fileId)) {
          results.push({ FileID: fileId, ...nameOf, IsSuccess: false, ErrorMessage: `Unable to find File with ID ${fileId}` });
          continue;
        }
        const locations = candidates.get(fileId) ?? [];
        if (!locations.length) {
          results.push({
            FileID: fileId,
            ...nameOf,
            IsSuccess: false,
            ErrorMessage: `Unable to find any resolvable File.Location for File with ID ${fileId}.`,
          });
          continue;
        }
        if (!flags.move && !flags.rename) {
          results.push({
            FileID: fileId,
            FileLocationID: locations[0].locationId,
            ...nameOf,
            IsSuccess: false,
            ErrorMessage: 'Rename and Move are both set to false. Nothing to do.',
          });
          continue;
        }
        let first: RelocationResult | null = null;
        for (const candidate of locations) {
          const result = await this.relocateCandidate(candidate, config, flags, folders, batchId, options);
          first ??= result;
        }
        results.push(first!);
      }
      return { batchId, results };
    });
  }

  private async relocateCandidate(
    candidate: RenameCandidate,
    config: ResolvedConfig,
    flags: RelocationFlags,
    folders: Map<number, PlacedRenameFolder>,
    batchId: string,
    options: { deleteEmptyDirectories: boolean },
  ): Promise<RelocationResult> {
    const computed = this.compute(candidate, config, flags, folders);
    if (!computed.ok || !computed.isRelocated) return this.resultOf(candidate, computed, config, folders, false);
    const plan: MovePlan = {
      fileId: candidate.fileId,
      locationId: candidate.locationId,
      size: candidate.size,
      from: { folder: folders.get(candidate.folderId)!, relativePath: candidate.relativePath },
      to: { folder: folders.get(computed.folderId)!, relativePath: computed.relativePath },
    };
    const outcome = await this.relocator.execute(plan, batchId, this.moveOptions(options.deleteEmptyDirectories, true));
    if (!outcome.ok) return this.resultOf(candidate, { ok: false, error: outcome.error }, config, folders, false);
    return this.resultOf(candidate, { ...computed, isRelocated: outcome.moved }, config, folders, false);
  }

  /**
   * Renames and moves chosen by a config (N13, N14, on import) give the file the owner and mode of settings Linux; a
   * move to an explicit path (N12) leaves them. Directories matching Import.Exclude are never pruned.
   */
  private moveOptions(deleteEmptyDirectories: boolean, applyOwnership: boolean): MoveOptions {
    const current = this.deps.settings.current;
    const { UID, GID, Permission } = current.Linux;
    const changesSomething = UID >= 0 || GID >= 0 || Permission > 0;
    return {
      deleteEmptyDirectories,
      ownership: applyOwnership && changesSomething && process.platform !== 'win32' ? { uid: UID, gid: GID, permission: Permission } : null,
      keepDirectories: walkFilter(current.Import).exclude,
    };
  }

  /** N12: one location to an explicit path. */
  async relocateLocation(
    locationId: number,
    body: { ImportFolderID: number; RelativePath: string; DeleteEmptyDirectories?: boolean },
  ): Promise<RelocationResult> {
    const location = await this.deps.store.location(locationId);
    if (!location) throw notFound('No File.Location entry for the given locationID.');
    const folders = await this.folderMap();
    const target = folders.get(body.ImportFolderID);
    if (!target) throw badRequest(`Unknown import folder with the given id \`${body.ImportFolderID}\`.`);
    const relativePath = normaliseRelativePath(body.RelativePath);
    if (!relativePath || body.RelativePath.startsWith('/')) throw badRequest('The provided relative path leads outside the import folder.');
    const source = folders.get(location.import_folder_id)!;
    return this.serialized(async () => {
      const size = (await this.deps.store.fileSize(location.file_id)) ?? -1;
      const outcome = await this.relocator.execute(
        {
          fileId: location.file_id,
          locationId,
          size,
          from: { folder: source, relativePath: location.relative_path },
          to: { folder: target, relativePath },
        },
        this.relocator.newBatch(),
        this.moveOptions(body.DeleteEmptyDirectories ?? true, false),
      );
      if (!outcome.ok) return { FileID: location.file_id, FileLocationID: locationId, IsSuccess: false, ErrorMessage: outcome.error };
      return {
        FileID: location.file_id,
        FileLocationID: locationId,
        IsSuccess: true,
        IsRelocated: outcome.moved,
        ImportFolderID: target.id,
        RelativePath: relativePath,
        AbsolutePath: absolute(target, relativePath),
      };
    });
  }

  /**
   * Rename/move after import, per Plugins.Renamer (RenameOnImport, MoveOnImport, AllowRelocationInsideDestinationOnImport)
   * with the default config. Does nothing when both are off; failures are logged and returned, never thrown.
   */
  async renameOnImport(fileId: number): Promise<RelocationResult[]> {
    const settings = this.deps.settings.current.Plugins.Renamer;
    if (!settings.RenameOnImport && !settings.MoveOnImport) return [];
    try {
      const config = await this.defaultConfig({
        config: 'The specified default renamer does not exist.',
        renamer: 'No renamers configured for the default config.',
      });
      const { results } = await this.relocate([fileId], config, this.flags({}), { deleteEmptyDirectories: true });
      for (const result of results)
        if (!result.IsSuccess) this.deps.logger.warn(`Rename on import of file ${fileId} failed: ${result.ErrorMessage}`);
      return results;
    } catch (error) {
      this.deps.logger.warn(`Rename on import of file ${fileId} failed: ${(error as Error).message}`);
      return [{ FileID: fileId, IsSuccess: false, ErrorMessage: (error as Error).message }];
    }
  }

  /**
   * Queues {@link renameOnImport} for each file (persisted, survives restarts). Nothing is queued when neither
   * RenameOnImport nor MoveOnImport is set. Returns how many jobs were queued.
   */
  async queueRenameOnImport(fileIds: number[]): Promise<number> {
    const settings = this.deps.settings.current.Plugins.Renamer;
    if (!this.deps.jobs || (!settings.RenameOnImport && !settings.MoveOnImport) || !fileIds.length) return 0;
    return this.deps.jobs.enqueueMany(
      this.job,
      fileIds.map((fileId) => ({ fileId })),
    );
  }

  recover() {
    return this.serialized(() => this.relocator.recover());
  }

  async undo(batchId: string) {
    const result = await this.serialized(() => this.relocator.undo(batchId));
    if (!result) throw notFound('Relocation batch not found');
    return result;
  }

  batches(limit = 50) {
    return this.deps.store.batches(limit);
  }
}
