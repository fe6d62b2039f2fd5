/**
 * Title comparison for matching AniDB entries to TMDB ones. Titles from the two sites differ in case, punctuation,
 * accents and full-width forms far more often than in words, so both sides are normalised first and then compared
 * with the Sørensen–Dice coefficient over character bigrams (robust to small edits and word order changes).
 */

/**
 * Lower case, compatibility-folded (full-width → ASCII), accents dropped, `&` read as "and", and every run of
 * punctuation or spacing collapsed to one space.
 */
export function normaliseTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function bigramCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const bigram = text.slice(i, i + 2);
    counts.set(bigram, (counts.get(bigram) ?? 0) + 1);
  }
  return counts;
}

/**
 * Sørensen–Dice over character bigrams of the normalised titles: 2·|shared| / (|a| + |b|), from 0 (nothing shared)
 * to 1 (identical). Spaces are dropped first so "Sky Ward" and "Skyward" compare as equal. Bigrams are counted as a
 * multiset, so repeated letters are not over-credited.
 */
export function titleSimilarity(a: string, b: string): number {
  const left = normaliseTitle(a).replace(/ /g, '');
  const right = normaliseTitle(b).replace(/ /g, '');
  if (left.length === 0 || right.length === 0) return 0;
  if (left === right) return 1;
  // One-character titles (common in CJK) have no bigram; only equality counts for them.
  if (left.length < 2 || right.length < 2) return 0;
  const leftCounts = bigramCounts(left);
  const rightCounts = bigramCounts(right);
  let shared = 0;
  for (const [bigram, count] of leftCounts) shared += Math.min(count, rightCounts.get(bigram) ?? 0);
  return (2 * shared) / (left.length - 1 + (right.length - 1));
}

/** The best similarity between any title of one side and any title of the other. */
export function bestTitleSimilarity(left: readonly string[], right: readonly string[]): number {
  let best = 0;
  for (const a of left) for (const b of right) best = Math.max(best, titleSimilarity(a, b));
  return best;
}
