/** A list query parameter: repeated keys and comma-separated values are the same thing (contract files.md §0.3). */
export const listItems = (raw: string | string[] | undefined): string[] =>
  (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((item) => item.split(','))
    .map((item) => item.trim())
    .filter(Boolean);

/** The same items in lower case, for parameters matched without regard to case. */
export const listOf = (raw: string | string[] | undefined) => listItems(raw).map((item) => item.toLowerCase());

/** `includeDataFrom`: which external sources' data the series models carry. */
export const dataFrom = (raw: string | string[] | undefined) => {
  const list = listOf(raw);
  return { includeAniDB: list.includes('anidb'), includeTMDB: list.includes('tmdb') };
};
