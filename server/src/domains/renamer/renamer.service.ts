/**
 * DESIGN — renamer domain: renamers and their configs, previews and relocations (`/api/v3/Renamer*`, contract files.md §7),
 * rename-on-import, and the relocation journal (list, undo, crash recovery at start-up). Routes: renamer.routes.ts; SQL:
 * renamer.store.ts; the script renamer: script.ts/renamers.ts; multi-step moves: relocation.ts. Relocations run as jobs
 * on the jobs queue; import folders come from the import-folders domain, and moved files are announced on the bus.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type {
  JsonPatchOperation,
  RelocationResult,
  Renamer,
  RenamerConfig,
  RenamerConfigInput,
  RenamerSetting,
  RenamerSettingValue,
} from '@shoko-ts/contract';
import { badRequest, conflict, FieldErrorCollector, notFound, validationError } from '../../http/problem.js';
import type { SettingsService } from '../settings/index.js';
import type { QueueService } from '../../jobs/queue.service.js';
import { JobPriority, type JobDefinition } from '../../jobs/job.js';
import type { ImportFolderRow } from '../import-folders/index.js';
import { defaultSettingsOf, definitionOf, dirnameOf, RENAMERS, type RenameFolder, type RenamerPlugin } from './renamers.js';
import { normaliseRelativePath, offlineFolderError, Relocator, type MoveOptions, type MovePlan, type RelocatedFile } from './relocation.js';
import { walkFilter } from '../import/index.js';
import type { ConfigRow, RenameCandidate, RenamerStore } from './renamer.store.js';

export interface RelocationFlags {
  move: boolean;
  rename: boolean;
  allowRelocationInsideDestination: boolean;
}

interface ResolvedConfig {
  name: string | null;
  plugin: RenamerPlugin;
  settings: Record<string, RenamerSettingValue>;
}

type Computed = { ok: true; folderId: number; relativePath: string; isRelocated: boolean } | { ok: false; error: string };

const TYPE_NAMES: Record<string, string> = {
  Integer: 'Int32',
  Decimal: 'Double',
  Boolean: 'Boolean',
  Code: 'String',
  Text: 'String',
  LargeText: 'String',
};
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
export class RenamerService {
  readonly relocator: Relocator;
  /** Relocations run one at a time so two batches never race for the same target. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The queued form of {@link renameOnImport}: one "Rename/Move File" job per file. */
  private readonly job: JobDefinition<{ fileId: number }>;

  constructor(
    private readonly deps: {
      store: RenamerStore;
      settings: SettingsService;
      folders: () => Promise<ImportFolderRow[]>;
      logger: Logger;
      jobs?: QueueService;
    },
  ) {
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

  // Renamers

  private isEnabled(plugin: RenamerPlugin): boolean {
    return this.deps.settings.current.Plugins.Renamer.EnabledRenamers[plugin.id] !== false;
  }

  private toModel(plugin: RenamerPlugin): Renamer {
    return {
      RenamerID: plugin.id,
      Version: plugin.version,
      Name: plugin.name,
      Description: plugin.description,
      Enabled: this.isEnabled(plugin),
      Settings: plugin.settings.map(definitionOf),
      DefaultSettings: defaultSettingsOf(plugin),
    };
  }

  renamers(): Renamer[] {
    return RENAMERS.map((p) => this.toModel(p));
  }

  private plugin(id: string | null | undefined): RenamerPlugin | null {
    const plugin = RENAMERS.find((p) => p.id === id);
    return plugin && this.isEnabled(plugin) ? plugin : null;
  }

  renamer(id: string): Renamer {
    const plugin = this.plugin(id);
    if (!plugin) throw notFound('Renamer not found');
    return this.toModel(plugin);
  }

  // Configs

  private configModel(row: ConfigRow): RenamerConfig {
    const plugin = RENAMERS.find((p) => p.id === row.renamerId);
    if (!plugin) return { RenamerID: '', Name: row.name, Settings: null };
    const stored = new Map(row.settings.map((s) => [s.Name, s.Value]));
    return {
      RenamerID: plugin.id,
      Name: row.name,
      Settings: plugin.settings.map((s) => ({ Name: s.Name, Value: stored.has(s.Name) ? (stored.get(s.Name) ?? null) : null })),
    };
  }

  async configs(): Promise<RenamerConfig[]> {
    return (await this.deps.store.configs()).map((row) => this.configModel(row));
  }

  private async configRow(name: string, message = 'Config not found'): Promise<ConfigRow> {
    const row = await this.deps.store.config(name);
    if (!row) throw notFound(message);
    return row;
  }

  async config(name: string): Promise<RenamerConfig> {
    return this.configModel(await this.configRow(name));
  }

  async configRenamer(name: string): Promise<Renamer> {
    const row = await this.configRow(name);
    const plugin = this.plugin(row.renamerId);
    if (!plugin) throw notFound('Renamer not found');
    return this.toModel(plugin);
  }

  /** Checks the body's required fields; every problem is reported at once. */
  private requireFields(body: RenamerConfigInput | null | undefined): {
    name: string;
    renamerId: string;
    settings: { Name: string; Value: unknown }[] | null;
  } {
    const errors = new FieldErrorCollector();
    if (!body) throw validationError('Body', 'A non-empty request body is required.');
    if (!body.Name) errors.add('Name', 'The Name field is required.');
    if (!body.RenamerID) errors.add('RenamerID', 'The RenamerID field is required.');
    body.Settings?.forEach((setting, i) => {
      if (!setting.Name) errors.add(`Settings[${i}].Name`, 'The Name field is required.');
    });
    errors.throwIfAny();
    return {
      name: body.Name!,
      renamerId: body.RenamerID!,
      settings: (body.Settings as { Name: string; Value: unknown }[] | null | undefined) ?? null,
    };
  }

  /** Converts given values onto `base`; values of the wrong type or out of range are 400s naming the setting. */
  private convertSettings(plugin: RenamerPlugin, given: { Name: string; Value: unknown }[], base: RenamerSetting[]): RenamerSetting[] {
    const values = new Map(base.map((s) => [s.Name, s.Value ?? null]));
    const errors = new FieldErrorCollector();
    for (const setting of given) {
      const spec = plugin.settings.find((s) => s.Name.toLowerCase() === setting.Name.toLowerCase());
      if (!spec) continue;
      const value = setting.Value ?? null;
      const field = `Settings[${spec.Name}].Value`;
      const typeError = () => errors.add(field, `Value must be of type ${TYPE_NAMES[spec.SettingType] ?? 'String'}`);
      if (value === null) {
        if (spec.SettingType === 'Integer' || spec.SettingType === 'Decimal' || spec.SettingType === 'Boolean') typeError();
        else values.set(spec.Name, null);
        continue;
      }
      if (spec.SettingType === 'Integer' || spec.SettingType === 'Decimal') {
        const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
        if (!Number.isFinite(number) || (spec.SettingType === 'Integer' && !Number.isInteger(number))) typeError();
        else if (
          (spec.MinimumValue !== undefined && number < spec.MinimumValue) ||
          (spec.MaximumValue !== undefined && number > spec.MaximumValue)
        ) {
          errors.add(field, `Value must be between ${spec.MinimumValue} and ${spec.MaximumValue}`);
        } else values.set(spec.Name, number);
      } else if (spec.SettingType === 'Boolean') {
        if (typeof value !== 'boolean') typeError();
        else values.set(spec.Name, value);
      } else if (typeof value !== 'string') typeError();
      else values.set(spec.Name, value);
    }
    errors.throwIfAny();
    return plugin.settings.map((s) => ({ Name: s.Name, Value: values.has(s.Name) ? values.get(s.Name)! : null }));
  }

  async createConfig(body: RenamerConfigInput | null | undefined): Promise<RenamerConfig> {
    const input = this.requireFields(body);
    if (!input.name.trim()) throw badRequest('Name is required');
    const plugin = this.plugin(input.renamerId);
    if (!plugin) throw notFound('Renamer not found');
    if (await this.deps.store.config(input.name)) throw conflict(`Config with name ${input.name} already exists`);
    const settings = input.settings?.length ? this.convertSettings(plugin, input.settings, []) : defaultSettingsOf(plugin);
    await this.deps.store.insertConfig({ name: input.name, renamerId: plugin.id, settings });
    return this.config(input.name);
  }

  async saveConfig(name: string, body: RenamerConfigInput | null | undefined): Promise<RenamerConfig> {
    const input = this.requireFields(body);
    const row = await this.configRow(name);
    const plugin = this.plugin(input.renamerId);
    if (!plugin) throw notFound('Renamer not found');
    if (!input.settings?.length) throw badRequest('Settings are required for a put request');
    const settings = this.convertSettings(plugin, input.settings, row.renamerId === plugin.id ? row.settings : defaultSettingsOf(plugin));
    await this.deps.store.updateConfig(row.id, { name: row.name, renamerId: plugin.id, settings });
    return this.config(row.name);
  }

  async patchConfig(name: string, operations: JsonPatchOperation[] | null | undefined): Promise<RenamerConfig> {
    if (!Array.isArray(operations)) throw validationError('Body', 'Invalid JSON Patch document.');
    const row = await this.configRow(name, 'Config not found.');
    const model: Record<string, unknown> = { ...this.configModel(row) };
    for (const operation of operations) {
      const field = ['Name', 'RenamerID', 'Settings'].find((k) => `/${k}`.toLowerCase() === operation.path.toLowerCase());
      if (!field || !['replace', 'add'].includes(operation.op))
        throw validationError('Body', `The operation ${operation.op} ${operation.path} is not supported on a renamer config.`);
      model[field] = operation.value;
    }
    const input = this.requireFields(model as RenamerConfigInput);
    if (!input.name.trim()) throw badRequest('Name is required');
    if (input.name !== row.name && (await this.deps.store.config(input.name)))
      throw conflict(`Renamer with name ${input.name} already exists.`);
    const plugin = this.plugin(input.renamerId);
    if (!plugin) throw notFound('Renamer not found');
    const settings = this.convertSettings(
      plugin,
      input.settings ?? [],
      row.renamerId === plugin.id ? row.settings : defaultSettingsOf(plugin),
    );
    await this.deps.store.updateConfig(row.id, { name: input.name, renamerId: plugin.id, settings });
    if (input.name !== row.name && this.deps.settings.current.Plugins.Renamer.DefaultRenamer === row.name) {
      await this.deps.settings.update((s) => {
        s.Plugins.Renamer.DefaultRenamer = input.name;
      });
    }
    return this.config(input.name);
  }

  async deleteConfig(name: string): Promise<void> {
    const row = await this.configRow(name);
    if (this.deps.settings.current.Plugins.Renamer.DefaultRenamer === row.name)
      throw validationError('Body', 'Default renamer config cannot be deleted!');
    await this.deps.store.deleteConfig(row.id);
  }

  // Resolving a config for preview/relocation

  /** An unsaved config from a preview body: no defaults are merged, only the given settings. */
  adHocConfig(body: RenamerConfigInput): ResolvedConfig {
    const input = this.requireFields(body);
    const plugin = this.plugin(input.renamerId);
    if (!plugin) throw notFound('Renamer not found');
    const settings = this.convertSettings(plugin, input.settings ?? [], []);
    return { name: null, plugin, settings: Object.fromEntries(settings.map((s) => [s.Name, s.Value ?? null])) };
  }

  async savedConfig(name: string | null, messages: { config: string; renamer: string }): Promise<ResolvedConfig> {
    const row = name === null ? null : await this.deps.store.config(name);
    if (!row) throw notFound(messages.config);
    const plugin = this.plugin(row.renamerId);
    if (!plugin) throw badRequest(messages.renamer);
    return { name: row.name, plugin, settings: Object.fromEntries(this.configModel(row).Settings!.map((s) => [s.Name, s.Value ?? null])) };
  }

  defaultConfigName(): string | null {
    return this.deps.settings.current.Plugins.Renamer.DefaultRenamer || null;
  }

  async defaultConfig(messages: { config: string; renamer: string }): Promise<ResolvedConfig> {
    return this.savedConfig(this.defaultConfigName(), messages);
  }

  flags(query: { move?: boolean; rename?: boolean; allowRelocationInsideDestination?: boolean }): RelocationFlags {
    const settings = this.deps.settings.current.Plugins.Renamer;
    return {
      move: query.move ?? settings.MoveOnImport,
      rename: query.rename ?? settings.RenameOnImport,
      allowRelocationInsideDestination: query.allowRelocationInsideDestination ?? settings.AllowRelocationInsideDestinationOnImport,
    };
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
