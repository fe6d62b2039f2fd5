// The tmdb domain's public face: what other domains and the wiring may use of it.
export { TmdbLinking } from './tmdb-linking.service.js';
export type { TmdbDomain } from './tmdb.domain.js';
export { TmdbService, includeSet } from './tmdb.service.js';
export { createTmdbDomain } from './tmdb.domain.js';
