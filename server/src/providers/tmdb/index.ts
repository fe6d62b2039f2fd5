export {
  DEFAULT_TMDB_BASE_URL,
  DEFAULT_TMDB_IMAGE_BASE_URL,
  detectAuthMode,
  pickTmdbApiKey,
  TmdbClient,
  type TmdbClientOptions,
  type TmdbMovieWith,
  type TmdbSearchOptions,
  type TmdbSeasonWith,
  type TmdbShowWith,
} from './client.js';
export { TmdbAuthError, TmdbError, TmdbNetworkError, TmdbNotFoundError, TmdbRateLimitError } from './errors.js';
export { systemClock, TMDB_RATE_LIMIT, TmdbRateLimiter, type TmdbClock, type TmdbRateLimit } from './rate-limiter.js';
export { retryAfterMs, type TmdbAuthMode } from './transport.js';
export {
  buildSearchQueries,
  findTmdbMatch,
  removeSubtitle,
  stripSequelSuffix,
  type AnidbAnimeForMatching,
  type AnidbAnimeType,
  type AnidbTitleForMatching,
  type TmdbAutoMatchOutcome,
  type TmdbSearchQuery,
  type TmdbSearchSource,
} from './auto-match.js';
export {
  MATCH_RATING_BADGES,
  matchEpisodes,
  tmdbEpisodeForMatching,
  type AnidbEpisodeForMatching,
  type AnidbEpisodeType,
  type EpisodeLink,
  type MatchEpisodesOptions,
  type TmdbEpisodeForMatching,
  type TmdbMatchRating,
} from './episode-match.js';
export { bestTitleSimilarity, normaliseTitle, titleSimilarity } from './title-similarity.js';
export * from './types.js';
