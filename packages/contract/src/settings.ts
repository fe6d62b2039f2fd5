import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PlaybackSettings } from './playback.js';

/** `GET /api/v3/Settings` — the whole server settings object (contract server.md §3.6). */

export const ScheduledUpdateFrequency = {
  Never: 1,
  HoursSix: 2,
  HoursTwelve: 3,
  Daily: 4,
  WeekOne: 5,
  MonthOne: 6,
} as const;
export type ScheduledUpdateFrequency = (typeof ScheduledUpdateFrequency)[keyof typeof ScheduledUpdateFrequency];

export const AniDBFileState = { Unknown: 0, HDD: 1, Disk: 2, Deleted: 3, Remote: 4 } as const;
export type AniDBFileState = (typeof AniDBFileState)[keyof typeof AniDBFileState];

export const AniDBFileDeleteType = {
  Delete: 0,
  DeleteLocalOnly: 1,
  MarkDeleted: 2,
  MarkExternalStorage: 3,
  MarkUnknown: 4,
  MarkDisk: 5,
} as const;
export type AniDBFileDeleteType = (typeof AniDBFileDeleteType)[keyof typeof AniDBFileDeleteType];

export const FileQualityFilterType = {
  RESOLUTION: 0,
  SOURCE: 1,
  VERSION: 2,
  AUDIOSTREAMCOUNT: 3,
  VIDEOCODEC: 4,
  AUDIOCODEC: 5,
  CHAPTER: 6,
  SUBGROUP: 7,
  SUBSTREAMCOUNT: 8,
} as const;

export const FileQualityFilterOperationType = { EQUALS: 0, LESS_EQ: 1, GREATER_EQ: 2, IN: 3, NOTIN: 4 } as const;

const Int = () => Type.Integer();
const Strings = () => Type.Array(Type.String());
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** A secret: accepted by PATCH, never read back (GET answers `""` when one is stored). */
const writeOnly = { description: 'Write-only: GET Settings answers "" when a value is stored.' };
const Frequency = () => Type.Enum(ScheduledUpdateFrequency);

export const RateLimitSettings = Type.Object({
  BaseRateInSeconds: Int(),
  SlowRateMultiplier: Int(),
  SlowRatePeriodMultiplier: Int(),
  ResetPeriodMultiplier: Int(),
});
export type RateLimitSettings = Static<typeof RateLimitSettings>;

export const DatabaseSettings = Type.Object({
  MySqliteDirectory: Type.String(),
  DatabaseBackupDirectory: Type.String(),
  Type: Type.Union([Type.Literal('SQLite'), Type.Literal('MySQL'), Type.Literal('SQLServer')]),
  UseDatabaseLock: Type.Boolean(),
  Username: Type.String(),
  Password: Type.String(writeOnly),
  Schema: Type.String(),
  Host: Type.String(),
  OverrideConnectionString: Type.String(),
  SQLite_DatabaseFile: Type.String(),
  /** Left out of answers while false, as Shoko does. */
  LogSqlInConsole: Type.Optional(Type.Boolean()),
});
export type DatabaseSettings = Static<typeof DatabaseSettings>;

export const QuartzSettings = Type.Object({
  DatabaseType: Type.String(),
  ConnectionString: Type.String(),
  MaxThreadPoolSize: Int(),
  WaitingCacheSize: Int(),
  LimitedConcurrencyOverrides: Type.Record(Type.String(), Int()),
});
export type QuartzSettings = Static<typeof QuartzSettings>;

export const LanguageSettings = Type.Object({
  UseSynonyms: Type.Boolean(),
  SeriesTitleLanguageOrder: Strings(),
  SeriesTitleSourceOrder: Strings(),
  EpisodeTitleLanguageOrder: Strings(),
  EpisodeTitleSourceOrder: Strings(),
  DescriptionLanguageOrder: Strings(),
  DescriptionSourceOrder: Strings(),
});
export type LanguageSettings = Static<typeof LanguageSettings>;

