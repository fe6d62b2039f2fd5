// Moving from Shoko Server: reading its data folder and importing it into an empty server.
// This is its public face: what other domains and the wiring may use of it.
export { mapShokoFilterPreset } from './filter-presets.js';
export { ShokoImportService } from './shoko-import.service.js';
export { ShokoImportStore } from './shoko-import.store.js';
export { createShokoImportDomain } from './shoko-import.wiring.js';
export { registerShokoImportRoutes } from './shoko-import.routes.js';
