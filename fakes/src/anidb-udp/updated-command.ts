import type { FakeUdpCommand } from './commands.js';

/** An anime AniDB changed, and when (unix seconds). */
export interface FakeAnimeUpdate {
  animeId: number;
  at: number;
}

const PAGE_SIZE = 200;

/**
 * `UPDATED entity=1&time={unix}` (or `&age={days}`) over a list the test or demo fills: `243 UPDATED` with
 * `1|{total}|{newest change on the page}|{aid,aid,…}` (oldest change first, 200 a page), `343 NO UPDATES` otherwise.
 * Reads the list on every call, so changes pushed while the fake runs are seen.
 */
export function updatedCommand(updates: FakeAnimeUpdate[], now: () => number = () => Date.now()): FakeUdpCommand {
  return {
    needsSession: true,
    handle({ params }) {
      if (params.entity !== '1' || (params.time === undefined) === (params.age === undefined))
        return { code: 505, text: 'ILLEGAL INPUT OR ACCESS DENIED' };
      const since = params.time !== undefined ? Number(params.time) : Math.floor(now() / 1000) - Number(params.age) * 86_400;
      if (!Number.isFinite(since)) return { code: 505, text: 'ILLEGAL INPUT OR ACCESS DENIED' };
      // The newest change per anime counts; one anime is listed once.
      const latest = new Map<number, number>();
      for (const update of updates) latest.set(update.animeId, Math.max(latest.get(update.animeId) ?? 0, update.at));
      const changed = [...latest].filter(([, at]) => at >= since).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
      if (!changed.length) return { code: 343, text: 'NO UPDATES' };
      const page = changed.slice(0, PAGE_SIZE);
      return { code: 243, text: 'UPDATED', rows: [[1, changed.length, page[page.length - 1][1], page.map(([id]) => id).join(',')]] };
    },
  };
}
