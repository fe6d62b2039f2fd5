import { describe, expect, it } from 'vitest';
import type { TmdbEpisodeGroupDetails, TmdbMovieDetails, TmdbSeasonDetails, TmdbShowDetails } from '../../providers/tmdb/index.js';
import { movieSnapshot, showSnapshot, splitGenres } from './tmdb-snapshot.js';

const movie = (overrides: Partial<TmdbMovieDetails>): TmdbMovieDetails => ({
  id: 1,
  title: 'Top-level Title',
  original_title: 'Original',
  original_language: 'ja',
  overview: 'Top-level overview',
  adult: false,
  video: false,
  release_date: '2020-01-01',
  poster_path: null,
  backdrop_path: null,
  genres: [],
  belongs_to_collection: null,
  production_companies: [],
  production_countries: [{ iso_3166_1: 'JP', name: 'Japan' }],
  runtime: 0,
  vote_average: 0,
  vote_count: 0,
  ...overrides,
});

describe('TMDB answers as stored rows', () => {
  it('splits "A & B" genres in two and drops repeats', () => {
    expect(splitGenres(['Action & Adventure', 'Adventure', 'Animation'])).toEqual(['Action', 'Adventure', 'Animation']);
  });

  it("takes a movie's first theatrical release in its production country, and the last certification per country", () => {
    const snapshot = movieSnapshot(
      movie({
        release_dates: {
          results: [
            {
              iso_3166_1: 'US',
              release_dates: [{ certification: 'PG', release_date: '2020-05-01T00:00:00.000Z', type: 3, iso_639_1: '', note: '' }],
            },
            {
              iso_3166_1: 'JP',
              release_dates: [
                { certification: '', release_date: '2020-02-01T00:00:00.000Z', type: 1, iso_639_1: '', note: '' },
                { certification: 'G', release_date: '2020-03-01T00:00:00.000Z', type: 3, iso_639_1: '', note: '' },
                { certification: 'PG12', release_date: '2020-09-01T00:00:00.000Z', type: 5, iso_639_1: '', note: '' },
              ],
            },
          ],
        },
      }),
      { withCredits: false, withImages: false },
    );
    expect(snapshot.movie.released_at).toBe('2020-03-01');
    expect(JSON.parse(snapshot.movie.content_ratings)).toEqual([
      { country: 'US', rating: 'PG' },
      { country: 'JP', rating: 'PG12' },
    ]);
    expect(snapshot.movie.runtime_minutes).toBeNull();
    // Not fetched means "leave the stored ones": null, not an empty list.
    expect(snapshot.credits).toBeNull();
    expect(snapshot.images).toBeNull();
  });

  it('falls back to release_date without release dates, and prefers the English translation for texts', () => {
    const snapshot = movieSnapshot(
      movie({
        translations: {
          translations: [
            { iso_3166_1: 'JP', iso_639_1: 'ja', name: '日本語', english_name: 'Japanese', data: { title: '日本語の題', overview: '' } },
            {
              iso_3166_1: 'US',
              iso_639_1: 'en',
              name: 'English',
              english_name: 'English',
              data: { title: 'English Title', overview: 'English overview' },
            },
          ],
        },
      }),
      { withCredits: false, withImages: true },
    );
    expect(snapshot.movie).toMatchObject({ released_at: '2020-01-01', title: 'English Title', overview: 'English overview' });
    expect(JSON.parse(snapshot.movie.titles)).toHaveLength(2);
    expect(JSON.parse(snapshot.movie.overviews)).toEqual([{ language: 'en', country: 'US', value: 'English overview' }]);
    expect(snapshot.images).toEqual([]);
  });

  it('numbers the episodes of an alternate ordering by position inside each group, groups by their order', () => {
    const show = {
      id: 5,
      name: 'Show',
      original_name: 'Show',
      original_language: 'ja',
      overview: '',
      adult: false,
      poster_path: null,
      backdrop_path: null,
      genres: [],
      production_companies: [],
      production_countries: [],
      number_of_seasons: 1,
      vote_average: 0,
      vote_count: 0,
      first_air_date: '2020-01-01',
      last_air_date: '2020-03-01',
      status: 'Returning Series',
      seasons: [],
    } satisfies TmdbShowDetails;
    const episode = (id: number, episodeNumber: number, order: number) => ({
      id,
      episode_number: episodeNumber,
      season_number: 1,
      name: `E${episodeNumber}`,
      overview: '',
      air_date: null,
      runtime: null,
      still_path: null,
      vote_average: 0,
      vote_count: 0,
      order,
    });
    const season: TmdbSeasonDetails = {
      id: 50,
      name: 'Season 1',
      overview: '',
      season_number: 1,
      poster_path: null,
      episodes: [1, 2, 3].map((n) => episode(500 + n, n, 0)),
    };
    const group: TmdbEpisodeGroupDetails = {
      id: 'abcdefabcdefabcdefabcdef',
      name: 'Arcs',
      description: '',
      episode_count: 3,
      group_count: 2,
      type: 5,
      network: null,
      groups: [
        { id: 'g2', name: 'Second', order: 2, locked: true, episodes: [episode(503, 3, 0)] },
        { id: 'g1', name: 'First', order: 1, locked: true, episodes: [episode(502, 2, 1), episode(501, 1, 0)] },
      ],
    };
    const snapshot = showSnapshot(show, [season], [group], { withCredits: false, withImages: false });
    expect(snapshot.orderings![0].episodes.map((e) => [e.episode_id, e.season_number, e.episode_number])).toEqual([
      [501, 1, 1],
      [502, 1, 2],
      [503, 2, 1],
    ]);
    // TMDB's last air date only counts once the show has ended.
    expect(snapshot.show.last_aired_at).toBeNull();
    expect(snapshot.episodes.map((e) => e.season_id)).toEqual([50, 50, 50]);
  });
});
