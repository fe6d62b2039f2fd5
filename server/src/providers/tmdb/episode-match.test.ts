import { describe, expect, it } from 'vitest';
import {
  MATCH_RATING_BADGES,
  matchEpisodes,
  tmdbEpisodeForMatching,
  type AnidbEpisodeForMatching,
  type EpisodeLink,
  type TmdbEpisodeForMatching,
} from './episode-match.js';

const tmdb = (id: number, episodeNumber: number, title: string, airDate: string | null, seasonNumber = 1): TmdbEpisodeForMatching => ({
  id,
  seasonNumber,
  episodeNumber,
  airDate,
  titles: [title],
});
const anidb = (
  id: number,
  number: number,
  title: string,
  airDate: string | null,
  type: AnidbEpisodeForMatching['type'] = 'Episode',
): AnidbEpisodeForMatching => ({
  id,
  type,
  number,
  airDate,
  titles: [title],
});

const season: TmdbEpisodeForMatching[] = [
  tmdb(101, 1, "The Lamp-Keeper's Apprentice", '2022-04-05'),
  tmdb(102, 2, 'Low Tide at Nine Bells', '2022-04-12'),
  tmdb(103, 3, 'A Map Drawn in Salt', '2022-04-19'),
  tmdb(104, 4, 'Where the Last Lantern Sails', '2022-04-26'),
  tmdb(105, 5, 'Episode 5', null),
  tmdb(106, 6, 'Homecoming', null),
  tmdb(100, 1, 'Harbour Lights: A Look Back', '2022-05-03', 0),
];

const ratingsOf = (links: EpisodeLink[]) =>
  Object.fromEntries(links.map((link) => [link.anidbEpisodeId, [link.tmdbEpisodeId, MATCH_RATING_BADGES[link.rating]]]));

