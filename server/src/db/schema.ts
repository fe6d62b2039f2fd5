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

export interface AniDBAnimeTable {
  id: number;
  type: string;
  main_title: string;
  episode_count: number;
  special_count: number;
  air_date: string | null;
  end_date: string | null;
  restricted: Flag;
  description: string;
  picture: string | null;
  rating: number;
  rating_votes: number;
  temp_rating: number;
  temp_rating_votes: number;
  /** JSON array of { Type, Name, URL }. */
  resources: string;
  fetched_at: string;
  /** The official site (`<url>`). */
  url: string | null;
}

export interface AniDBAnimeTitlesTable {
  id: Generated<number>;
  anime_id: number;
  type: string;
  language: string;
  value: string;
}

export interface AniDBEpisodesTable {
  id: number;
  anime_id: number;
  type: string;
  number: number;
  length_seconds: number;
  air_date: string | null;
  rating: number;
  votes: number;
  description: string;
  /** JSON array of { language, value }. */
  titles: string;
}

export interface AniDBTagsTable {
  id: number;
  parent_id: number | null;
  name: string;
  description: string | null;
  is_spoiler: Flag;
  is_verified: Flag;
  updated_at: string;
}

export interface AniDBAnimeTagsTable {
  anime_id: number;
  tag_id: number;
  weight: number;
  is_local_spoiler: Flag;
}

export interface AniDBRelationsTable {
  anime_id: number;
  related_anime_id: number;
  relation_type: string;
  related_title: string | null;
}

export interface AniDBCharactersTable {
  id: number;
  name: string;
  gender: string | null;
  character_type: string | null;
  description: string | null;
  picture: string | null;
}

export interface AniDBCreatorsTable {
  id: number;
  name: string;
  picture: string | null;
}

export interface AniDBAnimeCharactersTable {
  anime_id: number;
  character_id: number;
  /** AniDB's appearance text: `main character in`, `secondary cast in`, `appears in`, `cameo appearance in`. */
  appearance: string;
  ordering: number;
}

export interface AniDBAnimeStaffTable {
  id: Generated<number>;
  anime_id: number;
  creator_id: number;
  role: string;
  character_id: number | null;
  ordering: number;
}

export interface AniDBSimilarTable {
  anime_id: number;
  similar_anime_id: number;
  approval: number;
  total: number;
  title: string;
}

export interface AniDBFilesTable {
  ed2k: string;
  size: number;
  /** null when AniDB does not know the content (the row then records the failed lookups). */
  file_id: number | null;
  anime_id: number | null;
  group_id: number;
  source: string;
  version: number;
  is_deprecated: Flag;
  is_censored: Flag | null;
  is_chaptered: Flag;
  file_name: string;
  description: string;
  audio_languages: string;
  subtitle_languages: string;
  lookup_attempts: number;
  looked_up_at: string;
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

export interface GroupsTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  description: string;
  has_custom_name: Flag;
  has_custom_description: Flag;
  preferred_series_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface SeriesTable {
  id: Generated<number>;
  anime_id: number;
  group_id: number;
  title_override: string | null;
  created_at: string;
  updated_at: string;
}

export interface EpisodesTable {
  id: Generated<number>;
  series_id: number;
  anidb_episode_id: number;
  is_hidden: Flag;
  title_override: string | null;
  created_at: string;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  import_folders: ImportFoldersTable;
  files: FilesTable;
  file_locations: FileLocationsTable;
  jobs: JobsTable;
  anidb_anime: AniDBAnimeTable;
  anidb_anime_titles: AniDBAnimeTitlesTable;
  anidb_episodes: AniDBEpisodesTable;
  anidb_tags: AniDBTagsTable;
  anidb_anime_tags: AniDBAnimeTagsTable;
  anidb_relations: AniDBRelationsTable;
  anidb_characters: AniDBCharactersTable;
  anidb_creators: AniDBCreatorsTable;
  anidb_anime_characters: AniDBAnimeCharactersTable;
  anidb_anime_staff: AniDBAnimeStaffTable;
  anidb_similar: AniDBSimilarTable;
  anidb_files: AniDBFilesTable;
  file_episode_links: FileEpisodeLinksTable;
  groups: GroupsTable;
  series: SeriesTable;
  episodes: EpisodesTable;
}
