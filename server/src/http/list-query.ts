/** A list query parameter (repeated keys and/or comma-separated values) as lower-case items. */
export const listOf = (raw: string | string[] | undefined) =>
  (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
    .flatMap((item) => item.split(','))
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);

/** `includeDataFrom`: which external sources' data the series models carry. */
export const dataFrom = (raw: string | string[] | undefined) => {
  const list = listOf(raw);
  return { includeAniDB: list.includes('anidb'), includeTMDB: list.includes('tmdb') };
};
