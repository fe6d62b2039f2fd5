import { describe, expect, it } from 'vitest';
import { selectionSummary } from './summary';

describe('selectionSummary', () => {
  it('counts distinct series and episodes and adds up sizes', () => {
    const xref = (anime: number, episodes: number[]) => ({
      SeriesID: { ID: anime * 10, AniDB: anime },
      EpisodeIDs: episodes.map((AniDB) => ({ ID: AniDB, AniDB, Source: 'AniDB' as const })),
    });
    const files = [{ Size: 100, SeriesIDs: [xref(1, [11, 12])] }, { Size: 50, SeriesIDs: [xref(1, [12]), xref(2, [21])] }, { Size: 7 }];
    expect(selectionSummary(files)).toEqual({ series: 2, episodes: 3, size: 157 });
    expect(selectionSummary([])).toEqual({ series: 0, episodes: 0, size: 0 });
  });
});
