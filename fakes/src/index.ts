export * from './anidb-udp/index.js';
