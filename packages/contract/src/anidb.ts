import { Type, type Static } from '@sinclair/typebox';
import { IncludeOnlyParam } from './common.js';
import { CollectionImage, Rating } from './collection.js';

/*
 * AniDB anime as the add-series and manual-link screens see them (contract collection.md §2.5, `Series/AniDB/…`),
 * and the request schemas of those routes and of series removal.
 */

/** A title of an AniDB anime (the schema form of collection.ts' AnidbTitle, with Source fixed to AniDB). */
export const AnidbHitTitle = Type.Object({
  Name: Type.String(),
  Language: Type.String(),
  Type: Type.String(),
  Default: Type.Boolean(),
  Preferred: Type.Boolean(),
  Source: Type.Literal('AniDB'),
});
export type AnidbHitTitle = Static<typeof AnidbHitTitle>;

/**
 * An AniDB search hit or stored AniDB anime (`Series.AniDB`). Entries known only from the titles dump have Type
 * "Unknown" and no Description or Rating; `Titles` is there when asked for.
 */
export const AnidbAnimeHit = Type.Object({
  ID: Type.Integer(),
  ShokoID: Type.Union([Type.Integer(), Type.Null()]),
  Type: Type.String(),
  Title: Type.String(),
  Titles: Type.Optional(Type.Array(AnidbHitTitle)),
  Description: Type.Optional(Type.String()),
  AirDate: Type.Union([Type.String(), Type.Null()]),
  EndDate: Type.Union([Type.String(), Type.Null()]),
  Restricted: Type.Boolean(),
  Poster: CollectionImage,
  EpisodeCount: Type.Union([Type.Integer(), Type.Null()]),
  Rating: Type.Optional(Rating),
});
export type AnidbAnimeHit = Static<typeof AnidbAnimeHit>;

/** `GET Series/AniDB/Search` and its path form. */
export const AnidbSearchQuery = Type.Object({
  query: Type.Optional(Type.String()),
  fuzzy: Type.Boolean({ default: true }),
  local: Type.Optional(Type.Boolean()),
  includeTitles: Type.Boolean({ default: true }),
  searchById: Type.Boolean({ default: true }),
  pageSize: Type.Integer({ minimum: 0, maximum: 100, default: 50 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
});
export type AnidbSearchQuery = Static<typeof AnidbSearchQuery>;

/** The obsolete `GET Series/AniDB/Search/{query}`. */
export const AnidbSearchPathParams = Type.Object({ query: Type.String() });
export type AnidbSearchPathParams = Static<typeof AnidbSearchPathParams>;

/** An AniDB anime in the path (`Series/AniDB/{anidbID}`). */
export const AnidbAnimeParams = Type.Object({ anidbID: Type.Integer({ minimum: 1 }) });
export type AnidbAnimeParams = Static<typeof AnidbAnimeParams>;

/** `POST Series/AniDB/{anidbID}/Refresh`: 0 is accepted (and answered false). */
export const AnidbRefreshParams = Type.Object({ anidbID: Type.Integer({ minimum: 0 }) });
export type AnidbRefreshParams = Static<typeof AnidbRefreshParams>;

/** `POST Series/AniDB/{anidbID}/Refresh` and `Series/{seriesID}/AniDB/Refresh`. */
export const AnidbRefreshQuery = Type.Object({
  force: Type.Boolean({ default: false }),
  downloadRelations: Type.Boolean({ default: false }),
  createSeriesEntry: Type.Optional(Type.Boolean()),
  immediate: Type.Boolean({ default: false }),
  cacheOnly: Type.Boolean({ default: false }),
  skipTmdbUpdate: Type.Boolean({ default: false }),
});
export type AnidbRefreshQuery = Static<typeof AnidbRefreshQuery>;

/** `GET Series/AniDB/{anidbID}/Episode`. */
export const AnidbEpisodeListQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: 20 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  includeMissing: IncludeOnlyParam,
  includeUnaired: IncludeOnlyParam,
  includeHidden: IncludeOnlyParam,
  includeWatched: IncludeOnlyParam,
  type: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  search: Type.Optional(Type.String()),
  fuzzy: Type.Boolean({ default: true }),
});
export type AnidbEpisodeListQuery = Static<typeof AnidbEpisodeListQuery>;

/** `DELETE Series/{seriesID}`. */
export const DeleteSeriesQuery = Type.Object({
  deleteFiles: Type.Boolean({ default: false }),
  completelyRemove: Type.Boolean({ default: false }),
});
export type DeleteSeriesQuery = Static<typeof DeleteSeriesQuery>;