describe('matchEpisodes: one rating of each kind', () => {
  const episodes = [
    anidb(1, 1, "The Lamp Keeper's Apprentice", '2022-04-04'), // a day early (broadcast time zone): still DT
    anidb(2, 2, 'Low Tide at the Nine Bells', '2022-04-12'), // same date, title differs slightly: ~DT
    anidb(3, 3, 'The Salt Map', '2022-04-19'), // same date, different title: D
    anidb(4, 4, 'Where the Last Lantern Sails', null), // no date, same title: T
    anidb(5, 5, 'Episode 5', null), // placeholder title, no date: BG (position)
    anidb(6, 6, 'Homecomings', null), // no date, similar title: ~T
    anidb(7, 7, 'Epilogue', null), // nothing left on TMDB: None
    anidb(8, 1, 'Harbour Lights - A Look Back', '2022-05-03', 'Special'), // special ↔ season 0: DT
    anidb(9, 1, 'Opening', null, 'Credits'), // never linked automatically: None
  ];

  it('rates every link by its evidence', () => {
    expect(ratingsOf(matchEpisodes(episodes, season))).toEqual({
      1: [101, 'DT'],
      2: [102, '~DT'],
      3: [103, 'D'],
      4: [104, 'T'],
      5: [105, 'BG'],
      6: [106, '~T'],
      7: [0, 'None'],
      8: [100, 'DT'],
      9: [0, 'None'],
    });
  });

  it('returns one link per AniDB episode in input order, with the contract rating names', () => {
    const links = matchEpisodes([...episodes].reverse(), season);
    expect(links.map((link) => link.anidbEpisodeId)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(links.find((link) => link.anidbEpisodeId === 2)?.rating).toBe('DateAndTitleKindaMatches');
    expect(links.find((link) => link.anidbEpisodeId === 5)?.rating).toBe('FirstAvailable');
  });

  it('maps every rating to the badge the console shows', () => {
    expect(MATCH_RATING_BADGES).toEqual({
      DateAndTitleMatches: 'DT',
      DateAndTitleKindaMatches: '~DT',
      DateMatches: 'D',
      TitleMatches: 'T',
      TitleKindaMatches: '~T',
      UserVerified: 'UO',
      FirstAvailable: 'BG',
      None: 'None',
    });
  });
});

describe('matchEpisodes: rules', () => {
  it('accepts dates one day apart but not two (configurable)', () => {
    const two = [anidb(1, 1, 'Unrelated', '2022-04-07')];
    expect(matchEpisodes(two, [season[0]], { positionFallback: false })[0].rating).toBe('None');
    expect(matchEpisodes(two, [season[0]], { positionFallback: false, dateToleranceDays: 2 })[0].rating).toBe('DateMatches');
    // Full timestamps are compared by their date part.
    expect(matchEpisodes([anidb(1, 1, 'Unrelated', '2022-04-05T15:00:00Z')], [season[0]])[0].rating).toBe('DateMatches');
  });

  it('lets evidence override position, and stronger evidence win a contested episode', () => {
    const swapped = [anidb(1, 1, 'A Map Drawn in Salt', null), anidb(2, 2, "The Lamp-Keeper's Apprentice", null)];
    expect(ratingsOf(matchEpisodes(swapped, season.slice(0, 3)))).toEqual({ 1: [103, 'T'], 2: [101, 'T'] });

    // Both claim TMDB 102; the date+title pair wins, the title-only one falls back to a free slot.
    const contested = [anidb(1, 1, 'Low Tide at Nine Bells', null), anidb(2, 2, 'Low Tide at Nine Bells', '2022-04-12')];
    expect(ratingsOf(matchEpisodes(contested, season.slice(0, 2)))).toEqual({ 1: [101, 'BG'], 2: [102, 'DT'] });
  });

  it('breaks same-day ties by title, then by position', () => {
    const doublePremiere = [tmdb(201, 1, 'Departure', '2023-01-07'), tmdb(202, 2, 'Arrival', '2023-01-07')];
    const byTitle = [anidb(1, 1, 'Arrivals', '2023-01-07'), anidb(2, 2, 'Something Else', '2023-01-07')];
    expect(ratingsOf(matchEpisodes(byTitle, doublePremiere))).toEqual({ 1: [202, '~DT'], 2: [201, 'D'] });
    const byPosition = [anidb(1, 1, 'One', '2023-01-07'), anidb(2, 2, 'Two', '2023-01-07')];
    expect(ratingsOf(matchEpisodes(byPosition, doublePremiere))).toEqual({ 1: [201, 'D'], 2: [202, 'D'] });
  });

  it('ignores number-only placeholder titles on both sides', () => {
    const placeholders = [anidb(1, 3, 'Episode 3', null), anidb(2, 4, '第4話', null)];
    const tmdbPlaceholders = [tmdb(301, 1, 'Episode 3', null), tmdb(302, 2, 'Episode 4', null)];
    const links = matchEpisodes(placeholders, tmdbPlaceholders);
    expect(links.map((link) => link.rating)).toEqual(['FirstAvailable', 'FirstAvailable']);
  });

  it('never links specials to regular seasons or regular episodes to season 0', () => {
    const special = anidb(1, 1, "The Lamp-Keeper's Apprentice", '2022-04-05', 'Special');
    const regular = anidb(2, 1, 'Harbour Lights: A Look Back', '2022-05-03');
    expect(ratingsOf(matchEpisodes([special, regular], season))).toEqual({ 1: [100, 'BG'], 2: [101, 'BG'] });
  });

  it('keeps user overrides as UO, never reuses their TMDB episode, and never makes UO itself', () => {
    const episodes = [anidb(1, 1, "The Lamp-Keeper's Apprentice", '2022-04-05'), anidb(2, 2, 'Low Tide at Nine Bells', '2022-04-12')];
    const links = matchEpisodes(episodes, season.slice(0, 3), { userOverrides: [{ anidbEpisodeId: 2, tmdbEpisodeId: 101 }] });
    // AniDB 1's evidence points at TMDB 101, which the user gave to AniDB 2; and since AniDB 2 (its successor) sits on
    // the first TMDB episode, the position fallback has no slot before it either.
    expect(ratingsOf(links)).toEqual({ 1: [0, 'None'], 2: [101, 'UO'] });
    const withoutOverrides = matchEpisodes(episodes, season.slice(0, 3));
    expect(withoutOverrides.some((link) => link.rating === 'UserVerified')).toBe(false);
    // An override to 0 is an explicit "no link" and stays one.
    expect(matchEpisodes(episodes, season, { userOverrides: [{ anidbEpisodeId: 1, tmdbEpisodeId: 0 }] })[0]).toEqual({
      anidbEpisodeId: 1,
      tmdbEpisodeId: 0,
      rating: 'UserVerified',
    });
  });

  it('fills gaps by position without reordering what the evidence established', () => {
    const tmdbSix = [1, 2, 3, 4, 5, 6].map((n) => tmdb(400 + n, n, `Chapter title ${'abcdef'[n - 1].repeat(6)}`, null));
    // AniDB 3 matches TMDB 5 by title, so AniDB 1-2 may only take TMDB 1-4 and AniDB 4 only TMDB 6.
    const episodes = [
      anidb(1, 1, '', null),
      anidb(2, 2, '', null),
      anidb(3, 3, 'Chapter title eeeeee', null),
      anidb(4, 4, '', null),
      anidb(5, 5, '', null),
    ];
    expect(ratingsOf(matchEpisodes(episodes, tmdbSix))).toEqual({
      1: [401, 'BG'],
      2: [402, 'BG'],
      3: [405, 'T'],
      4: [406, 'BG'],
      5: [0, 'None'],
    });
    expect(matchEpisodes(episodes, tmdbSix, { positionFallback: false }).map((link) => link.rating)).toEqual([
      'None',
      'None',
      'TitleMatches',
      'None',
      'None',
    ]);
  });

  it('treats titles under the fuzzy threshold as no evidence', () => {
    const episodes = [anidb(1, 1, 'Low Tide', null)];
    expect(matchEpisodes(episodes, season.slice(0, 2), { positionFallback: false })[0].rating).toBe('None');
    expect(matchEpisodes(episodes, season.slice(0, 2), { positionFallback: false, fuzzyTitleThreshold: 0.4 })[0]).toMatchObject({
      tmdbEpisodeId: 102,
      rating: 'TitleKindaMatches',
    });
  });

  it('reads TMDB season episodes, treating an empty air date as unknown', () => {
    const converted = tmdbEpisodeForMatching(
      {
        id: 9,
        episode_number: 2,
        season_number: 1,
        name: 'Rewound',
        overview: '',
        air_date: '',
        runtime: null,
        still_path: null,
        vote_average: 0,
        vote_count: 0,
      },
      ['巻き戻し'],
    );
    expect(converted).toEqual({ id: 9, seasonNumber: 1, episodeNumber: 2, airDate: null, titles: ['Rewound', '巻き戻し'] });
  });
});
