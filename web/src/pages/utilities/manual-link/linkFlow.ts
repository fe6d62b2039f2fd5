import type { Episode } from '@shoko-ts/contract';
import {
  deleteSeries,
  getAnidbAnime,
  getShokoEpisodes,
  linkFilesToEpisode,
  linkFileToEpisodes,
  refreshAnime,
  type AnidbAnimeHit,
} from '@/api/utilities';
import { planLinks, type LinkEntry } from './linking';

/** What the flow tells the user: errors abort, warnings and failures are shown while the rest goes on. */
export interface LinkNotice {
  level: 'error' | 'warning' | 'success';
  title: string;
  text?: string;
}

export const LINK_TEXTS = {
  noSeriesEntry: 'Failed to add series! Unable to create series entry.',
  noShokoSeries: 'Failed to add series! Unable to create shoko series entry.',
  noSeriesData: 'Failed to get series data!',
  aborted: 'Linking aborted!',
  noEpisodes: 'Unable to fetch shoko episodes!',
  manyToMany: 'Unable create many-to-many relations. Try again or contact support.',
  skipped: 'Episode linking skipped!',
} as const;

/** How many of the calls failed. */
async function failures<T>(items: readonly T[], call: (item: T) => Promise<unknown>): Promise<number> {
  return (await Promise.allSettled(items.map(call))).filter((result) => result.status === 'rejected').length;
}

const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

/** Downloads an anime the search only knows from the titles dump, so its episodes can be listed (contract S4, S3). */
export async function downloadAnime(anime: AnidbAnimeHit): Promise<AnidbAnimeHit> {
  if (anime.Type !== 'Unknown') return anime;
  const ok = await refreshAnime(anime.ID, { force: true }).catch(() => false);
  const stored = ok ? await getAnidbAnime(anime.ID).catch(() => null) : null;
  if (!stored) throw new Error(LINK_TEXTS.noSeriesData);
  return stored;
}

/**
 * The link flow of SPEC §4: create the series entry when the anime has none, map the chosen AniDB episodes to Shoko
 * episodes, classify the pairs and send one request per link shape. A many-to-many selection, or episodes that
 * cannot be read, abort the flow and remove a series created for it. Resolves with the notices to show and how many
 * files were linked.
 */
export async function runLinkFlow(
  anime: AnidbAnimeHit,
  entries: readonly LinkEntry[],
  notify: (notice: LinkNotice) => void,
): Promise<{ linked: number }> {
  let seriesId = anime.ShokoID;
  let created = false;
  if (!seriesId) {
    const ok = await refreshAnime(anime.ID, { createSeriesEntry: true }).catch(() => false);
    if (!ok) {
      notify({ level: 'error', title: LINK_TEXTS.noSeriesEntry });
      return { linked: 0 };
    }
    seriesId = (await getAnidbAnime(anime.ID).catch(() => null))?.ShokoID ?? null;
    if (!seriesId) {
      notify({ level: 'error', title: LINK_TEXTS.noShokoSeries });
      return { linked: 0 };
    }
    created = true;
  }
  const abort = async (text: string) => {
    notify({ level: 'error', title: LINK_TEXTS.aborted, text });
    if (created) await deleteSeries(seriesId).catch(() => undefined);
    return { linked: 0 };
  };

  let episodes: Episode[];
  try {
    episodes = (await getShokoEpisodes(seriesId)).List;
  } catch {
    return abort(LINK_TEXTS.noEpisodes);
  }
  const shokoId = new Map(episodes.map((e) => [e.IDs.AniDB, e.IDs.ID]));
  // An AniDB episode without its Shoko episode cannot be linked: treat those rows as having none.
  const mapped = entries.map((entry) => ({
    ...entry,
    episodeId: entry.episodeId === null ? null : (shokoId.get(entry.episodeId) ?? null),
  }));
  const plan = planLinks(mapped);
  if (plan.manyToMany) return abort(LINK_TEXTS.manyToMany);

  for (const entry of plan.skipped) notify({ level: 'warning', title: LINK_TEXTS.skipped, text: entry.path });
  let linked = 0;
  const run = async (label: string, count: number, call: () => Promise<number>) => {
    const failed = await call();
    if (failed) notify({ level: 'error', title: `Failed ${label} linking for ${files(failed)}!` });
    linked += count - failed;
  };
  await run('1:1', plan.oneToOne.length, () => failures(plan.oneToOne, (link) => linkFileToEpisodes(link.fileId, [link.episodeId])));
  await run('1:N', plan.oneToMany.length, () => failures(plan.oneToMany, (link) => linkFileToEpisodes(link.fileId, link.episodeIds)));
  const manyFiles = plan.manyToOne.reduce((sum, link) => sum + link.fileIds.length, 0);
  await run('N:1', manyFiles, async () => {
    const results = await Promise.allSettled(plan.manyToOne.map((link) => linkFilesToEpisode(link.fileIds, link.episodeId)));
    return results.reduce((sum, result, i) => sum + (result.status === 'rejected' ? plan.manyToOne[i].fileIds.length : 0), 0);
  });
  if (linked) notify({ level: 'success', title: `Linked ${files(linked)}!` });
  return { linked };
}
