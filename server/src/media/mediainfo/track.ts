/** One track of MediaInfoLib's JSON output: most values are strings, some already numbers (mediainfo.js converts them). */
export type MediaTrack = Record<string, unknown> & { '@type': string };

/** MediaInfoLib's JSON document as mediainfo.js returns it in `object` format. */
export interface MediaInfoDocument {
  media?: { track?: MediaTrack[] } | null;
}

export function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** A number, reading only the first of MediaInfo's ` / `-separated values (e.g. MP4's `"2 / 2"`). */
export function decimal(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const first = text(value)?.split(' / ')[0];
  if (!first) return null;
  const parsed = Number.parseFloat(first);
  return Number.isFinite(parsed) ? parsed : null;
}

export function integer(value: unknown): number | null {
  const parsed = decimal(value);
  return parsed === null ? null : Math.round(parsed);
}

/** MediaInfo's `Yes`/`No` flags; some containers repeat the flag (`"Yes / Yes"`). */
export function flag(value: unknown): boolean | null {
  const first = text(value)?.split(' / ')[0]?.toLowerCase();
  if (first === 'yes') return true;
  if (first === 'no') return false;
  return null;
}