export const AVDumpSettings = Type.Object({ MaxConcurrency: Int(), CreqTimeout: Int(), CreqMaxRetries: Int() });
export type AVDumpSettings = Static<typeof AVDumpSettings>;

export const AniDbSettings = Type.Object({
  Username: Nullable(Type.String()),
  Password: Nullable(Type.String(writeOnly)),
  HTTPServerUrl: Type.String(),
  UDPServerAddress: Type.String(),
  UDPServerPort: Int(),
  UDPPingFrequency: Int(),
  ClientPort: Int(),
  AVDumpKey: Nullable(Type.String(writeOnly)),
  AVDumpClientPort: Int(),
  DownloadRelatedAnime: Type.Boolean(),
  DownloadReviews: Type.Boolean(),
  DownloadReleaseGroups: Type.Boolean(),
  MyList_AddFiles: Type.Boolean(),
  MyList_StorageState: Type.Enum(AniDBFileState),
  MyList_DeleteType: Type.Enum(AniDBFileDeleteType),
  MyList_ReadUnwatched: Type.Boolean(),
  MyList_ReadWatched: Type.Boolean(),
  MyList_SetWatched: Type.Boolean(),
  MyList_SetUnwatched: Type.Boolean(),
  MyList_RetainedBackupCount: Int(),
  MyList_UpdateFrequency: Frequency(),
  Calendar_UpdateFrequency: Frequency(),
  Anime_UpdateFrequency: Frequency(),
  File_UpdateFrequency: Frequency(),
  Notification_UpdateFrequency: Frequency(),
  Notification_HandleMovedFiles: Type.Boolean(),
  DownloadCharacters: Type.Boolean(),
  DownloadCreators: Type.Boolean(),
  MaxRelationDepth: Int(),
  MinimumHoursToRedownloadAnimeInfo: Int(),
  AutomaticallyImportSeries: Type.Boolean(),
  AVDump: AVDumpSettings,
  HTTPRateLimit: RateLimitSettings,
  UDPRateLimit: RateLimitSettings,
});
export type AniDbSettings = Static<typeof AniDbSettings>;

export const TMDBSettings = Type.Object({
  AutoLink: Type.Boolean(),
  AutoLinkRestricted: Type.Boolean(),
  ConsiderExistingOtherLinks: Type.Boolean(),
  DownloadAllTitles: Type.Boolean(),
  DownloadAllOverviews: Type.Boolean(),
  DownloadAllContentRatings: Type.Boolean(),
  ImageLanguageOrder: Strings(),
  AutoDownloadCrewAndCast: Type.Boolean(),
  AutoDownloadCollections: Type.Boolean(),
  AutoDownloadAlternateOrdering: Type.Boolean(),
  AutoDownloadBackdrops: Type.Boolean(),
  MaxAutoBackdrops: Int(),
  AutoDownloadPosters: Type.Boolean(),
  MaxAutoPosters: Int(),
  AutoDownloadLogos: Type.Boolean(),
  MaxAutoLogos: Int(),
  AutoDownloadThumbnails: Type.Boolean(),
  MaxAutoThumbnails: Int(),
  AutoDownloadStaffImages: Type.Boolean(),
  MaxAutoStaffImages: Int(),
  AutoDownloadStudioImages: Type.Boolean(),
  UserApiKey: Nullable(Type.String(writeOnly)),
});
export type TMDBSettings = Static<typeof TMDBSettings>;

