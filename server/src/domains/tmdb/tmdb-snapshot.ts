import type {
  TmdbCredits,
  TmdbEpisodeGroupDetails,
  TmdbImages,
  TmdbMovieDetails,
  TmdbSeasonDetails,
  TmdbShowDetails,
  TmdbTranslation,
} from '../../providers/tmdb/index.js';
import type { CreditInsertRow, ImageInsertRow, MovieSnapshot, OrderingEpisodeRow, ShowSnapshot } from './tmdb-snapshot.store.js';

/** A translated text as stored in the `titles` / `overviews` JSON columns. */
export interface StoredText {
  language: string;
  country: string;
  value: string;
}

/** TMDB's "Action & Adventure" is two genres. */
export function splitGenres(names: string[]): string[] {
  return [...new Set(names.flatMap((name) => name.split('&').map((part) => part.trim())).filter(Boolean))];
}

function texts(translations: TmdbTranslation[] | undefined, pick: (data: TmdbTranslation['data']) => string | undefined): StoredText[] {
  return (translations ?? [])
    .map((t) => ({ language: t.iso_639_1, country: t.iso_3166_1, value: pick(t.data)?.trim() ?? '' }))
    .filter((t) => t.value.length > 0);
}

/** English from the `en` translation when TMDB has one, else the top-level text (asked for in en-US). */
function english(stored: StoredText[], fallback: string): string {
  return stored.find((t) => t.language === 'en' && t.country === 'US')?.value ?? stored.find((t) => t.language === 'en')?.value ?? fallback;
}

const dateOrNull = (date: string | null | undefined): string | null => (date ? date.slice(0, 10) : null);

function imageRows(parentType: ImageInsertRow['parent_type'], parentId: number, images: Partial<TmdbImages> | undefined): ImageInsertRow[] {
  const kinds: [keyof TmdbImages, ImageInsertRow['image_type']][] = [
    ['posters', 'Poster'],
    ['backdrops', 'Backdrop'],
    ['logos', 'Logo'],
  ];
  return kinds.flatMap(([key, imageType]) =>
    (images?.[key] ?? []).map((image) => ({
      parent_type: parentType,
      parent_id: parentId,
      image_type: imageType,
      file_path: image.file_path,
      language: image.iso_639_1 ?? null,
      width: image.width ?? null,
      height: image.height ?? null,
      vote_average: image.vote_average ?? 0,
      vote_count: image.vote_count ?? 0,
    })),
  );
}

function singleImage(
  parentType: ImageInsertRow['parent_type'],
  parentId: number,
  imageType: ImageInsertRow['image_type'],
  filePath: string | null | undefined,
): ImageInsertRow[] {
  return filePath
    ? [
        {
          parent_type: parentType,
          parent_id: parentId,
          image_type: imageType,
          file_path: filePath,
          language: null,
          width: null,
          height: null,
          vote_average: 0,
          vote_count: 0,
        },
      ]
    : [];
}

function creditRows(parentType: 'Show' | 'Movie', parentId: number, credits: TmdbCredits): CreditInsertRow[] {
  const cast = credits.cast.map((member) => ({
    parent_type: parentType,
    parent_id: parentId,
    credit_id: member.credit_id,
    kind: 'Cast' as const,
    person_id: member.id,
    name: member.name,
    character_name: member.character ?? null,
    department: null,
    job: null,
    ordering: member.order,
    profile_path: member.profile_path ?? null,
  }));
  const crew = credits.crew.map((member, index) => ({
    parent_type: parentType,
    parent_id: parentId,
    credit_id: member.credit_id,
    kind: 'Crew' as const,
    person_id: member.id,
    name: member.name,
    character_name: null,
    department: member.department,
    job: member.job,
    ordering: index,
    profile_path: member.profile_path ?? null,
  }));
  return [...cast, ...crew];
}

