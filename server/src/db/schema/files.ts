import type { ColumnType, Generated } from 'kysely';
import type { Flag } from './flag.js';

export interface ImportFoldersTable {
  id: Generated<number>;
  name: string;
  path: string;
  is_drop_source: Flag;
  is_drop_destination: Flag;
  watch_for_new_files: Flag;
  /** 0 while the folder cannot be reached (issue 49); its records stay. */
  is_available: ColumnType<Flag, Flag | undefined, Flag>;
  unavailable_since: ColumnType<string | null, string | null | undefined, string | null>;
  unavailable_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The filesystem device the folder was on when it last held files (`stat().dev`). */
  device_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface FilesTable {
  id: Generated<number>;
  size: number;
  /** Upper-case hex; '' until hashed. */
  ed2k: string;
  /** The other ED2K variant for sizes that are exact multiples of the chunk size, else null. */
  ed2k_alternate: string | null;
  crc32: string;
  md5: string;
  sha1: string;
  is_ignored: Flag;
  is_variation: Flag;
  /** JSON of the contract's MediaInfo model. */
  media_info: string | null;
  imported_at: string | null;
  created_at: string;
  updated_at: string;
}

/** 0014: the last successful AVDump of a file. */
export interface FileAvdumpsTable {
  file_id: number;
  last_dumped_at: string;
  last_version: string;
}

/** On PostgreSQL also `search_path`, the normalised path File/Search reads (0062, generated; SQLite has no such column). */
export interface FileLocationsTable {
  id: Generated<number>;
  file_id: number;
  import_folder_id: number;
  relative_path: string;
  is_accessible: Flag;
  mtime_ms: number | null;
}

/** 0032: per file, the lower-cased keys of the File list's usual orders (maintained by triggers). */
export interface FileSortKeysTable {
  file_id: number;
  is_ignored: Flag;
  /** 1 when the file has no location (its keys are null). */
  no_location: Flag;
  /** 1 when the file's content has an episode link (not in the Unrecognized list). */
  is_linked: Flag;
  /** 1 when one of those links was made by the user (the ManualLinks list). */
  has_manual_link: Flag;
  /** The first location (lowest id), null without one. */
  location_id: number | null;
  import_folder_id: number | null;
  folder_name: string | null;
  file_name: string | null;
  relative_path: string | null;
}

/** 0046: +1/−1 rows of file counts per combination of the key flags (appended by triggers, folded by the reader). */
export interface FileKeyCountsTable {
  is_ignored: Flag;
  is_linked: Flag;
  has_manual_link: Flag;
  files: number;
}

/** SQLite only (migration 0036_file_search): each location's normalised path in an FTS5 trigram table. */
export interface FileLocationSearchTable {
  /** The location's id. */
  rowid: number;
  search_path: string;
}

export interface FileEpisodeLinksTable {
  id: Generated<number>;
  ed2k: string;
  size: number;
  anime_id: number;
  episode_id: number;
  percentage: number;
  ordering: number;
  source: 'AniDB' | 'User';
  release_group_id: number | null;
}

export interface FileTables {
  import_folders: ImportFoldersTable;
  files: FilesTable;
  file_avdumps: FileAvdumpsTable;
  file_locations: FileLocationsTable;
  file_sort_keys: FileSortKeysTable;
  file_key_counts: FileKeyCountsTable;
  file_location_search: FileLocationSearchTable;
  file_episode_links: FileEpisodeLinksTable;
}
