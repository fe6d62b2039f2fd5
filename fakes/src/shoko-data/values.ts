import { createHash } from 'node:crypto';
import zlib from 'node:zlib';

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** How Shoko's SQLite stores a DateTime: the machine's local time as text, optionally with seven fraction digits. */
export function shokoDateTime(date: Date, withFraction = false): string {
  const text =
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  if (!withFraction) return text;
  // .NET ticks are 100 ns; JavaScript has milliseconds, so the last four digits are made up from the date.
  const ticks = date.getMilliseconds() * 10_000 + (Math.floor(date.getTime() / 1000) % 9973);
  return `${text}.${pad(ticks, 7)}`;
}

export const shokoDateTimeOrNull = (date: Date | null, withFraction = false): string | null =>
  date === null ? null : shokoDateTime(date, withFraction);

/** A calendar date (yyyy-MM-dd) as Shoko stores date-only values: midnight, no fraction. */
export const shokoDate = (day: string | null): string | null => (day === null ? null : `${day} 00:00:00`);

/** AniDB dates Shoko keeps as whole seconds since 1970, the day read as UTC midnight; 0 when unknown. */
export const unixSecondsOfDay = (day: string | null): number => (day === null ? 0 : Date.parse(`${day}T00:00:00Z`) / 1000);

/** A local wall-clock moment (month 1–12), as the Shoko machine would have recorded it. */
export const localMoment = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0): Date =>
  new Date(year, month - 1, day, hour, minute, second);

/** JMMUser.Password: upper-case hex SHA-512 of the UTF-8 password, '' for none. */
export const shokoPasswordHash = (password: string): string =>
  password === '' ? '' : createHash('sha512').update(password, 'utf8').digest('hex').toUpperCase();

/** A GUID-shaped API key derived from `seed`, lower-case like .NET's Guid.ToString(). */
export function guidOf(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export interface FileHashes {
  ed2k: string;
  crc32: string;
  md5: string;
  sha1: string;
}

/** Hash-shaped values for files that are never written (large folders): upper-case hex of the right lengths. */
export function inventedHashes(seed: string): FileHashes {
  const digest = createHash('sha1').update(seed).digest();
  return {
    ed2k: createHash('md5').update(digest).digest('hex').toUpperCase(),
    crc32: zlib.crc32(digest).toString(16).padStart(8, '0').toUpperCase(),
    md5: createHash('md5').update(seed).digest('hex').toUpperCase(),
    sha1: digest.toString('hex').toUpperCase(),
  };
}

/** A deterministic pseudo-random generator (mulberry32), so every run writes the same large folder. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
