// The logs domain's public face: what other domains and the wiring may use of it.
export { LogService } from './log.service.js';
