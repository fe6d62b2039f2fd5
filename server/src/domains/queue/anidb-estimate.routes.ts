import { AniDBQueueEstimate } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import type { AniDBWorkEstimator } from './anidb-estimate.js';

export { anidbWorkEstimator } from './anidb-estimate.js';

/** `GET Queue/AniDBEstimate` (our addition): how long the AniDB work in the queue takes at the current pacing. */
export function registerAniDBEstimateRoute(app: App, deps: { estimator: AniDBWorkEstimator }) {
  app.get(
    '/api/v3/Queue/AniDBEstimate',
    { config: { auth: 'user' }, schema: { tags: ['Queue'], response: { 200: AniDBQueueEstimate } } },
    () => deps.estimator.estimate(),
  );
}
