// Watching in the browser: playback facts, signed media URLs and HLS sessions over ffmpeg.
// This is its public face: what other domains and the wiring may use of it.
export { createPlayback } from './playback.domain.js';
export type { PlaybackService } from './playback.service.js';
export { registerPlaybackRoutes } from './playback.routes.js';