export function showSnapshot(
  show: TmdbShowDetails,
  seasons: TmdbSeasonDetails[],
  groups: TmdbEpisodeGroupDetails[] | null,
  options: { withCredits: boolean; withImages: boolean },
): ShowSnapshot {
  const titles = texts(show.translations?.translations, (data) => data.name);
  const overviews = texts(show.translations?.translations, (data) => data.overview);
  const episodes = seasons.flatMap((season) =>
    season.episodes.map((episode) => ({
      id: episode.id,
      show_id: show.id,
      season_id: season.id,
      season_number: episode.season_number ?? season.season_number,
      episode_number: episode.episode_number,
      title: episode.name ?? '',
      overview: episode.overview ?? '',
      aired_at: dateOrNull(episode.air_date),
      runtime_minutes: episode.runtime ?? null,
      still_path: episode.still_path ?? null,
      vote_average: episode.vote_average ?? 0,
      vote_count: episode.vote_count ?? 0,
      tvdb_episode_id: null,
      titles: '[]',
      overviews: '[]',
    })),
  );
  const orderings = groups?.map((group) => {
    const placed = new Map<number, OrderingEpisodeRow>();
    for (const part of [...group.groups].sort((a, b) => a.order - b.order)) {
      [...part.episodes]
        .sort((a, b) => a.order - b.order)
        .forEach((episode, index) => {
          if (!placed.has(episode.id)) {
            placed.set(episode.id, {
              ordering_id: group.id,
              episode_id: episode.id,
              show_id: show.id,
              season_id: part.id,
              season_name: part.name,
              season_number: part.order,
              episode_number: index + 1,
            });
          }
        });
    }
    return {
      ordering: {
        id: group.id,
        show_id: show.id,
        name: group.name,
        description: group.description ?? '',
        type: group.type,
        episode_count: group.episode_count ?? placed.size,
        season_count: group.group_count ?? group.groups.length,
      },
      episodes: [...placed.values()],
    };
  });
  const images = options.withImages
    ? [
        ...imageRows('Show', show.id, show.images),
        ...seasons.flatMap((season) => singleImage('Season', season.id, 'Poster', season.poster_path)),
        ...episodes.flatMap((episode) => singleImage('Episode', episode.id, 'Thumbnail', episode.still_path)),
      ]
    : null;
  return {
    show: {
      id: show.id,
      title: english(titles, show.name),
      original_title: show.original_name ?? '',
      original_language: show.original_language ?? '',
      overview: english(overviews, show.overview ?? ''),
      is_restricted: show.adult ? 1 : 0,
      tvdb_id: show.external_ids?.tvdb_id ?? null,
      imdb_id: show.external_ids?.imdb_id ?? null,
      status: show.status ?? '',
      vote_average: show.vote_average ?? 0,
      vote_count: show.vote_count ?? 0,
      first_aired_at: dateOrNull(show.first_air_date),
      // TMDB's last air date is the latest aired episode until the show has ended.
      last_aired_at: show.status === 'Ended' ? dateOrNull(show.last_air_date) : null,
      poster_path: show.poster_path ?? null,
      backdrop_path: show.backdrop_path ?? null,
      genres: JSON.stringify(splitGenres((show.genres ?? []).map((g) => g.name))),
      keywords: JSON.stringify((show.keywords?.results ?? []).map((k) => k.name)),
      content_ratings: JSON.stringify((show.content_ratings?.results ?? []).map((r) => ({ country: r.iso_3166_1, rating: r.rating }))),
      studios: JSON.stringify(show.production_companies ?? []),
      production_countries: JSON.stringify(Object.fromEntries((show.production_countries ?? []).map((c) => [c.iso_3166_1, c.name]))),
      titles: JSON.stringify(titles),
      overviews: JSON.stringify(overviews),
    },
    seasons: seasons.map((season) => ({
      id: season.id,
      show_id: show.id,
      season_number: season.season_number,
      title: season.name ?? '',
      overview: season.overview ?? '',
      poster_path: season.poster_path ?? null,
      episode_count: season.episodes.length,
    })),
    episodes,
    orderings: orderings ?? null,
    credits: options.withCredits && show.credits ? creditRows('Show', show.id, show.credits) : null,
    images,
  };
}

/** First theatrical release (limited or wide), else the premiere, else any, in the first production country. */
function releaseDate(movie: TmdbMovieDetails): string | null {
  const country = movie.production_countries?.[0]?.iso_3166_1;
  const dates = movie.release_dates?.results.find((r) => r.iso_3166_1 === country)?.release_dates ?? [];
  const pick = dates.find((d) => d.type === 2 || d.type === 3) ?? dates.find((d) => d.type === 1) ?? dates[0];
  return dateOrNull(pick?.release_date ?? movie.release_date);
}

/** The last non-empty certification per country. */
function movieContentRatings(movie: TmdbMovieDetails): { country: string; rating: string }[] {
  return (movie.release_dates?.results ?? []).flatMap((entry) => {
    const rating = entry.release_dates
      .map((d) => d.certification)
      .filter(Boolean)
      .pop();
    return rating ? [{ country: entry.iso_3166_1, rating }] : [];
  });
}

export function movieSnapshot(movie: TmdbMovieDetails, options: { withCredits: boolean; withImages: boolean }): MovieSnapshot {
  const titles = texts(movie.translations?.translations, (data) => data.title);
  const overviews = texts(movie.translations?.translations, (data) => data.overview);
  return {
    movie: {
      id: movie.id,
      collection_id: movie.belongs_to_collection?.id ?? null,
      imdb_id: movie.external_ids?.imdb_id ?? null,
      title: english(titles, movie.title),
      original_title: movie.original_title ?? '',
      original_language: movie.original_language ?? '',
      overview: english(overviews, movie.overview ?? ''),
      is_restricted: movie.adult ? 1 : 0,
      is_video: movie.video ? 1 : 0,
      runtime_minutes: movie.runtime || null,
      vote_average: movie.vote_average ?? 0,
      vote_count: movie.vote_count ?? 0,
      released_at: releaseDate(movie),
      poster_path: movie.poster_path ?? null,
      backdrop_path: movie.backdrop_path ?? null,
      genres: JSON.stringify(splitGenres((movie.genres ?? []).map((g) => g.name))),
      keywords: JSON.stringify((movie.keywords?.keywords ?? []).map((k) => k.name)),
      content_ratings: JSON.stringify(movieContentRatings(movie)),
      studios: JSON.stringify(movie.production_companies ?? []),
      production_countries: JSON.stringify(Object.fromEntries((movie.production_countries ?? []).map((c) => [c.iso_3166_1, c.name]))),
      titles: JSON.stringify(titles),
      overviews: JSON.stringify(overviews),
    },
    credits: options.withCredits && movie.credits ? creditRows('Movie', movie.id, movie.credits) : null,
    images: options.withImages ? imageRows('Movie', movie.id, movie.images) : null,
  };
}
