import { Type, type Static } from '@sinclair/typebox';
import { BatchDeleteFilesBody, UnlinkEpisodesBody } from './files.js';
import { CollectionListParam } from './collection.js';

/*
 * Request schemas (params, querystrings) of the files, import folder, folder browser, scrobble and utility routes
 * (contract files.md), shared by the server's route schemas and the console's API functions.
 */

/** `DELETE File`: the batch body, or none (answered with a 400 naming the body). */
export const NullableBatchDeleteFilesBody = Type.Union([BatchDeleteFilesBody, Type.Null()]);
export type NullableBatchDeleteFilesBody = Static<typeof NullableBatchDeleteFilesBody>;

/** `DELETE File/{id}/Link`: the AniDB episodes to unlink, or none for every user link of the file. */
export const NullableUnlinkEpisodesBody = Type.Union([UnlinkEpisodesBody, Type.Null()]);
export type NullableUnlinkEpisodesBody = Static<typeof NullableUnlinkEpisodesBody>;

/** A list parameter: repeated keys or a comma list, as strings (contract files.md §0.3). */

/** `GET File`, `File/Search/*`, `Series/{id}/File`, `Episode/{id}/File`. */
export const FileListQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: 100 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  include: CollectionListParam,
  exclude: CollectionListParam,
  include_only: CollectionListParam,
  sortOrder: CollectionListParam,
  includeDataFrom: CollectionListParam,
  fuzzy: Type.Optional(Type.Boolean()),
});
export type FileListQuery = Static<typeof FileListQuery>;

export const FileIDParams = Type.Object({ fileID: Type.Integer({ minimum: 1 }) });
export type FileIDParams = Static<typeof FileIDParams>;

export const FileLocationParams = Type.Object({ locationID: Type.Integer({ minimum: 1 }) });
export type FileLocationParams = Static<typeof FileLocationParams>;

/** `GET File/{id}`. */
export const FileDetailsQuery = Type.Object({ include: CollectionListParam, includeDataFrom: CollectionListParam });
export type FileDetailsQuery = Static<typeof FileDetailsQuery>;

/** `DELETE File/{id}`. */
export const DeleteFileQuery = Type.Object({ removeFiles: Type.Boolean({ default: true }), removeFolder: Type.Boolean({ default: true }) });
export type DeleteFileQuery = Static<typeof DeleteFileQuery>;

/** `GET File/{id}/Location`. */
export const FileLocationsQuery = Type.Object({ includeAbsolutePaths: Type.Boolean({ default: false }) });
export type FileLocationsQuery = Static<typeof FileLocationsQuery>;

/** `DELETE File/Location/{id}`. */
export const DeleteFileLocationQuery = Type.Object({
  deleteFile: Type.Boolean({ default: true }),
  deleteFolder: Type.Boolean({ default: true }),
});
export type DeleteFileLocationQuery = Static<typeof DeleteFileLocationQuery>;

/** `PUT File/{id}/Ignore` and `…/Variation`. */
export const FileFlagQuery = Type.Object({ value: Type.Boolean({ default: true }) });
export type FileFlagQuery = Static<typeof FileFlagQuery>;

/** `POST File/{id}/Rescan` and `Series/{id}/File/Rescan`. */
export const FileRescanQuery = Type.Object({ priority: Type.Boolean({ default: false }) });
export type FileRescanQuery = Static<typeof FileRescanQuery>;

/** `POST File/{id}/Rehash`. */
export const FileRehashQuery = Type.Object({ priority: Type.Boolean({ default: true }) });
export type FileRehashQuery = Static<typeof FileRehashQuery>;

/** `GET|PATCH File/{id}/Scrobble`. */
export const FileScrobbleQuery = Type.Object({
  event: Type.Optional(Type.String({ maxLength: 64 })),
  episodeID: Type.Optional(Type.Integer({ minimum: 0 })),
  watched: Type.Optional(Type.Boolean()),
  resumePosition: Type.Optional(Type.String({ maxLength: 64 })),
});
export type FileScrobbleQuery = Static<typeof FileScrobbleQuery>;

/** `POST File/{id}/Watched/{watched?}`. */
export const FileWatchedParams = Type.Object({ fileID: Type.Integer({ minimum: 1 }), watched: Type.Boolean({ default: true }) });
export type FileWatchedParams = Static<typeof FileWatchedParams>;

export const ImportFolderParams = Type.Object({ folderID: Type.Integer({ minimum: 1 }) });
export type ImportFolderParams = Static<typeof ImportFolderParams>;

