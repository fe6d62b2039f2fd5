/** Turns fixtures into the JSON TMDB v3 answers with (reference §2.3 / §8.3 of external-services.md). */
import {
  MOVIE_GENRES,
  TV_GENRES,
  type FakeEpisode,
  type FakeEpisodeGroup,
  type FakeImage,
  type FakeImageSet,
  type FakeMovie,
  type FakeSeason,
  type FakeShow,
  type FakeTranslation,
} from './fixtures.js';

type Json = Record<string, unknown>;

const genreIdsOf = (entry: { genre_ids?: number[] }) => entry.genre_ids ?? [16];
const genresOf = (entry: { genre_ids?: number[] }, list: typeof TV_GENRES) =>
  genreIdsOf(entry).map((id) => list.find((genre) => genre.id === id) ?? { id, name: `Genre ${id}` });

function imageJson(image: FakeImage, defaultWidth: number, defaultHeight: number): Json {
  const width = image.width ?? defaultWidth;
  const height = image.height ?? defaultHeight;
  return {
    aspect_ratio: Math.round((width / height) * 1000) / 1000,
    height,
    iso_639_1: image.iso_639_1 ?? null,
    file_path: image.file_path,
    vote_average: image.vote_average ?? 0,
    vote_count: image.vote_count ?? 0,
    width,
  };
}

export function imagesJson(set: FakeImageSet | undefined): Json {
  return {
    backdrops: (set?.backdrops ?? []).map((image) => imageJson(image, 1920, 1080)),
    logos: (set?.logos ?? []).map((image) => imageJson(image, 500, 200)),
    posters: (set?.posters ?? []).map((image) => imageJson(image, 1000, 1500)),
  };
}

/** Without explicit translations the fake offers the English one TMDB always has, built from the main fields. */
function translationsJson(given: FakeTranslation[] | undefined, data: FakeTranslation['data']): Json {
  const english: FakeTranslation = {
    iso_3166_1: 'US',
    iso_639_1: 'en',
    name: 'English',
    english_name: 'English',
    data: { ...data, tagline: '', homepage: '' },
  };
  return { translations: given ?? [english] };
}

const companiesJson = (entry: FakeShow | FakeMovie) =>
  (entry.production_companies ?? []).map((company) => ({ logo_path: null, origin_country: '', ...company }));

export function showSearchResult(show: FakeShow): Json {
  return {
    adult: show.adult ?? false,
    backdrop_path: show.backdrop_path ?? null,
    genre_ids: genreIdsOf(show),
    id: show.id,
    origin_country: show.origin_country ?? ['JP'],
    original_language: show.original_language ?? 'ja',
    original_name: show.original_name ?? show.name,
    overview: show.overview ?? '',
    popularity: show.popularity ?? 1,
    poster_path: show.poster_path ?? null,
    first_air_date: show.first_air_date ?? '',
    name: show.name,
    vote_average: show.vote_average ?? 0,
    vote_count: show.vote_count ?? 0,
  };
}

export function movieSearchResult(movie: FakeMovie): Json {
  return {
    adult: movie.adult ?? false,
    backdrop_path: movie.backdrop_path ?? null,
    genre_ids: genreIdsOf(movie),
    id: movie.id,
    original_language: movie.original_language ?? 'ja',
    original_title: movie.original_title ?? movie.title,
    overview: movie.overview ?? '',
    popularity: movie.popularity ?? 1,
    poster_path: movie.poster_path ?? null,
    release_date: movie.release_date ?? '',
    title: movie.title,
    video: movie.video ?? false,
    vote_average: movie.vote_average ?? 0,
    vote_count: movie.vote_count ?? 0,
  };
}

function episodeJson(show: FakeShow, season: FakeSeason, episode: FakeEpisode): Json {
  return {
    air_date: episode.air_date ?? null,
    episode_number: episode.episode_number,
    episode_type: 'standard',
    id: episode.id,
    name: episode.name,
    overview: episode.overview ?? '',
    production_code: '',
    runtime: episode.runtime ?? null,
    season_number: season.season_number,
    show_id: show.id,
    still_path: episode.still_path ?? null,
    vote_average: episode.vote_average ?? 0,
    vote_count: episode.vote_count ?? 0,
  };
}

function episodeGroupSummary(group: FakeEpisodeGroup): Json {
  return {
    description: group.description ?? '',
    episode_count: group.groups.reduce((sum, g) => sum + g.episodes.length, 0),
    group_count: group.groups.length,
    id: group.id,
    name: group.name,
    network: null,
    type: group.type,
  };
}

