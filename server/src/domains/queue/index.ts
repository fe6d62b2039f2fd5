// What the Queue API and the console see of the job queue, and how long the AniDB work left takes.
// This is its public face: what other domains and the wiring may use of it.
export { QueueControl } from './queue.service.js';
export { createQueueDomain } from './queue.wiring.js';
export { anidbWorkEstimator, registerAniDBEstimateRoute } from './anidb-estimate.routes.js';
export { registerQueueRoutes } from './queue.routes.js';
