/** 0020: the Trakt show or movie of one TMDB show or movie of an anime; `trakt_id` null = Trakt does not know it. */
export interface TraktLinksTable {
  anime_id: number;
  kind: 'show' | 'movie';
  tmdb_id: number;
  trakt_id: number | null;
  slug: string | null;
  title: string | null;
  checked_at: string;
}

/** 0020: when a periodic Trakt task (`sync`) last ran. */
export interface TraktTaskRunsTable {
  task: string;
  ran_at: string;
}

export interface TraktTables {
  trakt_links: TraktLinksTable;
  trakt_task_runs: TraktTaskRunsTable;
}
