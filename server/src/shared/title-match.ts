/**
 * Title matching for Series/Search (contract §2.2 Series.SearchResult). A title matches when the query occurs in it
 * (an "exact" match, ranked by where it occurs); with `fuzzy`, otherwise when the two are close by Sørensen–Dice
 * distance over character bigrams. Better matches compare lower: exact first, then earlier index, smaller distance,
 * smaller length difference, then the matched title.
 */

export interface TitleMatch {
  ExactMatch: boolean;
  Index: number;
  Distance: number;
  LengthDifference: number;
  Match: string;
}

/** Lower case, `_` and `-` read as spaces, runs of spaces collapsed. */
const simplify = (text: string) => text.replace(/[_-]/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();

/** Only ASCII letters, digits and single spaces remain (accents dropped, full-width folded). */
const asciiOnly = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** The text's distinct character bigrams as sorted numbers (two UTF-16 units each): small to keep, quick to intersect. */
function bigramCodes(text: string): Int32Array {
  const codes = new Set<number>();
  for (let i = 0; i < text.length - 1; i++) codes.add((text.charCodeAt(i) << 16) | text.charCodeAt(i + 1));
  return Int32Array.from(codes).sort();
}

function sharedCount(left: Int32Array, right: Int32Array): number {
  let shared = 0;
  for (let i = 0, j = 0; i < left.length && j < right.length;) {
    if (left[i] === right[j]) {
      shared++;
      i++;
      j++;
    } else if (left[i]! < right[j]!) i++;
    else j++;
  }
  return shared;
}

/** 1 − Sørensen–Dice similarity of the two texts' bigram sets: 0 for the same bigrams, 1 for none shared. */
export function diceDistance(a: string, b: string): number {
  return a === b ? 0 : diceOfCodes(bigramCodes(a), bigramCodes(b));
}

function diceOfCodes(left: Int32Array, right: Int32Array): number {
  if (!left.length || !right.length) return 1;
  return 1 - (2 * sharedCount(left, right)) / (left.length + right.length);
}

/** A title (or a query) in the forms matching compares, computed once: a search compares every title in the collection. */
export interface SearchText {
  text: string;
  lower: string;
  simple: string;
  ascii: string;
  asciiBigrams: Int32Array;
}

export function searchText(text: string): SearchText {
  const simple = simplify(text);
  const ascii = asciiOnly(simple);
  return { text, lower: text.toLowerCase(), simple, ascii, asciiBigrams: bigramCodes(ascii) };
}

/** How `title` matches the (lower-cased) `query`, or null when it does not. */
export function matchTitle(title: string, query: string, fuzzy: boolean): TitleMatch | null {
  return matchSearchText(searchText(title), searchText(query), fuzzy);
}

/** How the prepared `title` matches the prepared `query`, or null when it does not. */
export function matchSearchText(title: SearchText, query: SearchText, fuzzy: boolean): TitleMatch | null {
  if (!title.text.trim() || !query.text.trim()) return null;
  // Without fuzzy: the query anywhere in the title, any case; with it, in the simplified forms first.
  const [text, pattern] = fuzzy ? [title.simple, query.simple] : [title.lower, query.lower];
  if (fuzzy && (!text || !pattern)) return null;
  const index = text.indexOf(pattern);
  if (index >= 0) {
    const lengths = fuzzy ? [pattern.length, text.length] : [query.text.length, title.text.length];
    return { ExactMatch: true, Index: index, Distance: 0, LengthDifference: Math.abs(lengths[0]! - lengths[1]!), Match: title.text };
  }
  if (!fuzzy) return null;
  if (!title.ascii || !query.ascii) return null;
  const longer = Math.max(title.ascii.length, query.ascii.length);
  const distance = title.ascii === query.ascii ? 0 : diceOfCodes(title.asciiBigrams, query.asciiBigrams);
  // Short titles need a closer match.
  if (longer < 5 && distance > 0.5) return null;
  if (distance >= 0.8) return null;
  return {
    ExactMatch: false,
    Index: 0,
    Distance: distance,
    LengthDifference: Math.abs(title.ascii.length - query.ascii.length),
    Match: title.text,
  };
}

/** Negative when `a` is the better match. */
export function compareMatches(a: TitleMatch, b: TitleMatch): number {
  if (a.ExactMatch !== b.ExactMatch) return a.ExactMatch ? -1 : 1;
  return (
    a.Index - b.Index ||
    a.Distance - b.Distance ||
    a.LengthDifference - b.LengthDifference ||
    (a.Match < b.Match ? -1 : a.Match > b.Match ? 1 : 0)
  );
}

/** The best match among the titles (texts, or prepared with `searchText`), or null. */
export function bestMatch(titles: Iterable<string | SearchText>, query: string | SearchText, fuzzy: boolean): TitleMatch | null {
  const prepared = typeof query === 'string' ? searchText(query) : query;
  let best: TitleMatch | null = null;
  for (const title of titles) {
    const match = matchSearchText(typeof title === 'string' ? searchText(title) : title, prepared, fuzzy);
    if (match && (!best || compareMatches(match, best) < 0)) best = match;
  }
  return best;
}
