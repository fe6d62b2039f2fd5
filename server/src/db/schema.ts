import type { Generated } from 'kysely';

/** Booleans are stored as 0/1 integers so one set of queries serves SQLite and PostgreSQL alike. */
export type Flag = number;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_key: string;
  password_hash: string;
  is_admin: Flag;
  anidb_sync: Flag;
  trakt_sync: Flag;
  plex_usernames: string;
  plex_token: string | null;
  avatar: string;
  /** JSON array of AniDB tag ids hidden from this user. */
  restricted_tags: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  device: string;
  /** SHA-256 hex of the key; the key itself is never stored. */
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
}

export interface ImportFoldersTable {
  id: Generated<number>;
  name: string;
  path: string;
  is_drop_source: Flag;
  is_drop_destination: Flag;
  watch_for_new_files: Flag;
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

export interface FileLocationsTable {
  id: Generated<number>;
  file_id: number;
  import_folder_id: number;
  relative_path: string;
  is_accessible: Flag;
  mtime_ms: number | null;
}

export interface JobsTable {
  id: Generated<number>;
  job_key: string;
  kind: string;
  /** JSON arguments of the job. */
  payload: string;
  /** Lower runs first. */
  priority: number;
  is_running: Flag;
  attempts: number;
  created_at: string;
  started_at: string | null;
}

export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  import_folders: ImportFoldersTable;
  files: FilesTable;
  file_locations: FileLocationsTable;
  jobs: JobsTable;
}
