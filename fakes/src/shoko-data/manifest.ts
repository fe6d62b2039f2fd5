import type { ShokoMediaSample } from './media-blob.js';
import type { ShokoSchemaShape } from './schema.js';

/** What `writeShokoDataFolder` wrote, in plain terms, so a test can check an import without reading the SQLite. */
export interface ShokoDataFolderManifest {
  /** The data folder (settings-server.json, SQLite/, Anime_HTTP/, images/). */
  dir: string;
  databasePath: string;
  settingsPath: string;
  schemaVersion: number;
  schemaShape: ShokoSchemaShape;
  mediaRoot: string;
  shokoMediaRoot: string;
  /** The last transaction (the per-user tables) is still in SQLite/JMMServer.db3-wal. */
  walLeft: boolean;
  settings: ManifestSettings;
  users: ManifestUser[];
  importFolders: ManifestImportFolder[];
  files: ManifestFile[];
  anime: ManifestAnime[];
  groups: ManifestGroup[];
  series: ManifestSeries[];
  episodes: ManifestEpisode[];
  episodeStates: ManifestEpisodeState[];
  fileStates: ManifestFileState[];
  votes: ManifestVote[];
  customTags: ManifestCustomTag[];
  ignoredAnime: ManifestIgnoredAnime[];
  filterPresets: ManifestFilterPreset[];
  renamers: ManifestRenamer[];
  tmdb: ManifestTmdb;
  /** Files written under images/, relative to `dir` with `/`. */
  images: string[];
  /** Rows per table, for every table of the schema (0 for the ones left empty). */
  rowCounts: Record<string, number>;
}

export interface ManifestSettings {
  aniDbUsername: string;
  aniDbPassword: string;
  tmdbApiKey: string | null;
  seriesTitleLanguageOrder: string[];
  episodeTitleLanguageOrder: string[];
}

export interface ManifestUser {
  id: number;
  name: string;
  /** In plain text; '' for the user without a password. */
  password: string;
  isAdmin: boolean;
  /** Tag names the user must not see (JMMUser.HideCategories). */
  hiddenTags: string[];
  plexUsers: string[];
  hasAvatar: boolean;
  apiKeys: Array<{ deviceName: string; token: string }>;
}

export interface ManifestImportFolder {
  id: number;
  name: string;
  /** ImportFolderLocation as the Shoko machine wrote it (with its separators and a trailing one). */
  shokoPath: string;
  /** The same folder on this machine. */
  localPath: string;
  dropSource: boolean;
  dropDestination: boolean;
  watched: boolean;
}

/** The media sample VideoLocal.MediaBlob was made from (media-blob.ts). */
export type ManifestMediaSample = ShokoMediaSample;

export interface ManifestFile {
  /** VideoLocalID. */
  id: number;
  fileName: string;
  ed2k: string;
  crc32: string;
  md5: string;
  sha1: string;
  size: number;
  ignored: boolean;
  variation: boolean;
  media: ManifestMediaSample;
  locations: ManifestFileLocation[];
  episodeLinks: ManifestEpisodeLink[];
  /** AniDB_File.FileID when AniDB knows the file. */
  anidbFileId: number | null;
  releaseGroupId: number | null;
  audioLanguages: string[];
  subtitleLanguages: string[];
}

export interface ManifestFileLocation {
  /** VideoLocal_Place_ID. */
  id: number;
  importFolderId: number;
  /** FilePath as Shoko stores it (relative to the import folder, the Shoko machine's separators). */
  relativePath: string;
  /** The file really is on disk under the folder's local path. */
  exists: boolean;
}

export interface ManifestEpisodeLink {
  animeId: number;
  episodeId: number;
  source: 'AniDB' | 'User';
  percentage: number;
  order: number;
}

export interface ManifestAnime {
  id: number;
  mainTitle: string;
  /** AniDB_Anime.AnimeType (0 Movie, 1 OVA, 2 TV series, 3 TV special, 4 Web, ...). */
  type: number;
  /** Anime_HTTP/AnimeDoc_<id>.xml exists; when false the anime is only in the database tables. */
  animeDocXml: boolean;
  episodes: Array<{ id: number; type: number; number: number }>;
  posterImage: string | null;
}

export interface ManifestGroup {
  id: number;
  name: string;
  customName: boolean;
  parentId: number | null;
  defaultSeriesId: number | null;
  /** The AniDB anime of the group's own series (not of its subgroups). */
  animeIds: number[];
  /** Users who marked the group as a favourite (AnimeGroup_User.IsFave). */
  favouriteOf: number[];
}

export interface ManifestSeries {
  id: number;
  animeId: number;
  groupId: number;
  titleOverride: string | null;
}

export interface ManifestEpisode {
  id: number;
  seriesId: number;
  anidbEpisodeId: number;
  hidden: boolean;
  titleOverride: string | null;
}

export interface ManifestEpisodeState {
  userId: number;
  /** AnimeEpisodeID. */
  episodeId: number;
  anidbEpisodeId: number;
  /** As stored: the Shoko machine's local time, 'yyyy-MM-dd HH:mm:ss[.fffffff]'. */
  watchedDate: string | null;
  /** The same instant as ISO 8601 UTC (this machine's time zone stood in for the Shoko machine's). */
  watchedAt: string | null;
  watchedCount: number;
  playedCount: number;
  stoppedCount: number;
}

export interface ManifestFileState {
  userId: number;
  fileId: number;
  resumePositionMs: number;
  watchedDate: string | null;
  watchedAt: string | null;
  watchedCount: number;
}

export interface ManifestVote {
  /** AniDB anime id for anime votes, AniDB episode id for episode votes. */
  entityId: number;
  /** 1 anime (permanent), 2 anime (temporary), 4 episode. */
  type: 1 | 2 | 4;
  /** AniDB's scale times 100 (850 = 8.5). */
  value: number;
}

export interface ManifestCustomTag {
  id: number;
  name: string;
  description: string;
  animeIds: number[];
  /** One of the tags a fresh Shoko database starts with. */
  starter: boolean;
}

export interface ManifestIgnoredAnime {
  userId: number;
  animeId: number;
  /** 1 = hidden from watch recommendations, 2 = from download recommendations. */
  ignoreType: 1 | 2;
}

export interface ManifestFilterPreset {
  id: number;
  name: string;
  parentId: number | null;
  source: 'sample' | 'default';
  /** A preset API v3 cannot represent (UNSUPPORTED_SAMPLE_PRESET), which an importer must skip. */
  unsupported: boolean;
}

export interface ManifestRenamer {
  id: number;
  name: string;
  type: string;
  supported: boolean;
}

export interface ManifestTmdb {
  shows: Array<{
    tmdbShowId: number;
    animeId: number;
    title: string;
    episodeLinks: Array<{ anidbEpisodeId: number; tmdbEpisodeId: number; ordering: number }>;
  }>;
  movies: Array<{ tmdbMovieId: number; animeId: number; anidbEpisodeId: number; title: string }>;
}
