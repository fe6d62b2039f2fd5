import type { AniDBPaceEstimate, AniDBQueueEstimate } from '@shoko-ts/contract';

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
  expected?(counts: Record<string, number>): number;
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
    const Udp = this.streamEstimate(this.deps.udp, counts);
    const Http = this.streamEstimate(this.deps.http, counts);
    const Images = this.streamEstimate(this.deps.images, counts);
    return { Udp, Http, Images, TotalSeconds: Udp.Seconds + Http.Seconds + Images.Seconds };
  }

  private streamEstimate(stream: AniDBPacedStream, counts: Record<string, number>): AniDBPaceEstimate {
    const requests = stream.jobTypes.reduce((sum, type) => sum + (counts[type] ?? 0), 0);
    const expected = Math.round(stream.expected?.(counts) ?? 0);
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
