// TMDB: shows, movies, seasons and episodes, their links to AniDB and their refreshes.
// This is its public face: what other domains and the wiring may use of it.
export { TmdbLinking } from './tmdb-linking.service.js';
export type { TmdbDomain } from './tmdb.domain.js';
export { TmdbService, includeSet } from './tmdb.service.js';
export { createTmdbDomain } from './tmdb.domain.js';
export { createTmdbLocal } from './tmdb-local.domain.js';
export { registerTmdbLocalRoutes } from './tmdb-local.routes.js';
export { registerTmdbXrefTransferRoutes } from './tmdb-xref-transfer.routes.js';
export { createTmdbXrefTransfer } from './tmdb.domain.js';
export { registerTmdbRoutes } from './tmdb.routes.js';
