// The queue domain's public face: what other domains and the wiring may use of it.
export { QueueControl } from './queue.service.js';
export { createQueueDomain } from './queue.wiring.js';
export { anidbWorkEstimator, registerAniDBEstimateRoute } from './anidb-estimate.routes.js';
export { registerQueueRoutes } from './queue.routes.js';