export const ImportSettings = Type.Object({
  Hasher: Type.Object({ MD5: Type.Boolean(), SHA1: Type.Boolean(), CRC: Type.Boolean(), ForceGeneratesAllHashes: Type.Boolean() }),
  VideoExtensions: Strings(),
  Exclude: Strings(),
  RunOnStart: Type.Boolean(),
  MaxAutoScanAttemptsPerFile: Int(),
  ScanDropFoldersOnStart: Type.Boolean(),
  UseExistingFileWatchedStatus: Type.Boolean(),
  AutomaticallyDeleteDuplicatesOnImport: Type.Boolean(),
  FileLockChecking: Type.Boolean(),
  FileLockWaitTimeMS: Int(),
  AggressiveFileLockChecking: Type.Boolean(),
  AggressiveFileLockWaitTimeSeconds: Int(),
  SkipDiskSpaceChecks: Type.Boolean(),
  MediaInfoPath: Nullable(Type.String()),
  MediaInfoTimeoutMinutes: Int(),
});
export type ImportSettings = Static<typeof ImportSettings>;

export const PlexSettings = Type.Object({ Libraries: Type.Array(Int()), Server: Type.String() });
export type PlexSettings = Static<typeof PlexSettings>;

export const TraktSettings = Type.Object({
  Enabled: Type.Boolean(),
  AuthToken: Type.String(writeOnly),
  RefreshToken: Type.String(writeOnly),
  TokenExpirationDate: Type.String(),
  SyncFrequency: Frequency(),
  /** SPEC.md's Trakt options beyond Shoko 5.3.3's settings: link series to Trakt shows by themselves, and how often to refresh them. */
  AutoLink: Type.Boolean(),
  UpdateFrequency: Frequency(),
});
export type TraktSettings = Static<typeof TraktSettings>;

export const RenamerSettings = Type.Object({
  EnabledRenamers: Type.Record(Type.String(), Type.Boolean()),
  RelocateOnImport: Type.Boolean({ description: 'Derived: MoveOnImport || RenameOnImport. Not patchable.' }),
  RenameOnImport: Type.Boolean(),
  MoveOnImport: Type.Boolean(),
  AllowRelocationInsideDestinationOnImport: Type.Boolean(),
  DefaultRenamer: Nullable(Type.String()),
});
export type RenamerSettings = Static<typeof RenamerSettings>;

export const PluginSettings = Type.Object({
  EnabledPlugins: Type.Record(Type.String(), Type.Boolean()),
  Priority: Strings(),
  Renamer: RenamerSettings,
});
export type PluginSettings = Static<typeof PluginSettings>;

/** A file-quality requirement: a FileQualityFilterOperationType number and the value it compares with. */
const QualityRequirementOf = <T extends TSchema>(value: T) => Type.Object({ Operator: Int(), Value: value });

export const FileQualityPreferences = Type.Object({
  PreferredTypes: Type.Array(Int()),
  PreferredAudioCodecs: Strings(),
  PreferredResolutions: Strings(),
  PreferredSubGroups: Strings(),
  PreferredVideoCodecs: Strings(),
  Prefer8BitVideo: Type.Boolean(),
  AllowDeletionOfImportedFiles: Type.Boolean(),
  RequiredTypes: Type.Array(Int()),
  RequiredAudioCodecs: QualityRequirementOf(Strings()),
  RequiredAudioStreamCount: QualityRequirementOf(Int()),
  RequiredResolutions: QualityRequirementOf(Strings()),
  RequiredSources: QualityRequirementOf(Strings()),
  RequiredSubGroups: QualityRequirementOf(Strings()),
  RequiredSubStreamCount: QualityRequirementOf(Int()),
  RequiredVideoCodecs: QualityRequirementOf(Strings()),
  Require10BitVideo: Type.Boolean(),
  MaxNumberOfFilesToKeep: Int(),
  PreferredSources: Strings(),
  AllowDeletingFilesWithMissingInfo: Type.Boolean(),
});
export type FileQualityPreferences = Static<typeof FileQualityPreferences>;

export const LogRotatorSettings = Type.Object({
  Enabled: Type.Boolean(),
  Zip: Type.Boolean(),
  Delete: Type.Boolean(),
  Delete_Days: Type.String({ description: 'A number of days, typed as text.' }),
});
export type LogRotatorSettings = Static<typeof LogRotatorSettings>;

