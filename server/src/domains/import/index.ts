// Finding and hashing files: scans, the folder watcher and the hash workers.
// This is its public face: what other domains and the wiring may use of it.
export { walkFilter } from './folder-walk.js';
export { ImportService } from './import.service.js';
export type { FolderWatcher } from './folder-watcher.js';
export { createImportDomain } from './import.wiring.js';
