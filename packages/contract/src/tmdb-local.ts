import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { IncludeOnlyParam, ListParam } from './common.js';
import { AlternateOrderingType, TmdbIncludeQuery, TmdbOverview, TmdbTitle } from './tmdb.js';
import { CollectionImage, Images } from './collection.js';

/**
 * Request schemas and models of the local-data TMDB routes (Tmdb/Movie, Tmdb/Show, Tmdb/Season, Tmdb/Episode
 * and their sub-resources) that read the TMDB data this server has stored.
 */

const Optional = <T extends TSchema>(schema: T) => Type.Optional(schema);
const pageQuery = (pageSize: number, maximum = 1000) => ({
  pageSize: Type.Integer({ minimum: 0, maximum, default: pageSize }),
  page: Type.Integer({ minimum: 1, default: 1 }),
});

/** A year and one of the four anime seasons (Winter, Spring, Summer, Fall). */
export const TmdbYearlySeason = Type.Object({ Year: Type.Integer(), AnimeSeason: Type.String() });
export type TmdbYearlySeason = Static<typeof TmdbYearlySeason>;

/** An episode's images: the usual lists plus its thumbnails (stills). */
export const TmdbEpisodeImages = Type.Object({ ...Images.properties, Thumbnails: Type.Optional(Type.Array(CollectionImage)) });
export type TmdbEpisodeImages = Static<typeof TmdbEpisodeImages>;

/** GET Tmdb/Movie: the stored movies, searched by title (fuzzy by default) and filtered by the restricted / video flags. */
export const TmdbMovieListQuery = Type.Object({
  search: Optional(Type.String()),
  fuzzy: Type.Boolean({ default: true }),
  ...TmdbIncludeQuery.properties,
  restricted: IncludeOnlyParam,
  video: IncludeOnlyParam,
  ...pageQuery(50),
});
export type TmdbMovieListQuery = Static<typeof TmdbMovieListQuery>;

/** GET Tmdb/Show. */
export const TmdbShowListQuery = Type.Object({
  search: Optional(Type.String()),
  fuzzy: Type.Boolean({ default: true }),
  ...TmdbIncludeQuery.properties,
  restricted: IncludeOnlyParam,
  ...pageQuery(50),
});
export type TmdbShowListQuery = Static<typeof TmdbShowListQuery>;

/** …/Titles, …/Overviews, …/ContentRatings. */
export const TmdbLanguageQuery = Type.Object({ language: ListParam });
export type TmdbLanguageQuery = Static<typeof TmdbLanguageQuery>;

/** …/Images. */
export const TmdbImagesQuery = Type.Object({
  includeDisabled: Type.Boolean({ default: false }),
  includeUndesired: Type.Boolean({ default: false }),
  language: ListParam,
});
export type TmdbImagesQuery = Static<typeof TmdbImagesQuery>;

/** Show/{id}/Cast|Crew and the show reads that take an ordering. */
export const TmdbOrderingIncludeQuery = Type.Object({ ...TmdbIncludeQuery.properties, alternateOrderingID: Optional(Type.String()) });
export type TmdbOrderingIncludeQuery = Static<typeof TmdbOrderingIncludeQuery>;

/** Tmdb/Show/{id}/Season. */
export const TmdbShowSeasonsQuery = Type.Object({
  ...TmdbIncludeQuery.properties,
  alternateOrderingID: Optional(Type.String()),
  ...pageQuery(25, 100),
});
export type TmdbShowSeasonsQuery = Static<typeof TmdbShowSeasonsQuery>;

/** Tmdb/Season/{id}/Episode. */
export const TmdbSeasonEpisodesQuery = Type.Object({
  ...TmdbIncludeQuery.properties,
  includeHidden: IncludeOnlyParam,
  ...pageQuery(100),
});
export type TmdbSeasonEpisodesQuery = Static<typeof TmdbSeasonEpisodesQuery>;

/** A page of cross-references (Show/{id}/Episode/CrossReferences[/EpisodeGroups]). */
export const TmdbPageQuery = Type.Object(pageQuery(100));
export type TmdbPageQuery = Static<typeof TmdbPageQuery>;

/** A season id: a TMDB season number id, or the 24-hex id of an alternate ordering's season. */
export const TmdbSeasonParams = Type.Object({ seasonID: Type.String({ pattern: '^(?:[0-9]{1,23}|[a-f0-9]{24})$' }) });
export type TmdbSeasonParams = Static<typeof TmdbSeasonParams>;

export const TmdbEpisodeParams = Type.Object({ episodeID: Type.Integer({ minimum: 1 }) });
export type TmdbEpisodeParams = Static<typeof TmdbEpisodeParams>;

export const TmdbCollectionParams = Type.Object({ collectionID: Type.Integer({ minimum: 1 }) });
export type TmdbCollectionParams = Static<typeof TmdbCollectionParams>;

/** GET Tmdb/Movie/Collection. */
export const TmdbCollectionListQuery = Type.Object({
  search: Optional(Type.String()),
  fuzzy: Type.Boolean({ default: true }),
  ...TmdbIncludeQuery.properties,
  ...pageQuery(50),
});
export type TmdbCollectionListQuery = Static<typeof TmdbCollectionListQuery>;

/** A TMDB movie collection (never stored by this server: the list is empty and every id is unknown). */
export const TmdbMovieCollection = Type.Object({
  ID: Type.Integer(),
  Title: Type.String(),
  Titles: Optional(Type.Array(TmdbTitle)),
  Overview: Type.String(),
  Overviews: Optional(Type.Array(TmdbOverview)),
  Images: Optional(Images),
  MovieCount: Type.Integer(),
  CreatedAt: Type.String(),
  LastUpdatedAt: Type.String(),
});
export type TmdbMovieCollection = Static<typeof TmdbMovieCollection>;

/** Where one TMDB episode sits in the default seasons and in each alternate ordering (Tmdb/Episode/{id}/Ordering). */
export const TmdbEpisodeOrderingInformation = Type.Object({
  OrderingID: Type.String(),
  /** Left out for the default ordering. */
  OrderingType: Type.Optional(AlternateOrderingType),
  OrderingName: Type.String(),
  SeasonID: Type.String(),
  SeasonName: Type.String(),
  SeasonNumber: Type.Integer(),
  EpisodeNumber: Type.Integer(),
  IsDefault: Type.Boolean(),
  IsPreferred: Type.Boolean(),
  InUse: Type.Boolean(),
});
export type TmdbEpisodeOrderingInformation = Static<typeof TmdbEpisodeOrderingInformation>;
