import type { ListResult, TmdbEpisodeImages, TmdbYearlySeason } from '@shoko-ts/contract';
import { imageLists, tmdbImageModel, type ImagesService } from '../images/index.js';
import type { StoredText } from './tmdb-snapshot.js';
import { parseJson } from './tmdb.store.js';
import { bestMatch, compareMatches } from '../../shared/title-match.js';

/** Helpers of the local-data TMDB routes: text lists, yearly seasons, days of week, image lists, search and paging. */

export type ImageDeps = Pick<ImagesService, 'model' | 'disabledKeys'>;

/** `language` filter (codes, any case; empty = all). */
export function inLanguages<T extends { Language: string }>(items: T[], languages: string[]): T[] {
  if (!languages.length) return items;
  const wanted = new Set(languages.map((l) => l.toLowerCase()));
  return items.filter((item) => wanted.has(item.Language.toLowerCase()));
}

const SEASON_NAMES = ['Winter', 'Spring', 'Summer', 'Fall'];

/** Every anime season (quarter) from the first to the last date, at most 40. */
export function yearlySeasons(dates: (string | null)[]): TmdbYearlySeason[] {
  const known = dates.filter((d): d is string => !!d).sort();
  if (!known.length) return [];
  const start = new Date(`${known[0].slice(0, 10)}T00:00:00Z`);
  const end = new Date(`${known[known.length - 1].slice(0, 10)}T00:00:00Z`);
  const result: TmdbYearlySeason[] = [];
  let year = start.getUTCFullYear();
  let quarter = Math.floor(start.getUTCMonth() / 3);
  const last = end.getUTCFullYear() * 4 + Math.floor(end.getUTCMonth() / 3);
  while (year * 4 + quarter <= last && result.length < 40) {
    result.push({ Year: year, AnimeSeason: SEASON_NAMES[quarter] });
    quarter++;
    if (quarter === 4) {
      quarter = 0;
      year++;
    }
  }
  return result;
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The distinct week days the dates fall on, sorted by name. */
export function daysOfWeek(dates: (string | null)[]): string[] {
  const days = new Set<string>();
  for (const date of dates) if (date) days.add(DAY_NAMES[new Date(`${date.slice(0, 10)}T00:00:00Z`).getUTCDay()]);
  return [...days].sort();
}

/** Stored `tmdb_images` rows as the Images lists (disabled ones only on request). */
export async function imagesOf(
  images: ImageDeps,
  rows: Parameters<typeof tmdbImageModel>[1][],
  includeDisabled: boolean,
  thumbnails = false,
): Promise<TmdbEpisodeImages> {
  const disabled = await images.disabledKeys();
  return imageLists(
    rows.map((row) => tmdbImageModel(images, row)),
    { disabled, preferred: new Set(), includeDisabled, thumbnails },
  );
}

/** Rows matching `search` (best match first) by any of their titles; all rows when the search is blank. */
export function searchRows<T>(rows: T[], search: string | undefined, fuzzy: boolean, titles: (row: T) => string[]): T[] {
  const query = search?.trim();
  if (!query) return rows;
  return rows
    .map((row) => ({ row, match: bestMatch(titles(row), query, fuzzy) }))
    .filter((hit) => hit.match !== null)
    .sort((a, b) => compareMatches(a.match!, b.match!))
    .map((hit) => hit.row);
}

/** The titles a movie or show is searched by: its main and original title and every stored translation. */
export const searchTitles = (row: { title: string; original_title: string; titles: string }) => [
  ...new Set([row.title, row.original_title, ...parseJson<StoredText[]>(row.titles, []).map((t) => t.value)].filter(Boolean)),
];

/** `a` before `b` by title (ordinal), then id. */
export const byTitle = (a: { title: string; id: number }, b: { title: string; id: number }) =>
  a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id;

/** One page of a list, each item of the page mapped (only the page's items are built). */
export async function pageOf<T, R>(items: T[], page: number, pageSize: number, map: (item: T) => Promise<R>): Promise<ListResult<R>> {
  const slice = pageSize > 0 ? items.slice((page - 1) * pageSize, page * pageSize) : items;
  const list: R[] = [];
  for (const item of slice) list.push(await map(item));
  return { Total: items.length, List: list };
}

/** An IncludeOnlyFilter (`true` = no filter) applied to a flag. */
export function includeOnlyMatches(filter: 'true' | 'false' | 'only', flag: boolean): boolean {
  return filter === 'true' || (filter === 'only') === flag;
}
