// The console itself: its themes, release checks and updater.
// This is its public face: what other domains and the wiring may use of it.
export { MultipartForm, acceptMultipart } from './multipart.js';
export { createWebUIDomain } from './webui.wiring.js';
export type { WebUIDomain } from './webui.wiring.js';
export { registerWebUIRoutes } from './webui.routes.js';
