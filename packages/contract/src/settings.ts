import { Type, type Static } from '@sinclair/typebox';

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

export interface RateLimitSettings {
  BaseRateInSeconds: number;
  SlowRateMultiplier: number;
  SlowRatePeriodMultiplier: number;
  ResetPeriodMultiplier: number;
}

export interface DatabaseSettings {
  MySqliteDirectory: string;
  DatabaseBackupDirectory: string;
  Type: 'SQLite' | 'MySQL' | 'SQLServer';
  UseDatabaseLock: boolean;
  Username: string;
  /** Write-only: GET answers "" when a value is stored. */
  Password: string;
  Schema: string;
  Host: string;
  OverrideConnectionString: string;
  SQLite_DatabaseFile: string;
  LogSqlInConsole?: boolean;
}

export interface QuartzSettings {
  DatabaseType: string;
  ConnectionString: string;
  MaxThreadPoolSize: number;
  WaitingCacheSize: number;
  LimitedConcurrencyOverrides: Record<string, number>;
}

export interface LanguageSettings {
  UseSynonyms: boolean;
  SeriesTitleLanguageOrder: string[];
  SeriesTitleSourceOrder: string[];
  EpisodeTitleLanguageOrder: string[];
  EpisodeTitleSourceOrder: string[];
  DescriptionLanguageOrder: string[];
  DescriptionSourceOrder: string[];
}

export interface AVDumpSettings {
  MaxConcurrency: number;
  CreqTimeout: number;
  CreqMaxRetries: number;
}

export interface AniDbSettings {
  Username: string | null;
  /** Write-only. */
  Password: string | null;
  HTTPServerUrl: string;
  UDPServerAddress: string;
  UDPServerPort: number;
  UDPPingFrequency: number;
  ClientPort: number;
  /** Write-only. */
  AVDumpKey: string | null;
  AVDumpClientPort: number;
  DownloadRelatedAnime: boolean;
  DownloadReviews: boolean;
  DownloadReleaseGroups: boolean;
  MyList_AddFiles: boolean;
  MyList_StorageState: AniDBFileState;
  MyList_DeleteType: AniDBFileDeleteType;
  MyList_ReadUnwatched: boolean;
  MyList_ReadWatched: boolean;
  MyList_SetWatched: boolean;
  MyList_SetUnwatched: boolean;
  MyList_RetainedBackupCount: number;
  MyList_UpdateFrequency: ScheduledUpdateFrequency;
  Calendar_UpdateFrequency: ScheduledUpdateFrequency;
  Anime_UpdateFrequency: ScheduledUpdateFrequency;
  File_UpdateFrequency: ScheduledUpdateFrequency;
  Notification_UpdateFrequency: ScheduledUpdateFrequency;
  Notification_HandleMovedFiles: boolean;
  DownloadCharacters: boolean;
  DownloadCreators: boolean;
  MaxRelationDepth: number;
  MinimumHoursToRedownloadAnimeInfo: number;
  AutomaticallyImportSeries: boolean;
  AVDump: AVDumpSettings;
  HTTPRateLimit: RateLimitSettings;
  UDPRateLimit: RateLimitSettings;
}

export interface TMDBSettings {
  AutoLink: boolean;
  AutoLinkRestricted: boolean;
  ConsiderExistingOtherLinks: boolean;
  DownloadAllTitles: boolean;
  DownloadAllOverviews: boolean;
  DownloadAllContentRatings: boolean;
  ImageLanguageOrder: string[];
  AutoDownloadCrewAndCast: boolean;
  AutoDownloadCollections: boolean;
  AutoDownloadAlternateOrdering: boolean;
  AutoDownloadBackdrops: boolean;
  MaxAutoBackdrops: number;
  AutoDownloadPosters: boolean;
  MaxAutoPosters: number;
  AutoDownloadLogos: boolean;
  MaxAutoLogos: number;
  AutoDownloadThumbnails: boolean;
  MaxAutoThumbnails: number;
  AutoDownloadStaffImages: boolean;
  MaxAutoStaffImages: number;
  AutoDownloadStudioImages: boolean;
  /** Write-only. */
  UserApiKey: string | null;
}

