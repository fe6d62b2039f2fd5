// Import folders: where files live, their validation and whether each is reachable now.
// This is its public face: what other domains and the wiring may use of it.
export { FolderAvailability, folderLabel } from './folder-availability.js';
export { ImportFoldersService, normalizeFolderPath } from './import-folders.service.js';
export type { ImportFolderRow } from './import-folders.store.js';
export { systemLocation } from './system-locations.js';
export { createImportFoldersDomain } from './import-folders.wiring.js';
export { registerFolderRoutes, registerImportFolderRoutes } from './import-folders.routes.js';
