import type {
  ManifestCustomTag,
  ManifestEpisode,
  ManifestFile,
  ManifestGroup,
  ManifestIgnoredAnime,
  ManifestImportFolder,
  ManifestSeries,
  ManifestUser,
  ManifestVote,
} from './manifest.js';

/**
 * The invented collection a data folder is written from: AniDB's side (anime, episodes, tags, characters, creators,
 * release groups) and Shoko's (users, folders, files, groups, series, episodes, watch states, ...). The small and the
 * large generator build one; the writers turn it into rows, AnimeDoc XML, images and the manifest.
 */
export interface ShokoCollection {
  anime: AnimeSpec[];
  tags: TagSpec[];
  characters: CharacterSpec[];
  creators: CreatorSpec[];
  releaseGroups: ReleaseGroupSpec[];
  users: UserSpec[];
  importFolders: ImportFolderSpec[];
  files: FileSpec[];
  groups: GroupSpec[];
  series: SeriesSpec[];
  episodes: ManifestEpisode[];
  episodeStates: EpisodeStateSpec[];
  fileStates: FileStateSpec[];
  votes: ManifestVote[];
  customTags: ManifestCustomTag[];
  ignoredAnime: ManifestIgnoredAnime[];
  tmdb: TmdbSpec;
  /** Write SAMPLE_FILTER_PRESETS besides Shoko's default presets. */
  sampleFilterPresets: boolean;
  /** Write the unsupported renamer besides the supported one. */
  unsupportedRenamer: boolean;
  /** Write tiny images for posters, characters, creators and TMDB. */
  images: boolean;
}

export interface TitleSpec {
  type: 'main' | 'official' | 'synonym' | 'short';
  /** AniDB's language code: x-jat, ja, en, de, ... */
  language: string;
  value: string;
}

export interface TagSpec {
  id: number;
  parentId: number | null;
  name: string;
  description: string;
  globalSpoiler: boolean;
  verified: boolean;
}

export interface CharacterSpec {
  id: number;
  name: string;
  originalName: string;
  gender: 'female' | 'male';
  description: string;
  picture: string;
  /** AniDB's charactertype text. */
  kind: 'Character' | 'Organization';
}

export interface CreatorSpec {
  id: number;
  name: string;
  originalName: string | null;
  kind: 'Person' | 'Company';
  picture: string | null;
}

export interface ReleaseGroupSpec {
  id: number;
  name: string;
  shortName: string;
}

/** AniDB episode types: 1 regular, 2 credits, 3 special, 4 trailer, 5 parody, 6 other. */
export type AniDBEpisodeType = 1 | 2 | 3 | 4 | 5 | 6;

export interface AnimeEpisodeSpec {
  id: number;
  type: AniDBEpisodeType;
  number: number;
  lengthMinutes: number;
  /** yyyy-MM-dd, or null when AniDB has no date. */
  airDate: string | null;
  titles: Array<{ language: string; value: string }>;
  rating: number;
  votes: number;
  summary: string;
}

/** AniDB's type texts and the AnimeType numbers Shoko stores for them. */
export const ANIME_TYPES = { Movie: 0, OVA: 1, 'TV Series': 2, 'TV Special': 3, Web: 4, Other: 5 } as const;
export type AnimeTypeText = keyof typeof ANIME_TYPES;

export interface AnimeSpec {
  id: number;
  typeText: AnimeTypeText;
  restricted: boolean;
  titles: TitleSpec[];
  startDate: string | null;
  endDate: string | null;
  description: string;
  picture: string;
  url: string | null;
  /** [value, votes] as AniDB shows them (7.38 of 142 votes). */
  ratings: { permanent: [number, number]; temporary: [number, number]; review: [number, number] | null };
  resources: { annId?: number; allCinemaId?: number; syoboiId?: number; siteJp?: string; wikipediaEn?: string };
  episodes: AnimeEpisodeSpec[];
  tags: Array<{ id: number; weight: number; localSpoiler: boolean }>;
  /** `type` is AniDB's XML text (Sequel, Prequel, Side Story, Same Setting, ...). */
  relations: Array<{ id: number; type: string; title: string }>;
  similar: Array<{ id: number; approval: number; total: number; title: string }>;
  /** `appearance` is AniDB's text (main character in, secondary cast in, appears in). */
  characters: Array<{ id: number; appearance: string; seiyuuIds: number[] }>;
  /** `role` is AniDB's creator type text (Direction, Music, Original Work, Animation Work, ...). */
  staff: Array<{ creatorId: number; role: string }>;
  animeDocXml: boolean;
  updatedAt: Date;
}

export interface UserSpec extends ManifestUser {
  plexToken: string | null;
  avatar: { bytes: Buffer; contentType: string; width: number; height: number } | null;
}

export type ImportFolderSpec = ManifestImportFolder;

export interface FileSpec extends ManifestFile {
  /** The real bytes (small folders only); null when nothing is written. */
  content: Buffer | null;
  createdAt: Date;
  /** When Shoko linked it to AniDB (null for files still unrecognised). */
  importedAt: Date | null;
  /** AniDB_File.File_Source (Shoko's name of AniDB's source). */
  anidbSource: string;
  /** When Shoko last asked AniDB about the hash (AniDB_FileUpdate); null when it never did. */
  anidbCheckedAt: Date | null;
}

export interface GroupSpec extends ManifestGroup {
  description: string | null;
  mainAnimeId: number;
}

export type SeriesSpec = ManifestSeries;

export interface EpisodeStateSpec {
  userId: number;
  episodeId: number;
  watchedAt: Date | null;
  watchedCount: number;
  playedCount: number;
  stoppedCount: number;
}

export interface FileStateSpec {
  userId: number;
  fileId: number;
  resumePositionMs: number;
  watchedAt: Date | null;
  watchedCount: number;
  lastUpdated: Date;
}

export interface TmdbEpisodeSpec {
  id: number;
  number: number;
  title: string;
  overview: string;
  airDate: string | null;
  runtimeMinutes: number;
}

export interface TmdbShowSpec {
  id: number;
  animeId: number;
  title: string;
  originalTitle: string;
  overview: string;
  posterPath: string;
  logoPath?: string;
  seasons: Array<{ id: number; number: number; title: string; episodes: TmdbEpisodeSpec[] }>;
  episodeLinks: Array<{ anidbEpisodeId: number; tmdbEpisodeId: number; ordering: number }>;
}

export interface TmdbMovieSpec {
  id: number;
  animeId: number;
  anidbEpisodeId: number;
  title: string;
  originalTitle: string;
  overview: string;
  releaseDate: string;
  runtimeMinutes: number;
  posterPath: string;
}

export interface TmdbSpec {
  shows: TmdbShowSpec[];
  movies: TmdbMovieSpec[];
}

export const mainTitleOf = (anime: AnimeSpec): string => anime.titles.find((title) => title.type === 'main')?.value ?? String(anime.id);
