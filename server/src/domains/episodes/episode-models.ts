import type { AnidbEpisode, Episode, IncludeOnlyFilter } from '@shoko-ts/contract';
import type { AniDBEpisodesTable } from '../../db/schema.js';

/** Episode rows as the episodes store reads them, the §5.5 filtering and ordering, and the wire models built from them. */

/** Raw episode order of the contract: Episode, Credits, Special, Trailer, Parody, Other. */
/** The raw type order of the contract (anything else after): migration 0043's `episodes.sort_type_rank` is index + 1. */
export const TYPE_ORDER = ['Episode', 'Credits', 'Special', 'Trailer', 'Parody', 'Other'];

/** A Shoko episode with its AniDB episode's columns, the viewer's watch state and vote, and its file count. */
export interface EpisodeRow extends Omit<AniDBEpisodesTable, 'id'> {
  id: number;
  series_id: number;
  anidb_episode_id: number;
  is_hidden: number;
  title_override: string | null;
  created_at: string;
  updated_at: string;
  watched_at: string | null;
  watch_count: number | null;
  user_rating: number | null;
  files: number;
}

export interface EpisodeFilter {
  includeMissing: IncludeOnlyFilter;
  includeUnaired: IncludeOnlyFilter;
  includeHidden: IncludeOnlyFilter;
  includeWatched: IncludeOnlyFilter;
  includeVoted: IncludeOnlyFilter;
  types: string[];
  search?: string;
}

const keep = (filter: IncludeOnlyFilter, matches: boolean) => (filter === 'only' ? matches : filter === 'false' ? !matches : true);
/** A stored time already in the form toISOString writes (year, month, day, time; the day checked below). */
const CANONICAL_ISO = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const daysInMonth = (year: number, month: number) =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
/**
 * A long series' list converts thousands of stored times: one already in the answer's form is taken as it is (a day
 * past the month's end, which parsing rolls over into the next month, goes through the parser).
 */
