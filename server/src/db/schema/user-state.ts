import type { Flag } from './flag.js';

export interface UserEpisodeStatesTable {
  user_id: number;
  episode_id: number;
  watched_at: string | null;
  watch_count: number;
  rating: number | null;
  updated_at: string;
}

/** 0013: one user's record of one file (resume point, watched date, watch count). */
export interface UserFileStatesTable {
  user_id: number;
  file_id: number;
  resume_position_ms: number;
  watched_at: string | null;
  watch_count: number;
  updated_at: string;
}

export interface UserSeriesVotesTable {
  user_id: number;
  series_id: number;
  /** 0–10. */
  value: number;
  vote_type: 'Permanent' | 'Temporary';
  updated_at: string;
}

/** 0054: a group one user marked as a favourite (from a Shoko import; API v3 cannot set them). */
export interface UserGroupFavouritesTable {
  user_id: number;
  group_id: number;
}

/** 0047: +1/−1 rows of each user's listed episodes per watched/voted combination (appended by triggers, folded by the reader). */
export interface UserEpisodeCountsTable {
  user_id: number;
  is_watched: Flag;
  is_voted: Flag;
  episodes: number;
}

export interface UserStateTables {
  user_episode_states: UserEpisodeStatesTable;
  user_file_states: UserFileStatesTable;
  user_series_votes: UserSeriesVotesTable;
  user_group_favourites: UserGroupFavouritesTable;
  user_episode_counts: UserEpisodeCountsTable;
}
