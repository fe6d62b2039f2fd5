import type { AnidbEpisode } from '@shoko-ts/contract';

/** One row of the link table: a file and the AniDB episode chosen for it (a file may have several rows). */
export interface LinkEntry {
  key: number;
  fileId: number;
  /** The file's relative path, shown and used in messages. */
  path: string;
  /** AniDB episode id, or null while none is chosen. */
  episodeId: number | null;
}

/** Episode types Range Fill can start from (SPEC §5). */
export const RANGE_TYPES = ['Episode', 'Special', 'Other'] as const;
export type RangeType = (typeof RANGE_TYPES)[number];

export const RANGE_MESSAGES = {
  notPositive: 'Value is not a positive integer.',
  noStart: 'Unable to find starting episode.',
} as const;

const TYPE_PREFIX: Record<string, string> = { Episode: '', Special: 'S', Credits: 'C', Trailer: 'T', Parody: 'P', Other: 'O' };

/** "3 - Title" for episodes, "S1 - Title" for specials, and so on. */
export function episodeLabel(episode: Pick<AnidbEpisode, 'Type' | 'EpisodeNumber' | 'Title'>): string {
  const prefix = TYPE_PREFIX[episode.Type] ?? '?';
  return `${prefix}${episode.EpisodeNumber} - ${episode.Title || 'Untitled'}`;
}

/** Episodes of one type in number order. */
function ofType(episodes: readonly AnidbEpisode[], type: string): AnidbEpisode[] {
  return episodes.filter((e) => e.Type === type).sort((a, b) => a.EpisodeNumber - b.EpisodeNumber);
}

/**
 * The episode number a file name most likely carries: the last free-standing number of at most three digits
 * ("Show - 03 [1080p].mkv" → 3, "Show E12v2.mkv" → 12), or a special's "S2"; null when nothing fits.
 */
export function guessEpisode(path: string): { type: 'Episode' | 'Special'; number: number } | null {
  const name = path
    .split(/[\\/]/)
    .pop()!
    .replace(/\.[^.]+$/, '')
    .replace(/\[[^\]]*\]|\([^)]*\)/g, ' ');
  const special = /(?:^|[\s_.-])(?:S|SP|Special)\s?(\d{1,3})(?=$|[\s_.-])/i.exec(name);
  if (special) return { type: 'Special', number: Number(special[1]) };
  const numbers = [...name.matchAll(/(?:^|[\s_.-])(?:E|EP|Episode)?\s?(\d{1,3})(?:v\d)?(?=$|[\s_.-])/gi)];
  const last = numbers.at(-1);
  return last ? { type: 'Episode', number: Number(last[1]) } : null;
}

/** Picks an episode for every entry without one whose file name names an episode of the series. */
export function autoMatch(entries: readonly LinkEntry[], episodes: readonly AnidbEpisode[]): { entries: LinkEntry[]; matched: number } {
  let matched = 0;
  const result = entries.map((entry) => {
    if (entry.episodeId !== null) return entry;
    const guess = guessEpisode(entry.path);
    const episode = guess && episodes.find((e) => e.Type === guess.type && e.EpisodeNumber === guess.number);
    if (!episode) return entry;
    matched++;
    return { ...entry, episodeId: episode.ID };
  });
  return { entries: result, matched };
}

/** Range Fill: entry i gets the i-th episode of `type` from the one numbered `start` on; entries past the end get none. */
export function rangeFill(
  entries: readonly LinkEntry[],
  start: string,
  type: RangeType,
  episodes: readonly AnidbEpisode[],
): { entries: LinkEntry[] } | { error: string } {
  if (!/^\d+$/.test(start.trim()) || Number(start) < 1) return { error: RANGE_MESSAGES.notPositive };
  const list = ofType(episodes, type);
  const first = list.findIndex((e) => e.EpisodeNumber === Number(start));
  if (first < 0) return { error: RANGE_MESSAGES.noStart };
  return { entries: entries.map((entry, i) => ({ ...entry, episodeId: list[first + i]?.ID ?? null })) };
}

export interface LinkPlan {
  /** One file to one episode. */
  oneToOne: Array<{ fileId: number; episodeId: number }>;
  /** One file to several episodes (each of them has only this file). */
  oneToMany: Array<{ fileId: number; episodeIds: number[] }>;
  /** Several files to one episode (each of them has only this episode). */
  manyToOne: Array<{ episodeId: number; fileIds: number[] }>;
  /** Files with no episode chosen in any of their rows. */
  skipped: LinkEntry[];
  /** Some files and episodes are linked many-to-many: the server cannot take that, so nothing is linked. */
  manyToMany: boolean;
}

/** Sorts the chosen (file, episode) pairs into the three link shapes the API takes (SPEC §4). */
export function planLinks(entries: readonly LinkEntry[]): LinkPlan {
  const episodesOf = new Map<number, Set<number>>();
  const filesOf = new Map<number, Set<number>>();
  for (const entry of entries) {
    if (entry.episodeId === null) continue;
    (episodesOf.get(entry.fileId) ?? episodesOf.set(entry.fileId, new Set()).get(entry.fileId)!).add(entry.episodeId);
    (filesOf.get(entry.episodeId) ?? filesOf.set(entry.episodeId, new Set()).get(entry.episodeId)!).add(entry.fileId);
  }
  const plan: LinkPlan = { oneToOne: [], oneToMany: [], manyToOne: [], skipped: [], manyToMany: false };
  const seen = new Set<number>();
  plan.skipped = entries.filter((entry) => !episodesOf.has(entry.fileId) && !seen.has(entry.fileId) && seen.add(entry.fileId));
  for (const [fileId, episodes] of episodesOf) {
    const ids = [...episodes];
    if (ids.length > 1) {
      if (ids.some((id) => filesOf.get(id)!.size > 1)) plan.manyToMany = true;
      else plan.oneToMany.push({ fileId, episodeIds: ids });
    } else if (filesOf.get(ids[0])!.size === 1) {
      plan.oneToOne.push({ fileId, episodeId: ids[0] });
    }
  }
  for (const [episodeId, files] of filesOf) {
    if (files.size < 2) continue;
    if ([...files].some((fileId) => episodesOf.get(fileId)!.size > 1)) plan.manyToMany = true;
    else plan.manyToOne.push({ episodeId, fileIds: [...files] });
  }
  return plan;
}
