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

function bigrams(text: string): Set<string> {
  const result = new Set<string>();
  for (let i = 0; i < text.length - 1; i++) result.add(text.slice(i, i + 2));
  return result;
}

/** 1 − Sørensen–Dice similarity of the two texts' bigram sets: 0 for the same bigrams, 1 for none shared. */
export function diceDistance(a: string, b: string): number {
  if (a === b) return 0;
  const left = bigrams(a);
  const right = bigrams(b);
  if (!left.size || !right.size) return 1;
  let shared = 0;
  for (const bigram of left) if (right.has(bigram)) shared++;
  return 1 - (2 * shared) / (left.size + right.size);
}

/** How `title` matches the (lower-cased) `query`, or null when it does not. */
export function matchTitle(title: string, query: string, fuzzy: boolean): TitleMatch | null {
  if (!title.trim() || !query.trim()) return null;
  if (!fuzzy) {
    const index = title.toLowerCase().indexOf(query.toLowerCase());
    if (index < 0) return null;
    return { ExactMatch: true, Index: index, Distance: 0, LengthDifference: Math.abs(query.length - title.length), Match: title };
  }
  const text = simplify(title);
  const pattern = simplify(query);
  if (!text || !pattern) return null;
  const index = text.indexOf(pattern);
  if (index >= 0)
    return { ExactMatch: true, Index: index, Distance: 0, LengthDifference: Math.abs(pattern.length - text.length), Match: title };
  const asciiText = asciiOnly(text);
  const asciiPattern = asciiOnly(pattern);
  if (!asciiText || !asciiPattern) return null;
  const [longer, shorter] = asciiText.length >= asciiPattern.length ? [asciiText, asciiPattern] : [asciiPattern, asciiText];
  const distance = diceDistance(longer, shorter);
  // Short titles need a closer match.
  if (longer.length < 5 && distance > 0.5) return null;
  if (distance >= 0.8) return null;
  return { ExactMatch: false, Index: 0, Distance: distance, LengthDifference: longer.length - shorter.length, Match: title };
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

/** The best match among the titles, or null. */
export function bestMatch(titles: Iterable<string>, query: string, fuzzy: boolean): TitleMatch | null {
  let best: TitleMatch | null = null;
  for (const title of titles) {
    const match = matchTitle(title, query, fuzzy);
    if (match && (!best || compareMatches(match, best) < 0)) best = match;
  }
  return best;
}
