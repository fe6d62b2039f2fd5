import type {
  TmdbEpisode,
  TmdbEpisodeCrossReference,
  TmdbMovie,
  TmdbMovieCrossReference,
  TmdbOrderingInformation,
  TmdbOverview,
  TmdbRemoteSearchMovie,
  TmdbRemoteSearchShow,
  TmdbRole,
  TmdbShow,
  TmdbShowCrossReference,
  TmdbTitle,
  TmdbUserRating,
} from '@shoko-ts/contract';
import type { EpisodeLink, TmdbMovieSearchResult, TmdbShowSearchResult } from '../../providers/tmdb/index.js';
import { splitGenres, type StoredText } from './tmdb-snapshot.js';
import {
  parseJson,
  type CreditRow,
  type EpisodeRow,
  type EpisodeXrefRow,
  type MovieRow,
  type OrderingRow,
  type ShowRow,
} from './tmdb.store.js';

/** Rows → the v3 contract's TMDB models. */
const rating = (value: number, votes: number): TmdbUserRating => ({ Value: value, MaxValue: 10, Source: 'TMDB', Votes: votes, Type: null });

/** Minutes → .NET TimeSpan text. */
export function runtimeText(minutes: number | null): string | null {
  if (!minutes) return null;
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const clock = `${String(hours % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;
  return days ? `${days}.${clock}` : clock;
}

/** The stored translations as Title entries; the entry equal to the main title is the preferred one. */
export function titlesOf(row: { title: string; titles: string }): TmdbTitle[] {
  return parseJson<StoredText[]>(row.titles, []).map((t) => ({
    Name: t.value,
    Language: t.language,
    Type: 'None',
    Default: t.value === row.title && t.language === 'en',
    Preferred: t.value === row.title,
    Source: 'TMDB',
  }));
}

export function overviewsOf(row: { overview: string; overviews: string }): TmdbOverview[] {
  return parseJson<StoredText[]>(row.overviews, []).map((t) => ({
    Value: t.value,
    Language: t.language,
    Default: t.language === 'en',
    Preferred: t.value === row.overview,
    Source: 'TMDB',
  }));
}

function textDetails(
  row: { title: string; overview: string; titles: string; overviews: string; original_language: string },
  include: Set<string>,
) {
  return {
    ...(include.has('Titles') ? { Titles: titlesOf(row) } : {}),
    ...(include.has('Overviews') ? { Overviews: overviewsOf(row) } : {}),
  };
}

function listDetails(
  row: { keywords: string; content_ratings: string; studios: string; production_countries: string; original_language: string },
  include: Set<string>,
) {
  const studios = parseJson<{ id: number; name: string; origin_country?: string }[]>(row.studios, []);
  return {
    ...(include.has('Keywords') ? { Keywords: parseJson<string[]>(row.keywords, []) } : {}),
    ...(include.has('ContentRatings')
      ? {
          ContentRatings: parseJson<{ country: string; rating: string }[]>(row.content_ratings, []).map((r) => ({
            Rating: r.rating,
            Country: r.country,
            Language: row.original_language,
            Source: 'TMDB',
          })),
        }
      : {}),
    ...(include.has('Studios')
      ? { Studios: studios.map((s) => ({ ID: s.id, Name: s.name, CountryOfOrigin: s.origin_country ?? '', Size: 0 })) }
      : {}),
    ...(include.has('ProductionCountries') ? { ProductionCountries: parseJson<Record<string, string>>(row.production_countries, {}) } : {}),
  };
}

function role(credit: CreditRow): TmdbRole {
  const staff = { ID: credit.person_id, Name: credit.name, AlternateName: '', Description: '', Image: null };
  if (credit.kind === 'Cast') {
    return {
      Character: { Name: credit.character_name ?? '', AlternateName: '', Description: '', Image: null },
      Staff: staff,
      RoleName: 'Actor',
      RoleDetails: credit.character_name ?? '',
    };
  }
  return { Staff: staff, RoleName: credit.job === 'Director' ? 'Director' : 'Staff', RoleDetails: credit.job ?? '' };
}

function creditDetails(credits: CreditRow[] | null, include: Set<string>) {
  if (!credits) return {};
  return {
    ...(include.has('Cast') ? { Cast: credits.filter((c) => c.kind === 'Cast').map(role) } : {}),
    ...(include.has('Crew') ? { Crew: credits.filter((c) => c.kind === 'Crew').map(role) } : {}),
  };
}

export interface ShowModelExtras {
  episodes: EpisodeRow[];
  seasonCount: number;
  orderings: OrderingRow[];
  /** The ordering the model is shown in: the show id as text for the default one. */
  orderingId: string;
  crossReferences?: TmdbShowCrossReference[];
  orderingInfo?: TmdbOrderingInformation[];
  credits?: CreditRow[] | null;
}

export function toTmdbShow(row: ShowRow, extras: ShowModelExtras, include: Set<string>): TmdbShow {
  return {
    ID: row.id,
    AlternateOrderingID: extras.orderingId,
    TvdbID: row.tvdb_id,
    Title: row.title,
    Overview: row.overview,
    ...textDetails(row, include),
    OriginalLanguage: row.original_language,
    IsRestricted: row.is_restricted === 1,
    UserRating: rating(row.vote_average, row.vote_count),
    Genres: parseJson<string[]>(row.genres, []),
    ...listDetails(row, include),
    ...creditDetails(extras.credits ?? null, include),
    EpisodeCount: extras.episodes.filter((e) => e.season_number !== 0).length,
    HiddenEpisodeCount: 0,
    SeasonCount: extras.seasonCount,
    AlternateOrderingCount: extras.orderings.length,
    ...(include.has('Ordering') && extras.orderingInfo ? { Ordering: extras.orderingInfo } : {}),
    ...(include.has('CrossReferences') && extras.crossReferences ? { CrossReferences: extras.crossReferences } : {}),
    FirstAiredAt: row.first_aired_at,
    LastAiredAt: row.last_aired_at,
    CreatedAt: row.created_at,
    LastUpdatedAt: row.updated_at,
  };
}

export function toTmdbMovie(
  row: MovieRow,
  extras: { crossReferences?: TmdbMovieCrossReference[]; credits?: CreditRow[] | null },
  include: Set<string>,
): TmdbMovie {
  return {
    ID: row.id,
    CollectionID: row.collection_id,
    ImdbMovieID: row.imdb_id,
    Title: row.title,
    Overview: row.overview,
    ...textDetails(row, include),
    OriginalLanguage: row.original_language,
    IsRestricted: row.is_restricted === 1,
    IsVideo: row.is_video === 1,
    UserRating: rating(row.vote_average, row.vote_count),
    Runtime: runtimeText(row.runtime_minutes),
    Genres: parseJson<string[]>(row.genres, []),
    ...listDetails(row, include),
    ...creditDetails(extras.credits ?? null, include),
    ...(include.has('CrossReferences') && extras.crossReferences ? { CrossReferences: extras.crossReferences } : {}),
    ReleasedAt: row.released_at,
    CreatedAt: row.created_at,
    LastUpdatedAt: row.updated_at,
  };
}

/** An episode, numbered as in the ordering `placement` describes (null = the default seasons). */
export function toTmdbEpisode(
  row: EpisodeRow,
  placement: { orderingId: string; seasonId: string; seasonNumber: number; episodeNumber: number } | null,
  extras: { crossReferences?: TmdbEpisodeCrossReference[] } = {},
): TmdbEpisode {
  return {
    ID: row.id,
    SeasonID: placement?.seasonId ?? String(row.season_id),
    ShowID: row.show_id,
    AlternateOrderingID: placement?.orderingId ?? String(row.show_id),
    TvdbEpisodeID: row.tvdb_episode_id,
    Title: row.title,
    Overview: row.overview,
    IsHidden: false,
    EpisodeNumber: placement?.episodeNumber ?? row.episode_number,
    SeasonNumber: placement?.seasonNumber ?? row.season_number,
    UserRating: rating(row.vote_average, row.vote_count),
    Runtime: runtimeText(row.runtime_minutes),
    ...(extras.crossReferences ? { CrossReferences: extras.crossReferences } : {}),
    AiredAt: row.aired_at,
    CreatedAt: row.created_at,
    LastUpdatedAt: row.updated_at,
  };
}

export const showCrossReference = (link: { anime_id: number; show_id: number; source: string }): TmdbShowCrossReference => ({
  AnidbAnimeID: link.anime_id,
  TmdbShowID: link.show_id,
  Rating: link.source === 'User' ? 'User' : 'Automatic',
});

export const movieCrossReference = (link: {
  anime_id: number;
  anidb_episode_id: number;
  movie_id: number;
  source: string;
}): TmdbMovieCrossReference => ({
  AnidbAnimeID: link.anime_id,
  AnidbEpisodeID: link.anidb_episode_id,
  TmdbMovieID: link.movie_id,
  Rating: link.source === 'User' ? 'User' : 'Automatic',
});

export const episodeCrossReference = (link: EpisodeXrefRow): TmdbEpisodeCrossReference => ({
  AnidbAnimeID: link.anime_id,
  AnidbEpisodeID: link.anidb_episode_id,
  TmdbShowID: link.show_id,
  TmdbEpisodeID: link.tmdb_episode_id,
  Index: link.ordering,
  Rating: link.rating,
});

/** A planned (not stored) episode link; links into other shows only come from user overrides. */
export const planCrossReference = (animeId: number, showId: number, link: EpisodeLink): TmdbEpisodeCrossReference => ({
  AnidbAnimeID: animeId,
  AnidbEpisodeID: link.anidbEpisodeId,
  TmdbShowID: link.tmdbEpisodeId ? showId : 0,
  TmdbEpisodeID: link.tmdbEpisodeId,
  Index: 0,
  Rating: link.rating,
});

/**
 * Clusters episode links that share an AniDB or a TMDB episode (one-to-many and many-to-one mappings), in the order
 * their first link comes; `Index` becomes the position inside the cluster. "No link" entries stand alone.
 */
export function groupEpisodeLinks(links: TmdbEpisodeCrossReference[]): TmdbEpisodeCrossReference[][] {
  const groups: TmdbEpisodeCrossReference[][] = [];
  const byAnidb = new Map<number, TmdbEpisodeCrossReference[]>();
  const byTmdb = new Map<number, TmdbEpisodeCrossReference[]>();
  for (const link of links) {
    const viaAnidb = byAnidb.get(link.AnidbEpisodeID);
    const viaTmdb = link.TmdbEpisodeID ? byTmdb.get(link.TmdbEpisodeID) : undefined;
    let group = viaAnidb ?? viaTmdb;
    if (!group) {
      group = [];
      groups.push(group);
    } else if (viaAnidb && viaTmdb && viaAnidb !== viaTmdb) {
      // The link joins two clusters: fold the later one into the earlier one.
      const [keep, drop] = groups.indexOf(viaAnidb) < groups.indexOf(viaTmdb) ? [viaAnidb, viaTmdb] : [viaTmdb, viaAnidb];
      keep.push(...drop);
      groups.splice(groups.indexOf(drop), 1);
      for (const moved of drop) {
        byAnidb.set(moved.AnidbEpisodeID, keep);
        if (moved.TmdbEpisodeID) byTmdb.set(moved.TmdbEpisodeID, keep);
      }
      group = keep;
    }
    group.push(link);
    byAnidb.set(link.AnidbEpisodeID, group);
    if (link.TmdbEpisodeID) byTmdb.set(link.TmdbEpisodeID, group);
  }
  return groups.map((group) => group.map((link, index) => ({ ...link, Index: index })));
}

const ORDERING_TYPES = ['Unknown', 'OriginalAirDate', 'Absolute', 'DVD', 'Digital', 'StoryArc', 'Production', 'TV'] as const;

export function orderingInformation(
  show: ShowRow,
  episodes: EpisodeRow[],
  seasonCount: number,
  orderings: { row: OrderingRow; episodeCount: number }[],
  inUse: string,
): TmdbOrderingInformation[] {
  const preferred = show.preferred_ordering_id ?? String(show.id);
  const defaultId = String(show.id);
  return [
    {
      OrderingID: defaultId,
      OrderingName: 'Seasons',
      EpisodeCount: episodes.length,
      HiddenEpisodeCount: 0,
      SeasonCount: seasonCount,
      IsDefault: true,
      IsPreferred: preferred === defaultId,
      InUse: inUse === defaultId,
    },
    ...orderings.map(({ row, episodeCount }) => ({
      OrderingID: row.id,
      OrderingType: ORDERING_TYPES[row.type] ?? 'Unknown',
      OrderingName: row.name,
      EpisodeCount: episodeCount,
      HiddenEpisodeCount: 0,
      SeasonCount: row.season_count,
      IsDefault: false,
      IsPreferred: preferred === row.id,
      InUse: inUse === row.id,
    })),
  ];
}

/** Live search results in the contract's RemoteSearch shapes; `genres` are names already. */
export function remoteShow(result: TmdbShowSearchResult, genres: string[], imageUrl: (path: string) => string): TmdbRemoteSearchShow {
  return {
    ID: result.id,
    Title: result.name,
    OriginalTitle: result.original_name,
    OriginalLanguage: result.original_language,
    Overview: result.overview ?? '',
    FirstAiredAt: result.first_air_date || null,
    ...common(result, genres, imageUrl),
  };
}

export function remoteMovie(result: TmdbMovieSearchResult, genres: string[], imageUrl: (path: string) => string): TmdbRemoteSearchMovie {
  return {
    ID: result.id,
    Title: result.title,
    OriginalTitle: result.original_title,
    OriginalLanguage: result.original_language,
    Overview: result.overview ?? '',
    IsRestricted: result.adult ?? false,
    IsVideo: result.video ?? false,
    ReleasedAt: result.release_date || null,
    ...common(result, genres, imageUrl),
  };
}

function common(result: TmdbShowSearchResult | TmdbMovieSearchResult, genres: string[], imageUrl: (path: string) => string) {
  return {
    Poster: result.poster_path ? imageUrl(result.poster_path) : null,
    Backdrop: result.backdrop_path ? imageUrl(result.backdrop_path) : null,
    UserRating: rating(result.vote_average ?? 0, result.vote_count ?? 0),
    Genres: genres,
  };
}

/** Genre ids of a search result → names, "A & B" split in two. */
export function genreNames(ids: number[], genres: Map<number, string>): string[] {
  return splitGenres(ids.map((id) => genres.get(id) ?? ''));
}

/** A stored show or movie in the search-result shape (the local copy the Online/{id} endpoints prefer). */
export function localRemoteShow(row: ShowRow, imageUrl: (path: string) => string): TmdbRemoteSearchShow {
  const result = {
    ...localBase(row),
    name: row.title,
    original_name: row.original_title,
    first_air_date: row.first_aired_at,
    origin_country: [],
  };
  return remoteShow(result, parseJson<string[]>(row.genres, []), imageUrl);
}

export function localRemoteMovie(row: MovieRow, imageUrl: (path: string) => string): TmdbRemoteSearchMovie {
  const result = {
    ...localBase(row),
    title: row.title,
    original_title: row.original_title,
    release_date: row.released_at,
    adult: row.is_restricted === 1,
    video: row.is_video === 1,
  };
  return remoteMovie(result, parseJson<string[]>(row.genres, []), imageUrl);
}

function localBase(row: ShowRow | MovieRow) {
  const { id, original_language, overview, poster_path, backdrop_path, vote_average, vote_count } = row;
  return { id, original_language, overview, poster_path, backdrop_path, vote_average, vote_count, genre_ids: [], popularity: 0 };
}
