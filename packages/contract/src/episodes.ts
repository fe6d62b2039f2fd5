import { Type, type Static } from '@sinclair/typebox';
import { IncludeOnlyParam, ListParam } from './common.js';

export const EpisodeParams = Type.Object({ episodeID: Type.Integer({ minimum: 1 }) });
export type EpisodeParams = Static<typeof EpisodeParams>;

/** The §5.5 episode filters shared by Series/{id}/Episode and Series/{id}/Episode/Watched. */
export const EpisodeFilterQuery = Type.Object({
  includeMissing: IncludeOnlyParam,
  includeUnaired: IncludeOnlyParam,
  includeHidden: IncludeOnlyParam,
  includeVoted: IncludeOnlyParam,
  includeWatched: IncludeOnlyParam,
  type: ListParam,
  search: Type.Optional(Type.String()),
  fuzzy: Type.Boolean({ default: true }),
});
export type EpisodeFilterQuery = Static<typeof EpisodeFilterQuery>;

/** §1 Vote body of Series/{id}/Vote and Episode/{id}/Vote. */
export const VoteBody = Type.Object({
  Value: Type.Number({ minimum: -1 }),
  MaxValue: Type.Integer({ minimum: 0, default: 10 }),
  Type: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type VoteBody = Static<typeof VoteBody>;

/** Episode/{id}. */
export const EpisodeQuery = Type.Object({
  includeDataFrom: ListParam,
  includeFiles: Type.Boolean({ default: false }),
  includeMediaInfo: Type.Boolean({ default: false }),
  includeAbsolutePaths: Type.Boolean({ default: false }),
  includeXRefs: Type.Boolean({ default: false }),
});
export type EpisodeQuery = Static<typeof EpisodeQuery>;

/** Episode/{id}/Watched/{watched}. */
export const EpisodeWatchedParams = Type.Object({ episodeID: Type.Integer({ minimum: 1 }), watched: Type.Boolean() });
export type EpisodeWatchedParams = Static<typeof EpisodeWatchedParams>;

/** Episode/{id}/SetHidden. */
export const EpisodeSetHiddenQuery = Type.Object({ value: Type.Boolean({ default: true }), updateStats: Type.Boolean({ default: true }) });
export type EpisodeSetHiddenQuery = Static<typeof EpisodeSetHiddenQuery>;

/** Episode/{id}/TMDB/Movie (POST), the contract's `LinkCommonBody`: a movie linked to one episode. */
export const EpisodeLinkTmdbMovieBody = Type.Object({
  ID: Type.Integer({ minimum: 1 }),
  Replace: Type.Boolean({ default: false }),
  Refresh: Type.Boolean({ default: false }),
});
export type EpisodeLinkTmdbMovieBody = Static<typeof EpisodeLinkTmdbMovieBody>;

/** Episode (GET): every episode of every series the caller may see, under the §5.5 filters; paged. */
export const EpisodeListQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: 20 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  ...EpisodeFilterQuery.properties,
  ...EpisodeQuery.properties,
});
export type EpisodeListQuery = Static<typeof EpisodeListQuery>;

/** Episode/AniDB (admin): every AniDB episode, optionally of some types; paged. */
export const AnidbEpisodesQuery = Type.Object({
  pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: 20 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
  type: ListParam,
});
export type AnidbEpisodesQuery = Static<typeof AnidbEpisodesQuery>;

/** Episode/AniDB/{anidbEpisodeID} and …/Episode. */
export const AnidbEpisodeParams = Type.Object({ anidbEpisodeID: Type.Integer({ minimum: 1 }) });
export type AnidbEpisodeParams = Static<typeof AnidbEpisodeParams>;

/** Episode/WithNoFiles: episodes without a local file; paged (100 by default). */
export const EpisodesWithNoFilesQuery = Type.Object({
  includeSpecials: Type.Boolean({ default: false }),
  includeXRefs: Type.Boolean({ default: false }),
  onlyAiredEpisodes: Type.Boolean({ default: false }),
  onlyFinishedSeries: Type.Boolean({ default: false }),
  pageSize: Type.Integer({ minimum: 0, maximum: 1000, default: 100 }),
  page: Type.Integer({ minimum: 1, default: 1 }),
});
export type EpisodesWithNoFilesQuery = Static<typeof EpisodesWithNoFilesQuery>;

/** Episode/{id}/OverrideTitle (body required): an empty title clears the override. */

/** Episode/{id}/Images/{imageType}: Poster, Banner, Backdrop, Logo or Thumbnail/Thumb (checked by the server). */
export const EpisodeImageParams = Type.Object({ episodeID: Type.Integer({ minimum: 1 }), imageType: Type.String() });
export type EpisodeImageParams = Static<typeof EpisodeImageParams>;
