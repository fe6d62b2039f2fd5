import { describe, expect, it } from 'vitest';
import { CsvFormatError, parseXrefCsv, writeXrefCsv } from './tmdb-xref-csv.js';

describe('cross-reference CSV', () => {
  it('reads a byte-order mark, CR/CRLF line ends, spaces around cells and headers in any case', () => {
    const text =
      '\uFEFF anidbanimeid, tmdbshowid ,RATING\r\n 1 , 2 , firstavailable \r# note\r\rAnidbAnimeId,AnidbEpisodeId,TmdbShowId,TmdbEpisodeId,Rating\n1,10,2,20,none';
    expect(parseXrefCsv(text)).toEqual({
      movies: [],
      shows: [{ animeId: 1, showId: 2, rating: 'FirstAvailable' }],
      episodes: [{ animeId: 1, anidbEpisodeId: 10, showId: 2, tmdbEpisodeId: 20, rating: 'None' }],
    });
  });

  it('refuses ids out of range, signs and fractions, naming the line', () => {
    const lines = [
      'AnidbAnimeId,AnidbEpisodeId,TmdbMovieId,Rating',
      '1,2,3,UserVerified',
      '-1,2,3,UserVerified',
      '1,2.5,3,UserVerified',
      '1,2,2147483648,UserVerified',
      '1,2,0,UserVerified',
    ];
    try {
      parseXrefCsv(lines.join('\n'));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CsvFormatError);
      expect((error as CsvFormatError).messages.map((m) => m.split(':')[0])).toEqual(['Line 3', 'Line 4', 'Line 5', 'Line 6']);
    }
  });

  it('writes only sections with rows, and nothing at all for none', () => {
    expect(writeXrefCsv([{ section: 'Show', rows: [] }], true)).toBe('');
    expect(
      writeXrefCsv(
        [
          { section: 'Movie', rows: [] },
          { section: 'Show', rows: [{ line: '1,2,UserVerified', comment: 'x' }] },
        ],
        false,
      ),
    ).toBe('AnidbAnimeId,TmdbShowId,Rating\n1,2,UserVerified\n');
  });
});
