export {
  AniDBHttpClient,
  ANIME_MIN_REQUEST_INTERVAL_MS,
  decodeBody,
  memoryRequestLog,
  type AniDBHttpClientOptions,
  type AnimeRequestLog,
} from './client.js';
export { animeTypeFromText, parseAnimeXml, parseEpno } from './anime-xml.js';
export { AnimeXmlCache } from './anime-cache.js';
export {
  HttpBanTracker,
  httpBanToAniDBState,
  httpPauseToAniDBState,
  type AniDBHttpBanListener,
  type AniDBHttpBanState,
  type AniDBHttpPause,
} from './ban-state.js';
export {
  AniDBAnimeNotFoundError,
  AniDBAnimeTooSoonError,
  AniDBHttpBannedError,
  AniDBHttpClientRejectedError,
  AniDBHttpError,
  AniDBHttpRequestError,
  AniDBInvalidAnimeXmlError,
} from './errors.js';
export type * from './model.js';
export { ANIDB_HTTP_PACING, HttpRateLimiter, httpPacingFromSettings, scaledHttpPacing, type HttpPacing } from './rate-limit.js';
export { ANIDB_RESOURCE_SITES } from './resources.js';
