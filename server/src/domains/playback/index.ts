// The playback domain's public face: what other domains and the wiring may use of it.
export { createPlayback } from './playback.domain.js';
export type { PlaybackService } from './playback.service.js';
export { registerPlaybackRoutes } from './playback.routes.js';
