import type { IncludeOnlyFilter } from '@shoko-ts/contract';
import { validationError } from './problem.js';

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

/** An `include…` parameter: `true`, `false` or `only` in any case, the fallback when absent. */
export const includeOnly = (value: string | undefined, fallback: IncludeOnlyFilter, field: string): IncludeOnlyFilter => {
  if (value === undefined || value === '') return fallback;
  const lower = value.toLowerCase();
  if (lower === 'true' || lower === 'false' || lower === 'only') return lower;
  throw validationError(field, `The value '${value}' is not valid for ${field}.`);
};
