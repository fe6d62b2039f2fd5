import { describe, expect, it } from 'vitest';
import { listedAnimeTitles } from './map-anidb.js';
import { mapShokoPath } from './map-files.js';
import { anidbProse, isWindowsPath, shokoDay, shokoTime, timeSpanMinutes, tripleBarList, unixDay } from './shoko-values.js';

describe("Shoko's values", () => {
  it("reads DateTime text as this machine's local time, with or without a fraction", () => {
    const local = (y: number, mo: number, d: number, h: number, mi: number, s: number, ms = 0) =>
      new Date(y, mo - 1, d, h, mi, s, ms).toISOString();
    expect(shokoTime('2026-11-25 06:40:11.3470026')).toBe(local(2026, 11, 25, 6, 40, 11, 347));
    expect(shokoTime('2024-07-01 23:59:59')).toBe(local(2024, 7, 1, 23, 59, 59));
    expect(shokoTime('2024-01-15T08:00:00')).toBe(local(2024, 1, 15, 8, 0, 0));
    for (const nothing of [null, undefined, '', 'yesterday', '0001-01-01 00:00:00', '2024-01-15']) expect(shokoTime(nothing)).toBeNull();
  });

  it('keeps calendar days as written and reads AniDB unix days', () => {
    expect(shokoDay('2012-04-06 00:00:00')).toBe('2012-04-06');
    expect(shokoDay(null)).toBeNull();
    expect(unixDay(1333670400)).toBe('2012-04-06');
    expect(unixDay(0)).toBeNull();
  });

  it('reads .NET TimeSpans as minutes and `|||` lists', () => {
    expect(timeSpanMinutes('00:24:00')).toBe(24);
    expect(timeSpanMinutes('1.02:00:30')).toBe(1561);
    expect(timeSpanMinutes(null)).toBeNull();
    expect(tripleBarList('Animation|||Comedy||| ')).toEqual(['Animation', 'Comedy']);
  });
});

describe('path maps', () => {
  it('recognises Windows paths', () => {
    expect(isWindowsPath('D:\\Anime\\')).toBe(true);
    expect(isWindowsPath('\\\\nas\\anime')).toBe(true);
    expect(isWindowsPath('/srv/anime/')).toBe(false);
  });

  it('maps the longest matching prefix, Windows paths without regard to case or separator', () => {
    const map = [
      { From: 'D:\\', To: '/mnt/d' },
      { From: 'D:\\Anime\\', To: '/srv/anime/' },
    ];
    expect(mapShokoPath('d:\\anime\\Series\\', map)).toEqual({ path: '/srv/anime/Series/', mapped: true });
    expect(mapShokoPath('D:\\Other\\', map)).toEqual({ path: '/mnt/d/Other/', mapped: true });
    expect(mapShokoPath('/data/anime/', [{ From: '/data/', To: '/srv/' }])).toEqual({ path: '/srv/anime/', mapped: true });
    expect(mapShokoPath('E:\\Anime\\', map)).toEqual({ path: 'E:\\Anime\\', mapped: false });
  });
});

describe("AniDB's prose as Shoko kept it", () => {
  it('is decoded the rest of the way, as our own AniDB download reads it', () => {
    expect(anidbProse('Tom &amp; Jerry say &quot;hi&quot; &lt;3')).toBe('Tom & Jerry say "hi" <3');
    expect(anidbProse(null)).toBe('');
  });
});

describe('the titles an AniDB document lists with its related and similar anime', () => {
  it('reads them without parsing the document, entities decoded', () => {
    const xml = `<anime id="1"><relatedanime><anime id="2" type="Sequel">Kaze &amp; Tsuki</anime></relatedanime>
      <similaranime><anime id="3" approval="5" total="9">Hoshi</anime></similaranime><characters><anime id="9">not this</anime></characters></anime>`;
    expect(listedAnimeTitles(xml)).toEqual(
      new Map([
        [2, 'Kaze & Tsuki'],
        [3, 'Hoshi'],
      ]),
    );
  });
});