export const LinuxSettings = Type.Object({ UID: Int(), GID: Int(), Permission: Int() });
export type LinuxSettings = Static<typeof LinuxSettings>;

export const WebSettings = Type.Object({
  Port: Int(),
  AutoReplaceWebUIWithIncluded: Type.Boolean(),
  EnableWebUI: Type.Boolean(),
  WebUIPrefix: Type.String(),
  WebUIPath: Type.String(),
  EnableSwaggerUI: Type.Boolean(),
  SwaggerUIPrefix: Type.String(),
  /** Left out of answers while false, as Shoko does. */
  AlwaysUseDeveloperExceptions: Type.Optional(Type.Boolean()),
});
export type WebSettings = Static<typeof WebSettings>;

/** `GET /api/v3/Settings`: the whole settings object, the secrets blanked. */
export const ServerSettings = Type.Object({
  SettingsVersion: Int(),
  ImagesPath: Nullable(Type.String()),
  Culture: Type.String(),
  FirstRun: Type.Boolean(),
  AutoGroupSeries: Type.Boolean(),
  AutoGroupSeriesRelationExclusions: Strings(),
  AutoGroupSeriesUseScoreAlgorithm: Type.Boolean(),
  LoadImageMetadata: Type.Boolean(),
  CachingDatabaseTimeout: Int(),
  Database: DatabaseSettings,
  Quartz: QuartzSettings,
  Connectivity: Type.Object({ DisabledMonitorServices: Strings() }),
  Language: LanguageSettings,
  AniDb: AniDbSettings,
  TMDB: TMDBSettings,
  Import: ImportSettings,
  Plex: PlexSettings,
  TraktTv: TraktSettings,
  Plugins: PluginSettings,
  FileQualityFilterEnabled: Type.Boolean(),
  FileQualityPreferences: FileQualityPreferences,
  LogRotator: LogRotatorSettings,
  Linux: LinuxSettings,
  Web: WebSettings,
  /** Our extension (issue 43): browser playback and its transcodes. */
  Playback: PlaybackSettings,
  WebUI_Settings: Type.String({ description: 'Opaque JSON text owned by the web console; the server never interprets it.' }),
  TraceLog: Type.Boolean(),
  SentryOptOut: Type.Boolean(),
});
export type ServerSettings = Static<typeof ServerSettings>;

/** One RFC 6902 operation of `PATCH /api/v3/Settings`. */
export const JsonPatchOperation = Type.Object({
  op: Type.Union(['add', 'remove', 'replace', 'move', 'copy', 'test'].map((op) => Type.Literal(op))),
  path: Type.String(),
  from: Type.Optional(Type.String()),
  value: Type.Optional(Type.Unknown()),
});
export type JsonPatchOperation = {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  from?: string;
  value?: unknown;
};

export const SupportedLanguageSchema = Type.Object({ Name: Type.String(), Alpha2: Type.String() });

export type SupportedLanguage = Static<typeof SupportedLanguageSchema>;

/** Dotted paths of values the server accepts but never returns (GET shows them as ""). */
export const SECRET_SETTING_PATHS = [
  'AniDb.Password',
  'AniDb.AVDumpKey',
  'Database.Password',
  'TMDB.UserApiKey',
  'TraktTv.AuthToken',
  'TraktTv.RefreshToken',
] as const;

/** `PATCH Settings?skipValidation=`: true stores the patched settings without checking them. */
export const SettingsPatchQuery = Type.Object({ skipValidation: Type.Optional(Type.Boolean({ default: false })) });
export type SettingsPatchQuery = Static<typeof SettingsPatchQuery>;

/** `PATCH Settings` and `PATCH Renamer/Config/{name}`: a JSON Patch document; null (or a missing body) is a 400 from the server. */
export const JsonPatchBody = Type.Union([Type.Array(JsonPatchOperation), Type.Null()]);
export type JsonPatchBody = JsonPatchOperation[] | null;
