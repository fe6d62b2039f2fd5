// The server settings: the stored document, its schema, validation and defaults.
// This is its public face: what other domains and the wiring may use of it.
export { SettingsService } from './settings.service.js';
export { SETTINGS_FILE } from './settings.store.js';
export { UPDATE_FREQUENCY_MS } from './update-frequency.js';
export { registerSettingsRoutes } from './settings.routes.js';
