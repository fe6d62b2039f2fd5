import type { ShokoPathMapping } from '@shoko-ts/contract';
import type { ImportPlan } from './import-plan.js';
import type { ImportReportBuilder } from './import-report.js';
import type { ShokoDatabase } from './shoko-database.js';
import type { ShokoFolder } from './shoko-folder.js';

/** The ids each mapper found usable, so later kinds skip rows that point at something not imported. */
export interface ImportedIds {
  users: Set<number>;
  tagIdsByName: Map<string, number>;
  anime: Set<number>;
  /** AniDB episode id → its AniDB anime id. */
  anidbEpisodes: Map<number, number>;
  importFolders: Set<number>;
  /** Shoko VideoLocalID → the content's ED2K and size. */
  files: Map<number, { ed2k: string; size: number }>;
  groups: Set<number>;
  /** Shoko AnimeSeriesID → its AniDB anime id. */
  series: Map<number, number>;
  seriesByAnime: Map<number, number>;
  /** Shoko AnimeEpisodeID → its series id. */
  episodes: Map<number, number>;
  episodesByAniDB: Map<number, number>;
  tmdbShows: Set<number>;
  tmdbMovies: Set<number>;
}

export interface MapContext {
  shoko: ShokoDatabase;
  folder: ShokoFolder;
  plan: ImportPlan;
  report: ImportReportBuilder;
  /** Our data directory (the AniDB cache and images are copied under it). */
  home: string;
  pathMap: ShokoPathMapping[];
  ids: ImportedIds;
  /** One timestamp for every row the import creates. */
  now: string;
}

export function emptyIds(): ImportedIds {
  return {
    users: new Set(),
    tagIdsByName: new Map(),
    anime: new Set(),
    anidbEpisodes: new Map(),
    importFolders: new Set(),
    files: new Map(),
    groups: new Set(),
    series: new Map(),
    seriesByAnime: new Map(),
    episodes: new Map(),
    episodesByAniDB: new Map(),
    tmdbShows: new Set(),
    tmdbMovies: new Set(),
  };
}

/** Why a row naming an AniDB anime that is not in the database is skipped; undefined when the anime is there. */
export function animeMissing(ids: ImportedIds, row: { AnimeID?: unknown }): string | undefined {
  return ids.anime.has(Number(row.AnimeID)) ? undefined : 'its anime is not in the database';
}
