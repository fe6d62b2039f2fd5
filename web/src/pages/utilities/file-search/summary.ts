import type { FileXRef } from '@/api/utilities';

/** What the selected files add up to: distinct series and episodes they are linked to, and their total size. */
export function selectionSummary(files: ReadonlyArray<{ Size: number; SeriesIDs?: FileXRef[] }>): {
  series: number;
  episodes: number;
  size: number;
} {
  const series = new Set<number>();
  const episodes = new Set<number>();
  let size = 0;
  for (const file of files) {
    size += file.Size;
    for (const xref of file.SeriesIDs ?? []) {
      series.add(xref.SeriesID.AniDB);
      for (const episode of xref.EpisodeIDs) episodes.add(episode.AniDB);
    }
  }
  return { series: series.size, episodes: episodes.size, size };
}
