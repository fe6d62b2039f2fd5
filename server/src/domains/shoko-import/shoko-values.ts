// Shoko's column values as our tables store them.
import { decodeEntities as decodeAniDBText } from '../../providers/anidb/http/xml-nodes.js';

/** This machine's UTC offset (ms) of each local hour met, by `yyyy-MM-dd HH`: most of a database's times share a few. */
const offsets = new Map<string, number>();

/**
 * Shoko writes DateTime columns as 'yyyy-MM-dd HH:mm:ss[.fffffff]' in the Shoko machine's local time, without a zone;
 * read here in this machine's zone (the usual move is to the same machine or one in the same place). ISO 8601 UTC out.
 */
export function shokoTime(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value);
  // Fixed positions: a few hundred thousand of these are read per import, a regex and a local Date each were slow.
  if (text.length < 19 || text[4] !== '-' || text[7] !== '-' || (text[10] !== ' ' && text[10] !== 'T') || text[13] !== ':') return null;
  const y = Number(text.slice(0, 4));
  const mo = Number(text.slice(5, 7));
  const d = Number(text.slice(8, 10));
  const h = Number(text.slice(11, 13));
  const mi = Number(text.slice(14, 16));
  const s = Number(text.slice(17, 19));
  const fraction = text[19] === '.' ? Number(`0${text.slice(19, 23).replace(/[^\d.]/g, '')}`) : 0;
  if ([y, mo, d, h, mi, s, fraction].some((n) => !Number.isFinite(n)) || y < 1900) return null;
  const hour = text.slice(0, 13);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const local = new Date(y, mo - 1, d, h);
    if (Number.isNaN(local.getTime())) return null;
    offset = local.getTime() - Date.UTC(y, mo - 1, d, h);
    offsets.set(hour, offset);
  }
  const at = Date.UTC(y, mo - 1, d, h, mi, s) + Math.floor(fraction * 1000) + offset;
  return Number.isNaN(at) ? null : new Date(at).toISOString();
}

/** A calendar date column (air dates): the date part as written, no zone arithmetic. */
export function shokoDay(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(value));
  if (!match || Number(match[1]) < 1900) return null;
  return `${match[1]}-${match[2]}-${match[3]}`;
}

/** AniDB's integer dates (episode air dates, file release dates): unix seconds of the day; 0 = unknown. */
export function unixDay(value: unknown): string | null {
  const seconds = Number(value ?? 0);
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

export const flag = (value: unknown): number => (Number(value ?? 0) ? 1 : 0);

export const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

export const nullableText = (value: unknown): string | null => {
  const t = text(value).trim();
  return t ? t : null;
};

export const upperHex = (value: unknown): string => text(value).trim().toUpperCase();

/** Shoko's list columns joined with `|||` (TMDB genres, keywords). */
export const tripleBarList = (value: unknown): string[] =>
  text(value)
    .split('|||')
    .map((s) => s.trim())
    .filter(Boolean);

/** A .NET TimeSpan text ('hh:mm:ss' or 'd.hh:mm:ss') as whole minutes; null when absent. */
export function timeSpanMinutes(value: unknown): number | null {
  const match = /^(?:(\d+)\.)?(\d+):(\d+):(\d+)/.exec(text(value));
  if (!match) return null;
  const [, days = '0', h, m, s] = match;
  return Math.round((Number(days) * 86_400 + Number(h) * 3_600 + Number(m) * 60 + Number(s)) / 60);
}

/** True when a path was written on Windows (`D:\…`, `\\server\share`): its separators are backslashes. */
export const isWindowsPath = (value: string): boolean => /^[a-zA-Z]:[\\/]/.test(value) || value.startsWith('\\\\');

/**
 * Shoko keeps the text of AniDB's XML decoded once, but AniDB escapes descriptions twice (`&amp;quot;`): decoded the
 * rest of the way, as our own AniDB download does, an imported description reads like a downloaded one.
 */
export const anidbProse = (value: unknown) => decodeAniDBText(text(value));
export const nullableProse = (value: unknown) => {
  const stored = nullableText(value);
  return stored === null ? null : decodeAniDBText(stored);
};
