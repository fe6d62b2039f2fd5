import { Type, type Static } from '@sinclair/typebox';

/** One stream of AniDB traffic in the queue: how many requests are left and how long they take at its pacing. */
export const AniDBPaceEstimate = Type.Object({
  /** Requests the queued jobs will make (one per job; a cached anime makes none, so this is an upper bound). */
  Requests: Type.Integer(),
  /**
   * Requests the queued work will lead to that are not queued yet: the pictures of the anime still to be downloaded, at
   * the collection's pictures per anime so far (0 for the other streams).
   */
  Expected: Type.Integer(),
  /** Seconds the queued and expected requests take at the current pacing, from now. */
  Seconds: Type.Integer(),
  /** Why this stream is held now (a ban, a back-off pause), null when it runs; the estimate starts when it ends. */
  HeldReason: Type.Union([Type.String(), Type.Null()]),
});
export type AniDBPaceEstimate = Static<typeof AniDBPaceEstimate>;

/**
 * `GET Queue/AniDBEstimate` (our addition): how long the AniDB work in the queue will take at the pacing of the
 * settings — UDP lookups, HTTP anime downloads and AniDB pictures, each on its own pacer. The queue runs file lookups
 * and anime downloads before pictures, so `TotalSeconds` adds the three up.
 */
export const AniDBQueueEstimate = Type.Object({
  Udp: AniDBPaceEstimate,
  Http: AniDBPaceEstimate,
  Images: AniDBPaceEstimate,
  TotalSeconds: Type.Integer(),
});
export type AniDBQueueEstimate = Static<typeof AniDBQueueEstimate>;