export interface ImportSettings {
  Hasher: { MD5: boolean; SHA1: boolean; CRC: boolean; ForceGeneratesAllHashes: boolean };
  VideoExtensions: string[];
  Exclude: string[];
  RunOnStart: boolean;
  MaxAutoScanAttemptsPerFile: number;
  ScanDropFoldersOnStart: boolean;
  UseExistingFileWatchedStatus: boolean;
  AutomaticallyDeleteDuplicatesOnImport: boolean;
  FileLockChecking: boolean;
  FileLockWaitTimeMS: number;
  AggressiveFileLockChecking: boolean;
  AggressiveFileLockWaitTimeSeconds: number;
  SkipDiskSpaceChecks: boolean;
  MediaInfoPath: string | null;
  MediaInfoTimeoutMinutes: number;
}

export interface PlexSettings {
  Libraries: number[];
  Server: string;
}

export interface TraktSettings {
  Enabled: boolean;
  /** Write-only. */
  AuthToken: string;
  /** Write-only. */
  RefreshToken: string;
  TokenExpirationDate: string;
  SyncFrequency: ScheduledUpdateFrequency;
  /** SPEC.md's Trakt options beyond Shoko 5.3.3's settings: link series to Trakt shows by themselves, and how often to refresh them. */
  AutoLink: boolean;
  UpdateFrequency: ScheduledUpdateFrequency;
}

export interface RenamerSettings {
  EnabledRenamers: Record<string, boolean>;
  /** Derived: MoveOnImport || RenameOnImport. Not patchable. */
  RelocateOnImport: boolean;
  RenameOnImport: boolean;
  MoveOnImport: boolean;
  AllowRelocationInsideDestinationOnImport: boolean;
  DefaultRenamer: string | null;
}

export interface PluginSettings {
  EnabledPlugins: Record<string, boolean>;
  Priority: string[];
  Renamer: RenamerSettings;
}

export interface QualityRequirement<T> {
  Operator: number;
  Value: T;
}

export interface FileQualityPreferences {
  PreferredTypes: number[];
  PreferredAudioCodecs: string[];
  PreferredResolutions: string[];
  PreferredSubGroups: string[];
  PreferredVideoCodecs: string[];
  Prefer8BitVideo: boolean;
  AllowDeletionOfImportedFiles: boolean;
  RequiredTypes: number[];
  RequiredAudioCodecs: QualityRequirement<string[]>;
  RequiredAudioStreamCount: QualityRequirement<number>;
  RequiredResolutions: QualityRequirement<string[]>;
  RequiredSources: QualityRequirement<string[]>;
  RequiredSubGroups: QualityRequirement<string[]>;
  RequiredSubStreamCount: QualityRequirement<number>;
  RequiredVideoCodecs: QualityRequirement<string[]>;
  Require10BitVideo: boolean;
  MaxNumberOfFilesToKeep: number;
  PreferredSources: string[];
  AllowDeletingFilesWithMissingInfo: boolean;
}

export interface LogRotatorSettings {
  Enabled: boolean;
  Zip: boolean;
  Delete: boolean;
  /** A number of days, typed as text. */
  Delete_Days: string;
}

export interface LinuxSettings {
  UID: number;
  GID: number;
  Permission: number;
}

export interface WebSettings {
  Port: number;
  AutoReplaceWebUIWithIncluded: boolean;
  EnableWebUI: boolean;
  WebUIPrefix: string;
  WebUIPath: string;
  EnableSwaggerUI: boolean;
  SwaggerUIPrefix: string;
  AlwaysUseDeveloperExceptions?: boolean;
}

export interface ServerSettings {
  SettingsVersion: number;
  ImagesPath: string | null;
  Culture: string;
  FirstRun: boolean;
  AutoGroupSeries: boolean;
  AutoGroupSeriesRelationExclusions: string[];
  AutoGroupSeriesUseScoreAlgorithm: boolean;
  LoadImageMetadata: boolean;
  CachingDatabaseTimeout: number;
  Database: DatabaseSettings;
  Quartz: QuartzSettings;
  Connectivity: { DisabledMonitorServices: string[] };
  Language: LanguageSettings;
  AniDb: AniDbSettings;
  TMDB: TMDBSettings;
  Import: ImportSettings;
  Plex: PlexSettings;
  TraktTv: TraktSettings;
  Plugins: PluginSettings;
  FileQualityFilterEnabled: boolean;
  FileQualityPreferences: FileQualityPreferences;
  LogRotator: LogRotatorSettings;
  Linux: LinuxSettings;
  Web: WebSettings;
  /** Opaque JSON text owned by the web console; the server never interprets it. */
  WebUI_Settings: string;
  TraceLog: boolean;
  SentryOptOut: boolean;
}

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
