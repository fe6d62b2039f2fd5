import { Type, type Static } from '@sinclair/typebox';

/** contract files.md §1.12: a flags enum on the wire as its name. */
export const DropFolderType = Type.Union([Type.Literal('None'), Type.Literal('Source'), Type.Literal('Destination'), Type.Literal('Both')]);
export type DropFolderType = Static<typeof DropFolderType>;
export const DROP_FOLDER_TYPES: Record<DropFolderType, number> = { None: 0, Source: 1, Destination: 2, Both: 3 };

export const ImportFolder = Type.Object({
  ID: Type.Integer(),
  Name: Type.String(),
  Path: Type.String(),
  DropFolderType: DropFolderType,
  WatchForNewFiles: Type.Boolean(),
  FileSize: Type.Number(),
  Size: Type.Integer(),
  /**
   * Extension (issue 49): false while the folder cannot be reached (its root gone or unreadable, or an empty mount
   * point where files were recorded). Its records are kept and its locations read `IsAccessible: false`.
   */
  IsAvailable: Type.Boolean(),
  /** Extension: when the folder went offline (ISO UTC), null while available. */
  UnavailableSince: Type.Union([Type.String(), Type.Null()]),
  /** Extension: why the folder is offline, null while available. */
  UnavailableReason: Type.Union([Type.String(), Type.Null()]),
});
export type ImportFolder = Static<typeof ImportFolder>;

/**
 * Extension (issue 49): `GET ImportFolder/{id}/OfflineRecords`, what removing the records of an offline folder would
 * remove: its file locations and the file records that have no location in another folder.
 */
export const OfflineFolderRecords = Type.Object({
  ImportFolderID: Type.Integer(),
  IsAvailable: Type.Boolean(),
  Locations: Type.Integer(),
  Files: Type.Integer(),
});
export type OfflineFolderRecords = Static<typeof OfflineFolderRecords>;

/** `DELETE ImportFolder/{id}/OfflineRecords`: the number of locations the admin confirmed, as a guard against a stale count. */
export const RemoveOfflineRecordsQuery = Type.Object({ locationCount: Type.Integer({ minimum: 0 }) });
export type RemoveOfflineRecordsQuery = Static<typeof RemoveOfflineRecordsQuery>;

/** What the console sends to create a folder. */
export const NewImportFolder = Type.Object({
  Name: Type.String(),
  Path: Type.String(),
  DropFolderType,
  WatchForNewFiles: Type.Boolean(),
});
export type NewImportFolder = Static<typeof NewImportFolder>;

