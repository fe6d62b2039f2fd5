import type {
  JsonPatchOperation,
  Renamer,
  RenamerConfig,
  RenamerConfigInput,
  RenamerSetting,
  RenamerSettingValue,
} from '@shoko-ts/contract';
import { badRequest, conflict, FieldErrorCollector, notFound, validationError } from '../../http/problem.js';
import type { SettingsService } from '../settings/index.js';
import { defaultSettingsOf, definitionOf, RENAMERS, type RenamerPlugin } from './renamers.js';
import type { ConfigRow, RenamerStore } from './renamer.store.js';

export interface RelocationFlags {
  move: boolean;
  rename: boolean;
  allowRelocationInsideDestination: boolean;
}

export interface ResolvedConfig {
  name: string | null;
  plugin: RenamerPlugin;
  settings: Record<string, RenamerSettingValue>;
}

const TYPE_NAMES: Record<string, string> = {
  Integer: 'Int32',
  Decimal: 'Double',
  Boolean: 'Boolean',
  Code: 'String',
  Text: 'String',
  LargeText: 'String',
};

export interface RenamerConfigsDeps {
  store: RenamerStore;
  settings: SettingsService;
}

/** The renamers, their saved configs (`Renamer/Config*`) and how a preview or relocation resolves its config and flags. */
export class RenamerConfigs {
  constructor(protected readonly deps: RenamerConfigsDeps) {}

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
}
