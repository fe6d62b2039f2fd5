import { Type, type Static } from '@sinclair/typebox';

/**
 * An optional id that may be JSON `null`. One schema with both types (not a union), so the server's type coercion
 * cannot turn an out-of-range 0 into null: 0 stays a number and fails `minimum`.
 */
const NullableId = (minimum: number) => Type.Optional(Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum }));

/**
 * `POST Tmdb/Export` and `POST Tmdb/Import`: the AniDB ↔ TMDB cross-references as a CSV file with up to three
 * sections, each introduced by its header line. Lines starting with `#` are comments and blank lines are ignored.
 */
export const TMDB_XREF_CSV_HEADERS = {
  Movie: 'AnidbAnimeId,AnidbEpisodeId,TmdbMovieId,Rating',
  Show: 'AnidbAnimeId,TmdbShowId,Rating',
  Episode: 'AnidbAnimeId,AnidbEpisodeId,TmdbShowId,TmdbEpisodeId,Rating',
} as const;

/** The file name `Tmdb/Export` offers its CSV under (Content-Disposition attachment). */
export const TMDB_XREF_CSV_FILE_NAME = 'anidb_tmdb_xrefs.csv';

/** The sections of the file, with their flag values (a SectionSet entry may be the name in any case or the number). */
export const TMDB_XREF_SECTIONS = { Movie: 1, Show: 2, Episode: 4 } as const;
export type TmdbXrefSection = keyof typeof TMDB_XREF_SECTIONS;

/**
 * An IncludeOnlyFilter in a JSON body: `true`, `false` or `only` in any case, or its number 0 (false), 1 (true),
 * 2 (only). (The server's coercion may hand a number over as its digits.)
 */
const IncludeOnlyValue = Type.Union([Type.String(), Type.Integer()]);

/** `TmdbExportBody`: which sections, which cross-references, and whether to add human-readable comments. */
export const TmdbExportBody = Type.Object({
  AnidbAnimeID: NullableId(1),
  AnidbEpisodeID: NullableId(1),
  TmdbShowID: NullableId(1),
  TmdbEpisodeID: NullableId(0),
  TmdbMovieID: NullableId(1),
  /** `false` = only links the user verified, `only` = only automatic links; default `true` (both). */
  Automatic: Type.Optional(IncludeOnlyValue),
  /** Show and episode sections: `false` = only entries without a TMDB episode, `only` = only those with one. */
  WithEpisodes: Type.Optional(IncludeOnlyValue),
  IncludeComments: Type.Optional(Type.Boolean()),
  /** `Movie`, `Show`, `Episode` (or 1, 2, 4, also as digits). Left out or null: every section (see the export service). */
  SectionSet: Type.Optional(Type.Union([Type.Array(Type.Union([Type.String(), Type.Integer()])), Type.Null()])),
});
export type TmdbExportBody = Static<typeof TmdbExportBody>;

/** The export body may be left out or sent as JSON `null` (all defaults). */
export const NullableTmdbExportBody = Type.Union([TmdbExportBody, Type.Null()]);

/** `Tmdb/Import` query; the CSV comes as the multipart form field `file`. */
export const TmdbImportQuery = Type.Object({
  /** Drop the stored links of every AniDB episode the file lists that the file does not list. */
  removeExisting: Type.Boolean({ default: true }),
  /** Queue the download of linked TMDB movies not stored yet (for anime that have a series). */
  addMissingMovies: Type.Boolean({ default: true }),
  /** Queue the download of linked TMDB shows not stored yet, or missing a linked episode (for anime with a series). */
  addMissingShows: Type.Boolean({ default: true }),
});
export type TmdbImportQuery = Static<typeof TmdbImportQuery>;