/** Create/replace input: output-only fields are accepted and ignored; DropFolderType also as a number. */
export const ImportFolderInput = Type.Object({
  ID: Type.Optional(Type.Integer()),
  Name: Type.String(),
  Path: Type.Optional(Type.String()),
  DropFolderType: Type.Optional(Type.Union([DropFolderType, Type.Integer({ minimum: 0, maximum: 3 })])),
  WatchForNewFiles: Type.Optional(Type.Boolean()),
  FileSize: Type.Optional(Type.Number()),
  Size: Type.Optional(Type.Integer()),
  IsAvailable: Type.Optional(Type.Boolean()),
  UnavailableSince: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  UnavailableReason: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type ImportFolderInput = Static<typeof ImportFolderInput>;

export const ChildItems = Type.Object({ Folders: Type.Integer(), Files: Type.Integer() });
export const Folder = Type.Object({
  Path: Type.String(),
  IsAccessible: Type.Boolean(),
  Sizes: Type.Union([ChildItems, Type.Null()]),
});
export type Folder = Static<typeof Folder>;
export const DriveType = Type.Union(
  ['Unknown', 'NoRootDirectory', 'Removable', 'Fixed', 'Network', 'CDRom', 'Ram'].map((name) => Type.Literal(name)),
);
export const Drive = Type.Composite([Folder, Type.Object({ Type: DriveType })]);
export type Drive = Static<typeof Drive>;

export const FileHashes = Type.Object({ ED2K: Type.String(), SHA1: Type.String(), CRC32: Type.String(), MD5: Type.String() });
export type FileHashes = Static<typeof FileHashes>;

export const FileLocation = Type.Object({
  ID: Type.Integer(),
  FileID: Type.Integer(),
  ImportFolderID: Type.Integer(),
  RelativePath: Type.String(),
  AbsolutePath: Type.Optional(Type.String()),
  IsAccessible: Type.Boolean(),
});
export type FileLocation = Static<typeof FileLocation>;

export const AVDumpInfo = Type.Object({
  Status: Type.Union([Type.String(), Type.Null()]),
  Progress: Type.Optional(Type.Number()),
  SucceededCreqCount: Type.Optional(Type.Integer()),
  FailedCreqCount: Type.Optional(Type.Integer()),
  PendingCreqCount: Type.Optional(Type.Integer()),
  StartedAt: Type.Optional(Type.String()),
  LastDumpedAt: Type.Union([Type.String(), Type.Null()]),
  LastVersion: Type.Union([Type.String(), Type.Null()]),
});
export type AVDumpInfo = Static<typeof AVDumpInfo>;

/** files.md §1.16: `POST AVDump/DumpFiles`. */
export const DumpFilesBody = Type.Object({
  FileIDs: Type.Array(Type.Integer(), { minItems: 1 }),
  Priority: Type.Boolean({ default: false }),
});
export type DumpFilesBody = Static<typeof DumpFilesBody>;

const NullableDate = Type.Union([Type.String(), Type.Null()]);

/** contract files.md §1.1. `SeriesIDs`, `AniDB`, `MediaInfo` are omitted unless requested and present. */
export const File = Type.Object({
  ID: Type.Integer(),
  SeriesIDs: Type.Optional(Type.Array(Type.Unknown())),
  Size: Type.Number(),
  IsVariation: Type.Boolean(),
  IsIgnored: Type.Boolean(),
  Hashes: FileHashes,
  Locations: Type.Array(FileLocation),
  AVDump: AVDumpInfo,
  Resolution: Type.Union([Type.String(), Type.Null()]),
  Duration: Type.String(),
  ResumePosition: Type.Union([Type.String(), Type.Null()]),
  Viewed: NullableDate,
  Watched: NullableDate,
  Imported: NullableDate,
  Created: Type.String(),
  Updated: Type.String(),
  AniDB: Type.Optional(Type.Unknown()),
  MediaInfo: Type.Optional(Type.Unknown()),
});
export type File = Static<typeof File>;

export const FILE_INCLUDE_TYPES = ['Ignored', 'MediaInfo', 'XRefs', 'AbsolutePaths', 'ImportLimbo'] as const;
export const FILE_EXCLUDE_TYPES = ['Watched', 'Variations', 'Duplicates', 'Unrecognized', 'ManualLinks'] as const;
export const FILE_INCLUDE_ONLY_TYPES = [
  'Watched',
  'Variations',
  'Duplicates',
  'Unrecognized',
  'ManualLinks',
  'Ignored',
  'ImportLimbo',
] as const;
export type FileIncludeType = (typeof FILE_INCLUDE_TYPES)[number];
export type FileExcludeType = (typeof FILE_EXCLUDE_TYPES)[number];
export type FileIncludeOnlyType = (typeof FILE_INCLUDE_ONLY_TYPES)[number];

/** contract files.md §1.10, in enum order (index = numeric value). */
export const FILE_SORT_CRITERIA = [
  'None',
  'ImportFolderName',
  'ImportFolderID',
  'AbsolutePath',
  'RelativePath',
  'FileSize',
  'DuplicateCount',
  'CreatedAt',
  'ImportedAt',
  'ViewedAt',
  'WatchedAt',
  'ED2K',
  'MD5',
  'SHA1',
  'CRC32',
  'FileName',
  'FileID',
] as const;
export type FileSortCriterion = (typeof FILE_SORT_CRITERIA)[number];

export const BatchDeleteFilesBody = Type.Object({
  fileIDs: Type.Array(Type.Integer()),
  removeFiles: Type.Optional(Type.Boolean()),
  removeFolders: Type.Optional(Type.Boolean()),
  /** The official console's spelling of removeFolders. */
  removeFolder: Type.Optional(Type.Boolean()),
});
export type BatchDeleteFilesBody = Static<typeof BatchDeleteFilesBody>;

export const BatchDeleteFileLocationsBody = Type.Object({
  locationIDs: Type.Array(Type.Integer()),
  removeFiles: Type.Optional(Type.Boolean()),
  removeFolders: Type.Optional(Type.Boolean()),
  removeFolder: Type.Optional(Type.Boolean()),
});
export type BatchDeleteFileLocationsBody = Static<typeof BatchDeleteFileLocationsBody>;

/** Manual links (files.md §1 bodies): Shoko episode ids, except Unlink which matches AniDB episode ids. */
export const LinkEpisodesBody = Type.Object({ EpisodeIDs: Type.Array(Type.Integer({ minimum: 1 })) });
export const LinkMultipleFilesBody = Type.Object({
  FileIDs: Type.Array(Type.Integer({ minimum: 1 })),
  EpisodeID: Type.Integer({ minimum: 1 }),
});
export const LinkSeriesBody = Type.Object({ SeriesID: Type.Integer({ minimum: 1 }), RangeStart: Type.String(), RangeEnd: Type.String() });
export const LinkSeriesMultipleBody = Type.Object({
  FileIDs: Type.Array(Type.Integer({ minimum: 1 })),
  SeriesID: Type.Integer({ minimum: 1 }),
  RangeStart: Type.String(),
  SingleEpisode: Type.Optional(Type.Boolean({ default: false })),
});
export const UnlinkEpisodesBody = Type.Object({ EpisodeIDs: Type.Array(Type.Integer()) });

/** One episode of a `File.SeriesIDs` entry (contract files.md §1.7). */
export const EpisodeCrossReference = Type.Object({
  ID: Type.Union([Type.Integer(), Type.Null()]),
  AniDB: Type.Integer(),
  TMDB: Type.Object({ Episode: Type.Array(Type.Integer()), Movie: Type.Array(Type.Integer()), Show: Type.Array(Type.Integer()) }),
  ReleaseGroup: Type.Union([Type.Integer(), Type.Null()]),
  ED2K: Type.String(),
  FileSize: Type.Number(),
  Percentage: Type.Object({ Start: Type.Number(), End: Type.Number(), Size: Type.Number(), Group: Type.Integer() }),
  Source: Type.Union([Type.Literal('AniDB'), Type.Literal('User')]),
});
export type EpisodeCrossReference = Static<typeof EpisodeCrossReference>;

/** One entry of `File.SeriesIDs` (with `include=XRefs`): a series the file is linked to and the episodes in it. */
export const FileCrossReference = Type.Object({
  SeriesID: Type.Object({
    ID: Type.Union([Type.Integer(), Type.Null()]),
    AniDB: Type.Integer(),
    TMDB: Type.Object({ Movie: Type.Array(Type.Integer()), Show: Type.Array(Type.Integer()) }),
  }),
  EpisodeIDs: Type.Array(EpisodeCrossReference),
});
export type FileCrossReference = Static<typeof FileCrossReference>;

/** `File.AniDB` (with `includeDataFrom=AniDB`, contract files.md §1.5): what AniDB knows of the file. */
export const FileAniDB = Type.Object({
  ID: Type.Integer(),
  Source: Type.String(),
  ReleaseGroup: Type.Object({
    ID: Type.Integer(),
    Name: Type.Union([Type.String(), Type.Null()]),
    ShortName: Type.Union([Type.String(), Type.Null()]),
    Source: Type.Literal('AniDB'),
  }),
  ReleaseDate: Type.Null(),
  Version: Type.Integer(),
  IsDeprecated: Type.Boolean(),
  IsCensored: Type.Boolean(),
  OriginalFileName: Type.String(),
  FileSize: Type.Number(),
  Description: Type.String(),
  AudioLanguages: Type.Array(Type.String()),
  SubLanguages: Type.Array(Type.String()),
  Chaptered: Type.Boolean(),
  Updated: Type.String(),
});
export type FileAniDB = Static<typeof FileAniDB>;
