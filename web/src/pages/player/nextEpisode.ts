import type { Episode, File } from '@shoko-ts/contract';

export interface PlayableEpisode {
  episode: Episode;
  fileId: number;
}

/** The file to play of an episode's files: a main release before variations, one that is on disk before one that is not. */
export function preferredFile(files: readonly File[] | undefined): File | null {
  const score = (file: File) => (file.IsVariation ? 0 : 2) + (file.Locations.some((location) => location.IsAccessible) ? 1 : 0);
  return [...(files ?? [])].sort((a, b) => score(b) - score(a))[0] ?? null;
}

/** The episode after `episodeId` in the series' list (one type, in order) that has a file, with that file. */
export function nextEpisodeAfter(episodes: readonly Episode[] | undefined, episodeId: number | null): PlayableEpisode | null {
  if (!episodes || episodeId === null) return null;
  const index = episodes.findIndex((episode) => episode.IDs.ID === episodeId);
  if (index < 0) return null;
  for (const episode of episodes.slice(index + 1)) {
    const file = preferredFile(episode.Files);
    if (file) return { episode, fileId: file.ID };
  }
  return null;
}
