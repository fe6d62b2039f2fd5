import dayjs from 'dayjs';
import type { LiveCondition } from '@/components/collection/filterConditions';

const TYPE_NAMES: Record<string, string> = { TV: 'TV Series', TVSpecial: 'TV Special', MusicVideo: 'Music Video' };

/** An AniDB anime type for people ('TV' → 'TV Series'). */
export const animeTypeName = (type: string | undefined) => (type ? (TYPE_NAMES[type] ?? type) : 'Unknown');

/** SPEC §4: no air date → Unknown; no end date or one in the future → Currently Airing; otherwise Finished. */
export function airingStatus(
  airDate: string | null | undefined,
  endDate: string | null | undefined,
  today = dayjs().format('YYYY-MM-DD'),
): string {
  if (!airDate) return 'Unknown';
  if (!endDate || endDate.slice(0, 10) > today) return 'Currently Airing';
  return 'Finished';
}

export const formatDate = (date: string | null | undefined) => (date ? dayjs(date.slice(0, 10)).format('MMM D, YYYY') : null);

/** 'Apr 6, 2021 - Apr 20, 2021', one date for single-day releases, 'Unknown' without a start. */
export function airDateRange(airDate: string | null | undefined, endDate: string | null | undefined): string {
  const start = formatDate(airDate);
  if (!start) return 'Unknown';
  const end = formatDate(endDate);
  return !end || end === start ? start : `${start} - ${end}`;
}

/** Whole minutes of a .NET TimeSpan text (`[d.]hh:mm:ss[.f]`), or null. */
export function timeSpanMinutes(span: string | null | undefined): number | null {
  const match = span?.match(/^(?:(\d+)\.)?(\d{2}):(\d{2}):(\d{2})/);
  if (!match) return null;
  const [, days = '0', hours, minutes, seconds] = match;
  return Math.round(Number(days) * 1440 + Number(hours) * 60 + Number(minutes) + Number(seconds) / 60);
}

/** The live-filter condition for 'Spring 2021' (a series' first air season). */
export function seasonCondition(season: string): LiveCondition | null {
  const match = season.match(/^(Winter|Spring|Summer|Fall) (\d{4})$/);
  if (!match) return null;
  return { expression: 'InSeason', name: 'In Season', values: [`${match[2]}|${match[1]}`], exclude: false, matchMode: 'Or' };
}

const EPISODE_PREFIX: Record<string, string> = {
  Episode: 'Episode',
  Special: 'Special',
  Other: 'Other',
  Credits: 'Credit',
  Trailer: 'Trailer',
  Parody: 'Parody',
  Unknown: 'Unknown',
};

/** 'Episode 3', 'Special 1', … */
export const episodeLabel = (type: string | undefined, number: number | undefined) =>
  `${EPISODE_PREFIX[type ?? 'Unknown'] ?? type} ${number ?? '?'}`;

/** A user rating for people: '7.5' with ' (Temp)' for temporary votes. */
export function ratingText(rating: { Value: number; Type: string | null } | null | undefined): string | null {
  if (!rating || rating.Value <= 0) return null;
  const value = Number.isInteger(rating.Value) ? String(rating.Value) : rating.Value.toFixed(1);
  return rating.Type === 'Temporary' ? `${value} (Temp)` : value;
}

/** AniDB's `http://anidb.net/ch123 [Name]` links in descriptions, shown as their names. */
const ANIDB_LINK = /https?:\/\/anidb\.net\/[a-z]{1,2}\d+ \[([^\]]+)\]/g;
/** AniDB's footnote lines: `Source: …`, `Note: …`, `Summary: …` and `* Based on …`-style remarks. */
const FOOTNOTE_LINE = /^\s*(source|note|summary)\s*:.*$|^\s*\*.*$/gim;

/**
 * An AniDB description as the collection setting `anidb.filterDescription` asks: filtered, its links become their names
 * and its source notes and footnotes are dropped; unfiltered, the text as AniDB wrote it.
 */
export function anidbDescription(text: string, filter: boolean): string {
  if (!filter) return text;
  return text
    .replace(ANIDB_LINK, '$1')
    .replace(FOOTNOTE_LINE, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
