// The server log: its file, rotation and the live log feed.
// This is its public face: what other domains and the wiring may use of it.
export { LogService } from './log.service.js';
