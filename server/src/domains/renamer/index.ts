// The renamer: rename and move scripts, previews, journaled relocations and their undo.
// This is its public face: what other domains and the wiring may use of it.
export { defaultSettingsOf, scriptRenamer } from './renamers.js';
export type { RenamerPlugin } from './renamers.js';
export { DEFAULT_SCRIPT } from './script.js';
export type { RenamerService } from './renamer.service.js';
export { createRenamerDomain } from './renamer.wiring.js';
export { registerRenamerRoutes } from './renamer.routes.js';
