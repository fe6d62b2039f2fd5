import { validationError } from '../../http/problem.js';

/** TagFilter.Filter bits (contract §1 Tag). */
export const TagFilterBits = {
  None: 0,
  AnidbInternal: 1,
  ArtStyle: 2,
  Source: 4,
  Misc: 8,
  Plot: 16,
  Setting: 32,
  Programming: 64,
  Genre: 128,
  User: 2 ** 30,
  Invert: 2 ** 31,
} as const;

/**
 * Category of an AniDB tag from the names of its ancestors (root first). AniDB's tag tree keeps its bookkeeping tags under
 * "maintenance tags" and the "TO BE MOVED" roots; the other roots map onto the filter categories by name.
 */
export function tagCategory(ancestry: string[]): number {
  const names = ancestry.map((n) => n.toLowerCase());
  const has = (...needles: string[]) => names.some((n) => needles.some((x) => n === x || n.startsWith(`${x} `)));
  if (
    has(
      'maintenance tags',
      'to be moved to character',
      'to be moved to episode',
      'unsorted',
      'old animetags',
      'cast missing',
      'needs description',
    )
  )
    return TagFilterBits.AnidbInternal;
  if (has('source material', 'original work')) return TagFilterBits.Source;
  if (has('setting', 'place', 'time')) return TagFilterBits.Setting;
  if (has('art', 'animation', 'technical aspects', 'art style')) return TagFilterBits.ArtStyle;
  if (has('target audience', 'broadcast', 'production', 'media')) return TagFilterBits.Programming;
  if (has('themes', 'storytelling', 'plot', 'tropes')) return TagFilterBits.Plot;
  if (has('genre', 'elements')) return TagFilterBits.Genre;
  return TagFilterBits.Misc;
}

/** Keeps a tag of `category` under `filter` (set bits exclude categories; Invert keeps only the set categories). */
export function keepCategory(filter: number, category: number): boolean {
  const invert = filter >= TagFilterBits.Invert;
  const bits = filter % TagFilterBits.User;
  const hit = (bits & category) !== 0;
  return invert ? hit : !hit;
}
/** User tags are kept when User and Invert are both set or both unset. */
export function keepUserTags(filter: number): boolean {
  const invert = filter >= TagFilterBits.Invert;
  const user = Math.floor(filter / TagFilterBits.User) % 2 === 1;
  return invert === user;
}

/** TagFilter.Filter from a number or a comma list of flag names (the `filter` query parameter of Series/{id}/Tags). */
export function parseTagFilter(raw: string | string[] | undefined): number {
  const items = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  let value = 0;
  for (const item of items) {
    if (/^\d+$/.test(item)) {
      value += Number(item);
      continue;
    }
    const key = Object.keys(TagFilterBits).find((k) => k.toLowerCase() === item.toLowerCase()) as keyof typeof TagFilterBits | undefined;
    if (!key) throw validationError('filter', `The value '${item}' is not valid for filter.`);
    value += TagFilterBits[key];
  }
  return value;
}
