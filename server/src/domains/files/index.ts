// Files and their locations: lists, lookups, streams, deletions, rescans and each user's scrobbled playback.
// This is its public face: what other domains and the wiring may use of it.
export { fileEvent } from './file-event.js';
export { FilesService } from './files.service.js';
export { FilesStore, isReachable } from './files.store.js';
export { fileRecordsOver } from './file-records.js';
export type { FileReads, FileRecords } from './file-records.js';
export type { LocationWithFolder, StoredHashes } from './files.store.js';
export { fileDurationMs, resumePositionText } from './scrobble.service.js';
export type { ScrobbleService } from './scrobble.service.js';
export { createFileRecords, createFilesDomain } from './files.wiring.js';
export type { FilesDomain } from './files.wiring.js';
export { registerFileRoutes } from './files.routes.js';
export { registerScrobbleRoutes } from './scrobble.routes.js';
