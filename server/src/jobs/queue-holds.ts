import type { RunningJob } from './queue-types.js';

/**
 * A rule that holds jobs of some kinds back while a condition lasts (Shoko's acquisition filters), e.g. AniDB lookups
 * during an AniDB ban. Held jobs keep waiting in the queue, shown as blocked; the owner calls `recheckHolds` when the
 * condition may have changed, and they start by themselves once it is over.
 */
export interface QueueHold {
  /** Shown by `Queue/AcquisitionFilters`. */
  name: string;
  kinds: string[];
  /** Why jobs are held now (for the log), or null when the hold is not in force. */
  reason(): string | null;
}

/** The kinds held back now, by the reason of the hold holding them (the first hold in force for a kind). */
export function heldKinds(holds: readonly QueueHold[]): Map<string, string> {
  const held = new Map<string, string>();
  for (const hold of holds) {
    const reason = hold.reason();
    if (reason !== null) for (const kind of hold.kinds) if (!held.has(kind)) held.set(kind, reason);
  }
  return held;
}

/** Hold name → the job kinds it holds back now (`Queue/AcquisitionFilters`). */
export function activeHolds(holds: readonly QueueHold[]): Record<string, string[]> {
  return Object.fromEntries(holds.filter((hold) => hold.reason() !== null).map((hold) => [hold.name, [...hold.kinds]]));
}

/** The kinds with as many jobs running as their concurrency cap allows (none more may start now). */
export function kindsAtTheirCap(running: Iterable<RunningJob>, limits: Record<string, number>): string[] {
  const counts = new Map<string, number>();
  for (const job of running) counts.set(job.row.kind, (counts.get(job.row.kind) ?? 0) + 1);
  return Object.entries(limits)
    .filter(([kind, limit]) => (counts.get(kind) ?? 0) >= limit)
    .map(([kind]) => kind);
}
