import type { Generated } from 'kysely';
import type { Flag } from './flag.js';

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
  /** 0050: the main title's fold (db/name-folds.ts); cleared by a trigger when the title changes, filled by code. */
  main_title_folded: Generated<string | null>;
}

export interface AniDBAnimeTitlesTable {
  id: Generated<number>;
  anime_id: number;
  type: string;
  language: string;
  value: string;
  /** 0050: the title's fold (db/name-folds.ts); cleared by a trigger when the title changes, filled by code. */
  folded: Generated<string | null>;
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

export interface AniDBReleaseGroupsTable {
  id: number;
  name: string;
  short_name: string;
  updated_at: string;
}

/** The current AniDB ban of one protocol (`udp` or `http`); ISO times. */
export interface AniDBBansTable {
  protocol: string;
  reason: string;
  banned_at: string;
  banned_until: string;
}

/** When an anime was last requested from AniDB's HTTP API (ISO time). */
export interface AniDBAnimeRequestsTable {
  anime_id: number;
  requested_at: string;
}

/** When a periodic AniDB check (`updated-anime`) last ran (ISO time). */
export interface AniDBChecksTable {
  name: string;
  checked_at: string;
}

export interface AniDBTables {
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
  anidb_release_groups: AniDBReleaseGroupsTable;
  anidb_bans: AniDBBansTable;
  anidb_anime_requests: AniDBAnimeRequestsTable;
  anidb_checks: AniDBChecksTable;
}
