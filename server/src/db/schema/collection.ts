import type { Generated } from 'kysely';
import type { Flag } from './flag.js';

export interface GroupsTable {
  id: Generated<number>;
  parent_id: number | null;
  name: string;
  description: string;
  has_custom_name: Flag;
  has_custom_description: Flag;
  preferred_series_id: number | null;
  /** The AniDB anime auto-grouping chose to lead the group (AutoGroupSeriesUseScoreAlgorithm); the preferred series wins. */
  main_anime_id: Generated<number | null>;
  created_at: string;
  updated_at: string;
  /** 0042: the sort name's order key (db/name-order.ts); cleared by a trigger when the name changes, filled by code. */
  order_key: Generated<string | null>;
  /** 0050: the name's fold (db/name-folds.ts); cleared by a trigger when the name changes, filled by code. */
  name_folded: Generated<string | null>;
}

export interface SeriesTable {
  id: Generated<number>;
  anime_id: number;
  group_id: number;
  title_override: string | null;
  created_at: string;
  updated_at: string;
  /** 0016: 1 = the TMDB auto-match leaves this series alone. */
  disable_tmdb_auto_match: Generated<Flag>;
  /** 0040: lower(title override, else AniDB main title, else ''), kept by triggers; lists sort by it. */
  name_key: Generated<string>;
  /** 0042: the JS-lower-cased name's order key (db/name-order.ts); cleared by a trigger when name_key changes, filled by code. */
  order_key: Generated<string | null>;
  /** 0050: the title override's fold (db/name-folds.ts); cleared by a trigger when the override changes, filled by code. */
  title_override_folded: Generated<string | null>;
}

export interface EpisodesTable {
  id: Generated<number>;
  series_id: number;
  anidb_episode_id: number;
  is_hidden: Flag;
  title_override: string | null;
  created_at: string;
  updated_at: string;
  /** Kept by triggers (0043): local files of its AniDB episode, and its list order (rank null without an AniDB episode row). */
  local_file_count: Generated<number>;
  sort_type_rank: number | null;
  sort_number: Generated<number>;
}

export interface CollectionTables {
  groups: GroupsTable;
  series: SeriesTable;
  episodes: EpisodesTable;
}
