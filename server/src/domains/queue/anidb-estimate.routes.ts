import { AniDBQueueEstimate, AniDBUpdateType } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import type { QueueService } from '../../jobs/queue.service.js';
import type { ImageStore } from '../images/image-store.js';
import type { ImagesService } from '../images/images.service.js';
import type { AniDBConnection } from '../metadata/anidb-connection.js';
import { AniDBWorkEstimator } from './anidb-estimate.js';

/** A job definition, as far as the estimate needs it. */
type Typed = { job: { type: string } };

/** The estimator over the server's own pacers and job types. */
export function anidbWorkEstimator(services: {
  queue: Pick<QueueService, 'typeCounts'>;
  metadata: { anidb: AniDBConnection; fileMatching: Typed; myList: Typed; animeImport: Typed };
  images: { service: Pick<ImagesService, 'anidbJob' | 'anidbImages'>; store: Pick<ImageStore, 'ids'> };
}): AniDBWorkEstimator {
  const { anidb, fileMatching, myList, animeImport } = services.metadata;
  const images = services.images.service;
  const picturesPerAnime = storedPicturesPerAnime(services.images.store, anidb.now);
  const untilFromNow = (until: number | null | undefined) => Math.max(0, (until ?? 0) - anidb.now());
  return new AniDBWorkEstimator({
    typeCounts: () => services.queue.typeCounts(),
    udp: {
      jobTypes: [fileMatching.job.type, myList.job.type],
      estimateMs: (packets) => anidb.udpLimiter.estimateMs(packets),
      hold: () => anidb.udpHold(),
      holdMs: () =>
        Math.max(
          anidb.udpStatus.remainingPauseMs(AniDBUpdateType.UDPBan),
          anidb.udpStatus.remainingPauseMs(AniDBUpdateType.OverloadBackoff),
        ),
    },
    http: {
      jobTypes: [animeImport.job.type],
      estimateMs: (requests) => anidb.httpLimiter.estimateMs(requests),
      hold: () => anidb.httpHold(),
      holdMs: () => Math.max(untilFromNow(anidb.httpBan.state.until?.getTime()), untilFromNow(anidb.httpBan.pause?.until)),
    },
    images: {
      jobTypes: [images.anidbJob.type],
      estimateMs: (pictures) => images.anidbImages.estimateMs(pictures),
      hold: () => images.anidbImages.hold(),
      // Each anime still to be downloaded brings its pictures.
      expected: (counts) => (counts[animeImport.job.type] ?? 0) * picturesPerAnime(),
    },
  });
}

/**
 * AniDB pictures stored per anime stored (posters count the anime), at least 1 (the poster); read from the image folders
 * at most every 5 minutes.
 */
function storedPicturesPerAnime(store: Pick<ImageStore, 'ids'>, now: () => number): () => number {
  let cached = { at: Number.NEGATIVE_INFINITY, value: 1 };
  return () => {
    if (now() - cached.at < 5 * 60_000) return cached.value;
    const posters = store.ids('AniDB', 'Poster').length;
    const all = posters + store.ids('AniDB', 'Character').length + store.ids('AniDB', 'Staff').length;
    cached = { at: now(), value: posters ? Math.max(1, all / posters) : 1 };
    return cached.value;
  };
}

/** `GET Queue/AniDBEstimate` (our addition): how long the AniDB work in the queue takes at the current pacing. */
export function registerAniDBEstimateRoute(app: App, deps: { estimator: AniDBWorkEstimator }) {
  app.get(
    '/api/v3/Queue/AniDBEstimate',
    { config: { auth: 'user' }, schema: { tags: ['Queue'], response: { 200: AniDBQueueEstimate } } },
    () => deps.estimator.estimate(),
  );
}
