import { AniDBFileDeleteType, AniDBFileState, ScheduledUpdateFrequency, type ServerSettings } from '@shoko-ts/contract';

/**
 * The shape of the settings object as a tree of field kinds, so a JSON Patch can convert each value to the type the
 * field holds (the console sends numbers of <select>s as strings) and refuse what does not fit.
 */
export type FieldKind =
  | { kind: 'bool' }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'string'; nullable: boolean }
  | { kind: 'enum'; values: Record<string, number> }
  | { kind: 'list'; item: FieldKind }
  | { kind: 'dict'; value: FieldKind }
  | { kind: 'object'; typeName: string; fields: Record<string, FieldKind> }
  | { kind: 'readonly' };

const INT32 = { min: -2147483648, max: 2147483647 };
const int = (): FieldKind => ({ kind: 'int', ...INT32 });
const ushort = (): FieldKind => ({ kind: 'int', min: 0, max: 65535 });
const enumOf = (values: Record<string, number>): FieldKind => ({ kind: 'enum', values });
const stringList = (): FieldKind => ({ kind: 'list', item: { kind: 'string', nullable: false } });

/** The C# class names Shoko reports patch errors under; clients may show them. */
const TYPE_NAMES: Record<string, string> = {
  '': 'ServerSettings',
  Database: 'DatabaseSettings',
  Quartz: 'QuartzSettings',
  Connectivity: 'ConnectivitySettings',
  Language: 'LanguageSettings',
  AniDb: 'AniDbSettings',
  'AniDb.AVDump': 'AVDumpSettings',
  'AniDb.HTTPRateLimit': 'AnidbRateLimitSettings',
  'AniDb.UDPRateLimit': 'AnidbRateLimitSettings',
  TMDB: 'TMDBSettings',
  Import: 'ImportSettings',
  'Import.Hasher': 'HasherSettings',
  Plex: 'PlexSettings',
  TraktTv: 'TraktSettings',
  Plugins: 'PluginSettings',
  'Plugins.Renamer': 'RenamerSettings',
  FileQualityPreferences: 'FileQualityPreferences',
  LogRotator: 'LogRotatorSettings',
  Linux: 'LinuxSettings',
  Web: 'WebSettings',
  Playback: 'PlaybackSettings',
};

/** Fields whose kind the default value cannot tell. */
const OVERRIDES: Record<string, FieldKind> = {
  ImagesPath: { kind: 'string', nullable: true },
  'AniDb.Username': { kind: 'string', nullable: true },
  'AniDb.Password': { kind: 'string', nullable: true },
  'AniDb.AVDumpKey': { kind: 'string', nullable: true },
  'AniDb.UDPServerPort': ushort(),
  'AniDb.ClientPort': ushort(),
  'AniDb.AVDumpClientPort': ushort(),
  'AniDb.MyList_StorageState': enumOf(AniDBFileState),
  'AniDb.MyList_DeleteType': enumOf(AniDBFileDeleteType),
  'AniDb.MyList_UpdateFrequency': enumOf(ScheduledUpdateFrequency),
  'AniDb.Calendar_UpdateFrequency': enumOf(ScheduledUpdateFrequency),
  'AniDb.Anime_UpdateFrequency': enumOf(ScheduledUpdateFrequency),
  'AniDb.File_UpdateFrequency': enumOf(ScheduledUpdateFrequency),
  'AniDb.Notification_UpdateFrequency': enumOf(ScheduledUpdateFrequency),
  'TraktTv.SyncFrequency': enumOf(ScheduledUpdateFrequency),
  'TraktTv.UpdateFrequency': enumOf(ScheduledUpdateFrequency),
  'TMDB.UserApiKey': { kind: 'string', nullable: true },
  'Import.MediaInfoPath': { kind: 'string', nullable: true },
  'Plex.Libraries': { kind: 'list', item: int() },
  'Connectivity.DisabledMonitorServices': stringList(),
  'Plugins.Priority': stringList(),
  'Plugins.EnabledPlugins': { kind: 'dict', value: { kind: 'bool' } },
  'Plugins.Renamer.EnabledRenamers': { kind: 'dict', value: { kind: 'bool' } },
  'Plugins.Renamer.RelocateOnImport': { kind: 'readonly' },
  'Plugins.Renamer.DefaultRenamer': { kind: 'string', nullable: true },
  'Quartz.LimitedConcurrencyOverrides': { kind: 'dict', value: int() },
  'Web.Port': ushort(),
};

