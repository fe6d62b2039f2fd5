import { describe, expect, it } from 'vitest';
import {
  airDateRange,
  airingStatus,
  anidbDescription,
  animeTypeName,
  episodeLabel,
  ratingText,
  seasonCondition,
  timeSpanMinutes,
} from './seriesFormat';

describe('series page formatting', () => {
  it('derives the airing status from the air and end dates', () => {
    expect(airingStatus(null, null, '2024-01-01')).toBe('Unknown');
    expect(airingStatus('2023-01-01', null, '2024-01-01')).toBe('Currently Airing');
    expect(airingStatus('2023-01-01', '2024-03-01', '2024-01-01')).toBe('Currently Airing');
    expect(airingStatus('2023-01-01', '2023-12-31', '2024-01-01')).toBe('Finished');
    expect(airingStatus('2023-01-01', '2024-01-01T00:00:00Z', '2024-01-01')).toBe('Finished');
  });

  it('formats air date ranges', () => {
    expect(airDateRange('2021-04-06', '2021-04-20')).toBe('Apr 6, 2021 - Apr 20, 2021');
    expect(airDateRange('2019-07-19', '2019-07-19')).toBe('Jul 19, 2019');
    expect(airDateRange(null, '2019-07-19')).toBe('Unknown');
  });

  it('reads minutes from a TimeSpan text', () => {
    expect(timeSpanMinutes('00:24:00')).toBe(24);
    expect(timeSpanMinutes('01:02:30')).toBe(63);
    expect(timeSpanMinutes('1.00:00:00')).toBe(1440);
    expect(timeSpanMinutes(null)).toBeNull();
    expect(timeSpanMinutes('soon')).toBeNull();
  });

  it('turns a first air season into an InSeason live condition', () => {
    expect(seasonCondition('Spring 2021')).toEqual({
      expression: 'InSeason',
      name: 'In Season',
      values: ['2021|Spring'],
      exclude: false,
      matchMode: 'Or',
    });
    expect(seasonCondition('Someday')).toBeNull();
  });

  it('names types, episodes and ratings', () => {
    expect(animeTypeName('TV')).toBe('TV Series');
    expect(animeTypeName('Movie')).toBe('Movie');
    expect(episodeLabel('Special', 2)).toBe('Special 2');
    expect(episodeLabel('Credits', 1)).toBe('Credit 1');
    expect(ratingText({ Value: 8, Type: 'Permanent' })).toBe('8');
    expect(ratingText({ Value: 7.25, Type: 'Temporary' })).toBe('7.3 (Temp)');
    expect(ratingText(null)).toBeNull();
  });

  it('filters AniDB descriptions only when the collection setting asks', () => {
    const text =
      'Mio runs the http://anidb.net/ch123 [lighthouse post office].\n\nSource: Invented Press\nNote: The first season.\n* Based on a picture book.';
    expect(anidbDescription(text, true)).toBe('Mio runs the lighthouse post office.');
    expect(anidbDescription(text, false)).toBe(text);
  });
});
