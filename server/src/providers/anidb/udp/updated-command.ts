import type { AniDBUdpClient } from './client.js';

/** One page of `UPDATED entity=1`: the anime AniDB changed since a time, oldest change first, at most 200 a page. */
export interface AniDBUpdatedPage {
  /** How many anime changed since the time asked about (may exceed the ids on this page). */
  total: number;
  /** When the newest change on this page happened (unix seconds); 0 when nothing changed. */
  lastChangeAt: number;
  animeIds: number[];
}

/** The anime changed since `sinceUnix` (seconds): 243 with the list, 343 when there is nothing. */
export async function updatedAnimePage(client: AniDBUdpClient, sinceUnix: number): Promise<AniDBUpdatedPage> {
  const reply = await client.send('UPDATED', { entity: 1, time: Math.max(0, Math.floor(sinceUnix)) });
  if (reply.code === 343) return { total: 0, lastChangeAt: 0, animeIds: [] };
  if (reply.code !== 243) throw new Error(`AniDB UPDATED failed: ${reply.code} ${reply.text}`);
  // `{entity}|{total count}|{last update date}|{aid,aid,...}`
  const [, total = '0', last = '0', ids = ''] = reply.rows[0] ?? [];
  const animeIds = ids
    .split(',')
    .map((id) => Number.parseInt(id, 10))
    .filter((id) => Number.isInteger(id) && id > 0);
  return { total: Number.parseInt(total, 10) || animeIds.length, lastChangeAt: Number.parseInt(last, 10) || 0, animeIds };
}

/**
 * Every anime changed since `sinceUnix`, following AniDB's pages (each page starts at the newest change of the
 * previous one) up to `maxPages` packets. `checkedUpTo` is the time the next check should start from: the newest
 * change seen when the pages were cut short, otherwise null (the caller uses the time it asked at).
 */
export async function updatedAnimeSince(
  client: AniDBUdpClient,
  sinceUnix: number,
  maxPages = 25,
): Promise<{ animeIds: number[]; complete: boolean; checkedUpTo: number }> {
  const ids = new Set<number>();
  let since = Math.floor(sinceUnix);
  for (let page = 0; page < maxPages; page++) {
    const reply = await updatedAnimePage(client, since);
    for (const id of reply.animeIds) ids.add(id);
    // The last page, or one that cannot move the start forward (all its changes share the second asked about).
    if (reply.animeIds.length >= reply.total || reply.lastChangeAt <= since)
      return { animeIds: [...ids], complete: true, checkedUpTo: since };
    since = reply.lastChangeAt;
  }
  return { animeIds: [...ids], complete: false, checkedUpTo: since };
}
