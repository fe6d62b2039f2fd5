/**
 * DESIGN — settings domain: the server settings object (`/api/v3/Settings*`, contract server.md §3.6) kept in
 * `<home>/settings-server.json`: defaults, JSON Patch, validation, secrets that are write-only, supported languages.
 * Routes: settings.routes.ts; storage: settings.store.ts (the JSON file, not SQL). Every other domain reads
 * `settings.current`; a save is announced on the event bus (`settings:saved`) so logs, queue and watchers follow it.
 */
import type { Logger } from 'pino';
import { isDeepStrictEqual } from 'node:util';
import { SECRET_SETTING_PATHS, type JsonPatchOperation, type ServerSettings, type SupportedLanguage } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { validationError } from '../../http/problem.js';
import { supportedLanguages } from './languages.js';
import { defaultSettings } from './settings.defaults.js';
import { applySettingsPatch } from './settings.patch.js';
import { settingsSchema, type ObjectKind } from './settings.schema.js';
import { overlay, SettingsStore } from './settings.store.js';
import { normalizeSettings, validateSettings } from './settings.validation.js';

/** Properties Shoko leaves out of its output while they are false. */
const OMITTED_WHILE_FALSE = [
  ['Database', 'LogSqlInConsole'],
  ['Web', 'AlwaysUseDeveloperExceptions'],
] as const;

function getPath(settings: ServerSettings, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], settings);
}

function setPath(settings: ServerSettings, path: string, value: unknown): void {
  const keys = path.split('.');
  const parent = keys.slice(0, -1).reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, settings as never);
  parent[keys[keys.length - 1]] = value;
}

/** Dotted paths of every leaf that differs between two settings objects. */
function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (isDeepStrictEqual(before, after)) return [];
  const bothObjects =
    typeof before === 'object' && before && typeof after === 'object' && after && !Array.isArray(before) && !Array.isArray(after);
  if (!bothObjects) return [prefix];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].flatMap((key) =>
    changedPaths((before as Record<string, unknown>)[key], (after as Record<string, unknown>)[key], prefix ? `${prefix}.${key}` : key),
  );
}

/**
 * The server settings: loaded once, changed only through `patch` (the API) or `update` (the server itself), saved
 * atomically, announced on the bus. Secrets are write-only: `redacted()` blanks them and a patch that leaves them
 * empty keeps what is stored.
 */
export class SettingsService {
  private settings: ServerSettings;

  private constructor(
    private readonly store: SettingsStore,
    private readonly defaults: ServerSettings,
    private readonly schema: ObjectKind,
    private readonly logger: Logger,
    private readonly bus: EventBus,
    initial: ServerSettings,
  ) {
    this.settings = initial;
  }

  static async open(deps: { home: string; logger: Logger; bus: EventBus }): Promise<SettingsService> {
    const defaults = defaultSettings(deps.home);
    const schema = settingsSchema(defaults);
    const store = new SettingsStore(deps.home);
    const loaded = await store.load(defaults, schema);
    const settings = loaded ?? structuredClone(defaults);
    normalizeSettings(settings);
    if (!loaded) await store.save(settings);
    return new SettingsService(store, defaults, schema, deps.logger, deps.bus, settings);
  }

  /** The live settings. Treat as read-only: change them through `patch` or `update`. */
  get current(): Readonly<ServerSettings> {
    return this.settings;
  }

  /** What `GET /api/v3/Settings` answers. */
  redacted(): ServerSettings {
    const copy = structuredClone(this.settings);
    for (const path of SECRET_SETTING_PATHS) {
      if (getPath(copy, path)) setPath(copy, path, '');
    }
    for (const [section, key] of OMITTED_WHILE_FALSE) {
      const object = copy[section] as unknown as Record<string, unknown>;
      if (!object[key]) delete object[key];
    }
    return copy;
  }

  /**
   * Applies a JSON Patch from a client. Any failing operation or rule → 400 and nothing is saved, unless validation
   * is skipped, which only the first-run wizard may do (it saves before AniDB credentials exist).
   */
  async patch(operations: JsonPatchOperation[], options: { skipValidation: boolean }): Promise<void> {
    const skipValidation = options.skipValidation && this.settings.FirstRun;
    const { result, errors } = applySettingsPatch(this.settings, operations, this.schema, this.defaults);
    for (const path of SECRET_SETTING_PATHS) {
      if (!getPath(result, path) && getPath(this.settings, path)) setPath(result, path, getPath(this.settings, path));
    }
    // The server alone decides when the first run is over.
    result.FirstRun = this.settings.FirstRun;
    normalizeSettings(result);
    if (!skipValidation) {
      const problems = { ...errors, ...validateSettings(result) };
      if (Object.keys(problems).length) throw validationError(problems);
    } else if (Object.keys(errors).length) {
      this.logger.warn({ errors }, 'Settings saved with operations that could not be applied');
    }
    await this.commit(result);
  }

  /** A change made by the server itself (first-run completion, Trakt tokens…). */
  async update(mutate: (settings: ServerSettings) => void): Promise<void> {
    const next = structuredClone(this.settings);
    mutate(next);
    normalizeSettings(next);
    await this.commit(next);
  }

  /**
   * Takes over settings another program wrote in the same shape (Shoko Server's own file, when moving from it): each
   * field of `values` the schema knows replaces ours where its value converts; anything else keeps our value.
   */
  async adopt(values: Record<string, unknown>): Promise<void> {
    const next = overlay(this.schema, this.settings as unknown as Record<string, unknown>, values) as unknown as ServerSettings;
    normalizeSettings(next);
    await this.commit(next);
  }

  supportedLanguages(): SupportedLanguage[] {
    return supportedLanguages();
  }

  private async commit(next: ServerSettings): Promise<void> {
    const changed = changedPaths(this.settings, next);
    if (!changed.length) return;
    await this.store.save(next);
    this.settings = next;
    this.logger.info(`Settings saved (${changed.filter((p) => !SECRET_SETTING_PATHS.includes(p as never)).length} changed)`);
    this.bus.emit('settings:saved', { changedPaths: changed });
  }
}