function describe(value: unknown, path: string): FieldKind {
  const override = OVERRIDES[path];
  if (override) return override;
  if (typeof value === 'boolean') return { kind: 'bool' };
  if (typeof value === 'number') return int();
  if (typeof value === 'string') return { kind: 'string', nullable: false };
  if (value === null) return { kind: 'string', nullable: true };
  if (Array.isArray(value)) {
    return { kind: 'list', item: value.length && typeof value[0] === 'number' ? int() : { kind: 'string', nullable: false } };
  }
  const fields: Record<string, FieldKind> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    fields[key] = describe(child, path ? `${path}.${key}` : key);
  }
  const typeName = TYPE_NAMES[path] ?? (path.startsWith('FileQualityPreferences.Required') ? 'FileQualityTypeListPair' : path);
  return { kind: 'object', typeName, fields };
}

export type ObjectKind = Extract<FieldKind, { kind: 'object' }>;

export function settingsSchema(defaults: ServerSettings): ObjectKind {
  return describe(defaults, '') as ObjectKind;
}

export class ConversionError extends Error {}

/** Converts a JSON value to what a field of `kind` holds, the way a lenient .NET model binder would. */
export function convertValue(kind: FieldKind, value: unknown, defaults: unknown): unknown {
  switch (kind.kind) {
    case 'readonly':
      throw new ConversionError('The property is read-only.');
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
      throw new ConversionError(`The value '${String(value)}' is not a valid boolean.`);
    case 'int': {
      const number = toInteger(value);
      if (number === null || number < kind.min || number > kind.max) {
        throw new ConversionError(`The value '${String(value)}' is not a valid number between ${kind.min} and ${kind.max}.`);
      }
      return number;
    }
    case 'enum': {
      const number = toInteger(value);
      if (number !== null && Object.values(kind.values).includes(number)) return number;
      if (typeof value === 'string') {
        const name = Object.keys(kind.values).find((key) => key.toLowerCase() === value.trim().toLowerCase());
        if (name) return kind.values[name];
      }
      throw new ConversionError(`The value '${String(value)}' is not one of ${Object.keys(kind.values).join(', ')}.`);
    }
    case 'string':
      if (typeof value === 'string') return value;
      if (value === null || value === undefined) return kind.nullable ? null : '';
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw new ConversionError('The value is not a string.');
    case 'list': {
      // Lists of text may come as one comma-separated string, as the console's extension editor shows them.
      const items =
        typeof value === 'string' && kind.item.kind === 'string'
          ? value
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : value;
      if (!Array.isArray(items)) throw new ConversionError('The value is not a list.');
      return items.map((item) => convertValue(kind.item, item, undefined));
    }
    case 'dict': {
      if (!isPlainObject(value)) throw new ConversionError('The value is not an object.');
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, convertValue(kind.value, item, undefined)]));
    }
    case 'object': {
      if (!isPlainObject(value)) throw new ConversionError('The value is not an object.');
      const base = isPlainObject(defaults) ? defaults : {};
      const result: Record<string, unknown> = {};
      for (const [field, fieldKind] of Object.entries(kind.fields)) {
        const key = findKey(value, field);
        if (key === undefined || fieldKind.kind === 'readonly') result[field] = structuredClone(base[field]);
        else result[field] = convertValue(fieldKind, value[key], base[field]);
      }
      return result;
    }
  }
}

function toInteger(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return null;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Property names match case-insensitively, as in Shoko's patch binder. */
export function findKey(object: Record<string, unknown>, name: string): string | undefined {
  if (Object.hasOwn(object, name)) return name;
  const lower = name.toLowerCase();
  return Object.keys(object).find((key) => key.toLowerCase() === lower);
}
