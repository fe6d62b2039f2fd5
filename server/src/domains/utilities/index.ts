// The Utilities pages' series lists: series without files, series with manually linked files.
// This is its public face: what other domains and the wiring may use of it.
export { registerSeriesUtilityRoutes } from './utilities.routes.js';
export type { SeriesUtilities } from './utilities.service.js';
export { createUtilitiesDomain } from './utilities.wiring.js';