const iso = (text: string) => {
  const parts = typeof text === 'string' ? CANONICAL_ISO.exec(text) : null;
  return parts && Number(parts[3]) <= daysInMonth(Number(parts[1]), Number(parts[2])) ? text : new Date(text).toISOString();
};
export const timeSpan = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  const days = Math.floor(s / 86400);
  const text = `${pad(Math.floor((s % 86400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return days ? `${days}.${text}` : text;
};
const normalise = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

type StoredTitle = { language: string; value: string };
const parseTitles = (text: string | null): StoredTitle[] => {
  try {
    return text ? (JSON.parse(text) as StoredTitle[]) : [];
  } catch {
    return [];
  }
};
/** English title, else (unless `romaji` is false) romaji, else the first one. */
const shownTitle = (titles: StoredTitle[], number: number, romaji = true) =>
  titles.find((t) => t.language === 'en')?.value ??
  (romaji ? titles.find((t) => t.language === 'x-jat')?.value : undefined) ??
  titles[0]?.value ??
  `Episode ${number}`;

/** An `anidb_episodes` row, as every AniDB episode model is built from. */
export interface AnidbEpisodeRecord {
  id: number;
  anime_id: number;
  type: string;
  number: number;
  air_date: string | null;
  titles: string;
  description: string | null;
  rating: number | null;
  votes: number | null;
}

/**
 * §2.5 AnidbEpisode (`Episode.AniDB`, the FileSummary's missing episodes, `Series/AniDB/{id}/Episode`): the one
 * mapping of an `anidb_episodes` row to the wire model. `romajiTitle: false` keeps the AniDB episode list's title
 * choice (English, else the first title) without the romaji step the Shoko episode views use.
 */
export function anidbEpisodeModel(row: AnidbEpisodeRecord, options: { romajiTitle?: boolean } = {}): AnidbEpisode {
  const titles = parseTitles(row.titles);
  const shown = shownTitle(titles, row.number, options.romajiTitle ?? true);
  return {
    ID: row.id,
    AnimeID: row.anime_id,
    Type: row.type,
    EpisodeNumber: row.number,
    AirDate: row.air_date,
    Title: shown,
    Titles: titles.map((t) => ({
      Name: t.value,
      Language: t.language,
      Type: 'None',
      Default: false,
      Preferred: t.value === shown,
      Source: 'AniDB',
    })),
    Description: row.description ?? '',
    Rating: { Value: (row.rating ?? 0) / 100, MaxValue: 10, Source: 'AniDB', Votes: row.votes ?? 0, Type: null },
  };
}

function compare(a: EpisodeRow, b: EpisodeRow) {
  const rank = (t: string) => (TYPE_ORDER.indexOf(t) === -1 ? TYPE_ORDER.length : TYPE_ORDER.indexOf(t));
  return rank(a.type) - rank(b.type) || a.number - b.number || a.id - b.id;
}

/** Applies the §5.5 filters and ordering to a series' episode rows. */
export function selectEpisodes(rows: EpisodeRow[], filter: EpisodeFilter, today = new Date().toISOString().slice(0, 10)): EpisodeRow[] {
  const types = filter.types.map((t) => t.toLowerCase());
  let list = rows.filter((row) => {
    if (types.length && !types.includes(row.type.toLowerCase())) return false;
    const hasFiles = row.files > 0;
    const aired = !!row.air_date && row.air_date.slice(0, 10) <= today;
    return (
      keep(filter.includeHidden, row.is_hidden === 1) &&
      keep(filter.includeMissing, !hasFiles && aired) &&
      keep(filter.includeUnaired, !hasFiles && !aired) &&
      keep(filter.includeWatched, !!row.watched_at) &&
      keep(filter.includeVoted, row.user_rating !== null)
    );
  });
  const needle = filter.search ? normalise(filter.search) : '';
  if (needle) {
    const score = (row: EpisodeRow) => {
      const names = [row.title_override ?? '', ...parseTitles(row.titles).map((t) => t.value)].map(normalise).filter(Boolean);
      let best = 0;
      for (const name of names) {
        if (name === needle) best = Math.max(best, 3);
        else if (name.startsWith(needle)) best = Math.max(best, 2);
        else if (name.includes(needle)) best = Math.max(best, 1);
      }
      return best;
    };
    list = list
      .map((row) => ({ row, s: score(row) }))
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s || compare(a.row, b.row))
      .map((x) => x.row);
  } else {
    list.sort(compare);
  }
  return list;
}

/** §2.4 Episode models of the rows. */
export function episodeModels(rows: EpisodeRow[], options: { includeAniDB?: boolean; includeTMDB?: boolean } = {}): Episode[] {
  return rows.map((row) => {
    const shown = shownTitle(parseTitles(row.titles), row.number);
    const episode: Episode = {
      IDs: {
        ID: row.id,
        ParentSeries: row.series_id,
        AniDB: row.anidb_episode_id,
        TvDB: [],
        IMDB: [],
        TMDB: { Episode: [], Movie: [], Show: [] },
      },
      Name: row.title_override ?? shown,
      Size: row.files,
      HasCustomName: row.title_override !== null,
      Description: row.description ?? '',
      Images: { Posters: [], Backdrops: [], Banners: [], Logos: [], Thumbnails: [] },
      Duration: timeSpan(row.length_seconds ?? 0),
      ResumePosition: null,
      WatchCount: row.watch_count ?? 0,
      IsHidden: row.is_hidden === 1,
      UserRating: row.user_rating === null ? null : { Value: row.user_rating, MaxValue: 10, Source: 'User', Votes: 1, Type: 'Episode' },
      Watched: row.watched_at ? iso(row.watched_at) : null,
      Created: iso(row.created_at),
      Updated: iso(row.updated_at),
    };
    if (options.includeAniDB)
      episode.AniDB = anidbEpisodeModel({
        id: row.anidb_episode_id,
        anime_id: row.anime_id,
        type: row.type,
        number: row.number,
        air_date: row.air_date,
        titles: row.titles,
        description: row.description,
        rating: row.rating,
        votes: row.votes,
      });
    if (options.includeTMDB) episode.TMDB = { Episodes: [], Movies: [] };
    return episode;
  });
}
