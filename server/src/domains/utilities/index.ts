// The utilities domain's public face: what other domains and the wiring may use of it.
export { registerSeriesUtilityRoutes } from './utilities.routes.js';
export type { SeriesUtilities } from './utilities.service.js';
export { createUtilitiesDomain } from './utilities.wiring.js';