/** Each name in `append_to_response` embeds that sub-resource under the same key; unknown names are ignored. */
function withAppended(base: Json, requested: readonly string[], available: Record<string, () => unknown>): Json {
  const result: Json = { ...base };
  for (const name of requested) if (Object.hasOwn(available, name)) result[name] = available[name]();
  return result;
}

export function showDetails(show: FakeShow, append: readonly string[]): Json {
  const base: Json = {
    ...showSearchResult(show),
    genres: genresOf(show, TV_GENRES),
    last_air_date: show.last_air_date ?? null,
    status: show.status ?? 'Ended',
    number_of_seasons: show.seasons.filter((season) => season.season_number > 0).length,
    number_of_episodes: show.seasons.filter((season) => season.season_number > 0).reduce((sum, season) => sum + season.episodes.length, 0),
    production_companies: companiesJson(show),
    production_countries: show.production_countries ?? [],
    seasons: show.seasons.map((season) => ({
      air_date: season.episodes[0]?.air_date ?? null,
      episode_count: season.episodes.length,
      id: season.id,
      name: season.name,
      overview: season.overview ?? '',
      poster_path: season.poster_path ?? null,
      season_number: season.season_number,
      vote_average: 0,
    })),
  };
  delete base.genre_ids;
  return withAppended(base, append, {
    credits: () => show.credits ?? { cast: [], crew: [] },
    images: () => imagesJson(show.images),
    alternative_titles: () => ({ results: (show.alternative_titles ?? []).map((t) => ({ type: '', ...t })) }),
    content_ratings: () => ({ results: show.content_ratings ?? [] }),
    external_ids: () => ({ imdb_id: null, tvdb_id: null, ...show.external_ids }),
    keywords: () => ({ results: show.keywords ?? [] }),
    translations: () => translationsJson(show.translations, { name: show.name, overview: show.overview ?? '' }),
    episode_groups: () => ({ results: (show.episode_groups ?? []).map(episodeGroupSummary) }),
  });
}

export function movieDetails(movie: FakeMovie, append: readonly string[]): Json {
  const base: Json = {
    ...movieSearchResult(movie),
    belongs_to_collection: movie.belongs_to_collection ?? null,
    genres: genresOf(movie, MOVIE_GENRES),
    production_companies: companiesJson(movie),
    production_countries: movie.production_countries ?? [],
    runtime: movie.runtime ?? null,
    status: 'Released',
  };
  delete base.genre_ids;
  return withAppended(base, append, {
    credits: () => movie.credits ?? { cast: [], crew: [] },
    images: () => imagesJson(movie.images),
    alternative_titles: () => ({ titles: (movie.alternative_titles ?? []).map((t) => ({ type: '', ...t })) }),
    release_dates: () => ({
      results: (movie.release_dates ?? []).map((country) => ({
        iso_3166_1: country.iso_3166_1,
        release_dates: country.release_dates.map((release) => ({ iso_639_1: '', note: '', ...release })),
      })),
    }),
    external_ids: () => ({ imdb_id: null, ...movie.external_ids }),
    keywords: () => ({ keywords: movie.keywords ?? [] }),
    translations: () => translationsJson(movie.translations, { title: movie.title, overview: movie.overview ?? '' }),
  });
}

export function seasonDetails(show: FakeShow, season: FakeSeason, append: readonly string[]): Json {
  const base: Json = {
    air_date: season.episodes[0]?.air_date ?? null,
    episodes: season.episodes.map((episode) => episodeJson(show, season, episode)),
    id: season.id,
    name: season.name,
    overview: season.overview ?? '',
    poster_path: season.poster_path ?? null,
    season_number: season.season_number,
    vote_average: 0,
  };
  return withAppended(base, append, {
    translations: () => ({ translations: season.translations ?? [] }),
    images: () => ({ posters: (season.images?.posters ?? []).map((image) => imageJson(image, 1000, 1500)) }),
  });
}

/** Returns null when a group names an episode the show does not have (a broken fixture, reported as 500). */
export function episodeGroupDetails(show: FakeShow, group: FakeEpisodeGroup): Json | null {
  const groups = [];
  for (const part of group.groups) {
    const episodes = [];
    for (const [order, ref] of part.episodes.entries()) {
      const season = show.seasons.find((s) => s.season_number === ref.season_number);
      const episode = season?.episodes.find((e) => e.episode_number === ref.episode_number);
      if (!season || !episode) return null;
      episodes.push({ ...episodeJson(show, season, episode), order });
    }
    groups.push({ id: part.id, name: part.name, order: part.order, locked: true, episodes });
  }
  return { ...episodeGroupSummary(group), groups };
}
