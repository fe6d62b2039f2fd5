import { describe, expect, it } from 'vitest';
import type { Episode } from '@shoko-ts/contract';
import { saveLinkCalls } from '@/api/tmdb';
import { buildRows, effectiveLinks, ratingBadge, stageOverride, TEXTS, toggleMovie } from './linkingState';

const episode = (anidbId: number, number: number) =>
  ({
    IDs: { AniDB: anidbId },
    AniDB: { ID: anidbId, Type: 'Episode', EpisodeNumber: number, Title: `Episode ${number}`, AirDate: null },
  }) as unknown as Episode;
const episodes = [episode(11, 1), episode(12, 2), episode(13, 3)];
const xref = (anidb: number, show: number, tmdb: number, rating: string) => ({
  AnidbAnimeID: 1,
  AnidbEpisodeID: anidb,
  TmdbShowID: show,
  TmdbEpisodeID: tmdb,
  Index: 0,
  Rating: rating,
});

describe('TMDB linking rows', () => {
  it('badges every rating and disables episodes linked to another show', () => {
    expect(
      [
        'DateAndTitleMatches',
        'DateAndTitleKindaMatches',
        'DateMatches',
        'TitleMatches',
        'TitleKindaMatches',
        'UserVerified',
        'FirstAvailable',
        'None',
      ].map(ratingBadge),
    ).toEqual(['DT', '~DT', 'D', 'T', '~T', 'UO', 'BG', 'None']);
    const rows = buildRows(
      episodes,
      { type: 'Show', links: [xref(11, 5, 501, 'DateMatches'), xref(12, 9, 901, 'UserVerified'), xref(13, 0, 0, 'None')] },
      'Show',
      5,
      new Map(),
    );
    expect(rows.map((r) => [r.current, ratingBadge(r.rating), r.disabledReason])).toEqual([
      [[501], 'D', null],
      [[], 'UO', TEXTS.otherShow],
      [[], 'None', null],
    ]);
  });

  it('stages overrides, dropping one that restores the stored link, and toggles movies', () => {
    const rows = buildRows(episodes, { type: 'Show', links: [xref(11, 5, 501, 'DateMatches')] }, 'Show', 5, new Map());
    let overrides = stageOverride(new Map(), rows[0], 502);
    expect([...overrides]).toEqual([[11, 502]]);
    overrides = stageOverride(overrides, rows[0], 501);
    expect(overrides.size).toBe(0);
    expect(effectiveLinks({ ...rows[0], override: 0 })).toEqual([]);

    const movieRows = buildRows(
      episodes,
      {
        type: 'Movie',
        links: [
          { AnidbAnimeID: 1, AnidbEpisodeID: 12, TmdbMovieID: 77, Rating: 'User' },
          { AnidbAnimeID: 1, AnidbEpisodeID: 13, TmdbMovieID: 78, Rating: 'User' },
        ],
      },
      'Movie',
      77,
      new Map(),
    );
    expect(movieRows.map((r) => [r.current, r.disabledReason])).toEqual([
      [[], null],
      [[77], null],
      [[], TEXTS.otherMovie],
    ]);
    expect([...toggleMovie(new Map(), movieRows[0], 77)]).toEqual([[11, 77]]);
    expect([...toggleMovie(new Map(), movieRows[1], 77)]).toEqual([[12, 0]]);
  });

  it('saves a show by mapping (unlinking it first when no link is left) and a movie episode by episode', () => {
    const overrides = new Map([
      [11, 502],
      [12, 0],
    ]);
    expect(saveLinkCalls(3, { type: 'Show', id: 5, linked: true, overrides, remainingLinks: 1 })).toEqual([
      {
        method: 'POST',
        path: 'Series/3/TMDB/Show/CrossReferences/Episode',
        body: {
          UnsetAll: false,
          Mapping: [
            { AniDBID: 11, TmdbID: 502, Replace: true },
            { AniDBID: 12, TmdbID: 0, Replace: true },
          ],
        },
      },
    ]);
    expect(
      saveLinkCalls(3, { type: 'Show', id: 5, linked: true, overrides: new Map([[11, 0]]), remainingLinks: 0 }).map(
        (c) => `${c.method} ${c.path}`,
      ),
    ).toEqual(['DELETE Series/3/TMDB/Show', 'POST Series/3/TMDB/Show/CrossReferences/Episode']);
    expect(saveLinkCalls(3, { type: 'Show', id: 5, linked: false, overrides: new Map(), remainingLinks: 2 })).toEqual([
      { method: 'POST', path: 'Series/3/TMDB/Show/CrossReferences/Episode/Auto', body: { tmdbShowID: 5 } },
    ]);
    expect(
      saveLinkCalls(3, {
        type: 'Movie',
        id: 77,
        linked: true,
        overrides: new Map([
          [11, 77],
          [12, 0],
        ]),
        remainingLinks: 0,
      }),
    ).toEqual([
      { method: 'POST', path: 'Series/3/TMDB/Movie', body: { ID: 77, EpisodeID: 11 } },
      { method: 'DELETE', path: 'Series/3/TMDB/Movie', body: { ID: 77, EpisodeID: 12 } },
    ]);
  });
});
