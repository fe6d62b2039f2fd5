// The settings domain's public face: what other domains and the wiring may use of it.
export { SettingsService } from './settings.service.js';
export { SETTINGS_FILE } from './settings.store.js';
export { UPDATE_FREQUENCY_MS } from './update-frequency.js';
export { registerSettingsRoutes } from './settings.routes.js';
