// AVDump sessions: dumping files to AniDB with an installed AVDump3 and reporting their progress.
// This is its public face: what other domains and the wiring may use of it.
export type { AVDumpService } from './avdump.service.js';
export { createAVDumpDomain } from './avdump.wiring.js';
export { registerAVDumpRoutes } from './avdump.routes.js';
