import { AniDBUpdateType, type AniDBPaceEstimate, type AniDBQueueEstimate } from '@shoko-ts/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { QueueService } from '../../jobs/queue.service.js';
import type { ImagesService } from '../images/index.js';
import type { AniDBConnection } from '../metadata/index.js';
import { AniDBEstimateStore } from './anidb-estimate.store.js';

/** One paced stream of AniDB traffic: the job types that use it and its pacer. */
export interface AniDBPacedStream {
  /** Queue job types (as `Queue/Types` names them) whose jobs each make one request of this stream. */
  jobTypes: string[];
  /** How long that many more requests take from now at the stream's pacing. */
  estimateMs(requests: number): number;
  /** Why the stream is held now (ban, back-off), null when it runs. */
  hold(): string | null;
  /** How long the hold lasts from now, when known (0 otherwise). */
  holdMs?(): number;
  /** Requests the queued jobs (by type, as `Queue/Types`) will lead to beyond those queued. */
  expected?(counts: Record<string, number>): number | Promise<number>;
}

/**
 * The queue view's "AniDB work left": the queued and running jobs of each AniDB stream (UDP, HTTP, pictures) at their
 * pacers' current pace, and the pictures the queued anime downloads will bring. File lookups and anime downloads come before pictures in the queue, so the total adds the
 * three up (an upper bound when they overlap; cached anime make no request, so also when they do not).
 */
export class AniDBWorkEstimator {
  constructor(
    private readonly deps: {
      /** Queued and running jobs per job type (`Queue/Types`). */
      typeCounts(): Promise<Record<string, number>>;
      udp: AniDBPacedStream;
      http: AniDBPacedStream;
      images: AniDBPacedStream;
    },
  ) {}

  async estimate(): Promise<AniDBQueueEstimate> {
    const counts = await this.deps.typeCounts();
    const Udp = await this.streamEstimate(this.deps.udp, counts);
    const Http = await this.streamEstimate(this.deps.http, counts);
    const Images = await this.streamEstimate(this.deps.images, counts);
    return { Udp, Http, Images, TotalSeconds: Udp.Seconds + Http.Seconds + Images.Seconds };
  }

  private async streamEstimate(stream: AniDBPacedStream, counts: Record<string, number>): Promise<AniDBPaceEstimate> {
    const requests = stream.jobTypes.reduce((sum, type) => sum + (counts[type] ?? 0), 0);
    const expected = Math.round((await stream.expected?.(counts)) ?? 0);
    const held = requests + expected > 0 ? stream.hold() : null;
    const waitMs = held ? (stream.holdMs?.() ?? 0) : 0;
    return {
      Requests: requests,
      Expected: expected,
      Seconds: Math.ceil((waitMs + stream.estimateMs(requests + expected)) / 1000),
      HeldReason: held,
    };
  }
}

/** A job definition, as far as the estimate needs it. */
type Typed = { job: { type: string } };

/** The estimator over the server's own pacers and job types. */
export function anidbWorkEstimator(services: {
  queue: Pick<QueueService, 'typeCounts'>;
  metadata: { anidb: AniDBConnection; fileMatching: Typed; myList: Typed; animeImport: Typed };
  images: { service: Pick<ImagesService, 'anidbJob' | 'anidbImages'> };
  db: { kysely: Kysely<Database> };
}): AniDBWorkEstimator {
  const { anidb, fileMatching, myList, animeImport } = services.metadata;
  const images = services.images.service;
  const picturesPerAnime = cachedPicturesPerAnime(new AniDBEstimateStore(services.db.kysely), anidb.now);
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
      expected: async (counts) => (counts[animeImport.job.type] ?? 0) * (await picturesPerAnime()),
    },
  });
}

/**
 * The stored anime's AniDB pictures per anime (at least 1, the poster; 1 while none is stored), read at most every 5
 * minutes: the estimate is asked for every 30 s by every open console.
 */
function cachedPicturesPerAnime(store: AniDBEstimateStore, now: () => number): () => Promise<number> {
  let cached = { at: Number.NEGATIVE_INFINITY, value: 1 };
  return async () => {
    if (now() - cached.at < 5 * 60_000) return cached.value;
    cached = { at: now(), value: Math.max(1, (await store.picturesPerAnime()) ?? 1) };
    return cached.value;
  };
}
