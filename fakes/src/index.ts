export * from './anidb-udp/index.js';
export * from './trakt.js';
export * from './plex.js';