/** `GET ImportFolder/{id}/File`. */
export const ImportFolderFilesQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 10000, default: 200 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  folderPath: Type.Optional(Type.String()),
  include: CollectionListParam,
  includeDataFrom: CollectionListParam,
});
export type ImportFolderFilesQuery = Static<typeof ImportFolderFilesQuery>;

/** `DELETE ImportFolder/{id}`. */
export const DeleteImportFolderQuery = Type.Object({
  removeRecords: Type.Boolean({ default: true }),
  updateMyList: Type.Boolean({ default: true }),
});
export type DeleteImportFolderQuery = Static<typeof DeleteImportFolderQuery>;

/** `GET Folder`: the folder whose sub-folders are listed, in either casing. */
export const FolderQuery = Type.Object({ path: Type.Optional(Type.String()), Path: Type.Optional(Type.String()) });
export type FolderQuery = Static<typeof FolderQuery>;

/** `GET Series/WithoutFiles` and `Series/WithManuallyLinkedFiles` (contract collection.md §5.1). */
export const SeriesUtilityListQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 50 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  search: Type.Optional(Type.String()),
  fuzzy: Type.Boolean({ default: true }),
});
export type SeriesUtilityListQuery = Static<typeof SeriesUtilityListQuery>;

/** `GET File/Hash/{ED2K|CRC32|MD5|SHA1}`: the content's hash (length per algorithm, checked by the route) and size. */
export const FileHashQuery = Type.Object({
  hash: Type.String({ maxLength: 64 }),
  size: Type.Integer({ minimum: 0 }),
  include: CollectionListParam,
  includeDataFrom: CollectionListParam,
});
export type FileHashQuery = Static<typeof FileHashQuery>;

/** `File/AniDB/{anidbFileID}…`: an AniDB file id. */
export const FileAniDBParams = Type.Object({ anidbFileID: Type.Integer({ minimum: 1 }) });
export type FileAniDBParams = Static<typeof FileAniDBParams>;

/** `GET File/AniDB/{anidbFileID}/File`: the one single-file route with boolean include flags. */
export const FileByAniDBQuery = Type.Object({
  includeXRefs: Type.Boolean({ default: false }),
  includeDataFrom: CollectionListParam,
  includeMediaInfo: Type.Boolean({ default: false }),
  includeAbsolutePaths: Type.Boolean({ default: false }),
});
export type FileByAniDBQuery = Static<typeof FileByAniDBQuery>;

/** `GET File/PathEndsWith/{*path}`: the shape of the found files. */
export const FilePathSearchQuery = Type.Object({
  includeXRefs: Type.Boolean({ default: true }),
  includeDataFrom: CollectionListParam,
  limit: Type.Integer({ minimum: 0, maximum: 100, default: 0 }),
});
export type FilePathSearchQuery = Static<typeof FilePathSearchQuery>;

/** `GET File/PathEndsWith?path=`: the end of an absolute path (either slash), plus the shape of the found files. */
export const FilePathEndsWithQuery = Type.Composite([Type.Object({ path: Type.Optional(Type.String()) }), FilePathSearchQuery]);
export type FilePathEndsWithQuery = Static<typeof FilePathEndsWithQuery>;

/** `GET File/{fileID}/Episode` (contract collection.md §4.18). */
export const FileEpisodesQuery = Type.Object({
  includeFiles: Type.Boolean({ default: false }),
  includeMediaInfo: Type.Boolean({ default: false }),
  includeAbsolutePaths: Type.Boolean({ default: false }),
  includeXRefs: Type.Boolean({ default: false }),
  includeDataFrom: CollectionListParam,
});
export type FileEpisodesQuery = Static<typeof FileEpisodesQuery>;

/** `GET|HEAD File/{fileID}/Stream` and `…/StreamDirectory/{filename}`: mark watched once read to the end. */
export const FileStreamQuery = Type.Object({ streamPositionScrobbling: Type.Boolean({ default: false }) });
export type FileStreamQuery = Static<typeof FileStreamQuery>;

/** `File/{fileID}/StreamDirectory/{filename}` and `…/StreamDirectory/ExternalSub/{filename}`. */
export const FileStreamFilenameParams = Type.Object({ fileID: Type.Integer({ minimum: 1 }), filename: Type.String({ minLength: 1 }) });
export type FileStreamFilenameParams = Static<typeof FileStreamFilenameParams>;
