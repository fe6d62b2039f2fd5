// AniDB metadata: the UDP/HTTP connection, anime downloads, file matching, manual links, MyList, schedules.
// This is its public face: what other domains and the wiring may use of it.
export { AniDBConnection } from './anidb-connection.js';
export { animeResourceLinks, toAnimeMetadata } from './anidb-http-source.js';
export { AnimeImport } from './anime-import.js';
export { animeRow } from './anime.store.js';
export type { AnimeMetadata } from './anime.store.js';
export { MetadataScheduler } from './metadata-scheduler.js';
export { MyList } from './my-list.js';
export { createMetadataDomain } from './metadata.wiring.js';
export type { MetadataDeps, MetadataDomain } from './metadata.wiring.js';
export { registerMetadataRoutes } from './metadata.routes.js';
