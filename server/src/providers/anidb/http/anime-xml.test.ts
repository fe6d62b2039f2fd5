import { describe, expect, it } from 'vitest';
import { inventedAnimeXml, inventedEpisodeId } from '../../../../../fakes/src/anidb-http/sample-anime.js';
import { animeTypeFromText, AniDBInvalidAnimeXmlError, parseAnimeXml, parseEpno } from './index.js';

const minimalAnime = (inner: string, root = 'id="7001"') =>
  `<?xml version="1.0" encoding="UTF-8"?><anime ${root}><titles><title xml:lang="x-jat" type="main">Kari</title></titles>${inner}</anime>`;

describe('parseAnimeXml on the invented record', () => {
  const anime = parseAnimeXml(inventedAnimeXml());

  it('reads the head of the record', () => {
    expect(anime).toMatchObject({
      id: 9001,
      type: 'TV',
      restricted: false,
      episodeCount: 3,
      specialCount: 2,
      startDate: '2021-04-06',
      endDate: '2021-04-20',
      mainTitle: 'Kiri no Toudai Yuubinkyoku',
      picture: '900101.jpg',
      url: 'https://example.test/kiri-yuubin',
      ratings: { permanent: { value: 7.38, count: 142 }, temporary: { value: 7.52, count: 150 }, review: { value: 8, count: 3 } },
    });
  });

  it('keeps every title with its type and language', () => {
    expect(anime.titles).toEqual([
      { type: 'main', language: 'x-jat', value: 'Kiri no Toudai Yuubinkyoku' },
      { type: 'official', language: 'ja', value: '霧の灯台郵便局' },
      { type: 'official', language: 'en', value: 'The Post Office in the Foggy Lighthouse' },
      { type: 'synonym', language: 'en', value: 'Foggy Lighthouse Mail' },
      { type: 'short', language: 'x-jat', value: 'KiriYuu' },
    ]);
  });

  it('decodes double-escaped entities and backtick apostrophes in the description', () => {
    expect(anime.description).toBe(
      'In a harbour town where the fog never lifts, http://anidb.net/ch49001 [Mio] delivers letters nobody wrote. ' +
        'Based on the novel by http://anidb.net/cr59103 [Shiraishi Nagi]. It\'s "a gentle mystery" & a coming-of-age story.',
    );
  });

  it('maps resources to site names and links', () => {
    expect(anime.resources).toEqual([
      {
        type: 1,
        site: 'Anime News Network',
        entities: [{ identifiers: ['99001'], url: 'https://www.animenewsnetwork.com/encyclopedia/anime.php?id=99001' }],
      },
      { type: 2, site: 'MyAnimeList', entities: [{ identifiers: ['99002'], url: 'https://myanimelist.net/anime/99002' }] },
      { type: 4, site: 'Official Japanese site', entities: [{ identifiers: [], url: 'https://example.test/kiri-yuubin/ja' }] },
      {
        type: 6,
        site: 'Wikipedia (en)',
        entities: [
          {
            identifiers: ['The_Post_Office_in_the_Foggy_Lighthouse'],
            url: 'https://en.wikipedia.org/wiki/The_Post_Office_in_the_Foggy_Lighthouse',
          },
        ],
      },
    ]);
  });

  it('reads tags with parents, weights, spoiler and verified flags', () => {
    expect(anime.tags).toHaveLength(6);
    expect(anime.tags[0]).toEqual({
      id: 39001,
      parentId: null,
      name: 'setting',
      description: 'Where and when the story takes place.',
      weight: 0,
      localSpoiler: false,
      globalSpoiler: false,
      verified: true,
      updated: '2021-05-01',
    });
    expect(anime.tags.find((t) => t.name === 'lighthouse')).toMatchObject({ parentId: 39001, weight: 500 });
    expect(anime.tags.find((t) => t.name === 'coming of age')).toMatchObject({ verified: false, description: null });
    expect(anime.tags.find((t) => t.name === 'the sender is the narrator')).toMatchObject({ localSpoiler: true, globalSpoiler: false });
    expect(anime.tags.find((t) => t.name === 'ghost protagonist')).toMatchObject({ localSpoiler: false, globalSpoiler: true });
  });

  it('reads characters with their voice actors', () => {
    expect(anime.characters).toEqual([
      {
        id: 49001,
        role: 'main character in',
        name: 'Hayase Mio',
        gender: 'female',
        characterType: 'Character',
        description: 'The youngest postal worker in the harbour town.',
        picture: '4900101.jpg',
        rating: { value: 8.1, count: 15 },
        seiyuu: [{ id: 59001, name: 'Minase Kaori', picture: '5900101.jpg' }],
      },
      {
        id: 49002,
        role: 'secondary cast in',
        name: 'Ojiisan the Keeper',
        gender: 'male',
        characterType: 'Character',
        description: null,
        picture: '4900201.jpg',
        rating: null,
        seiyuu: [
          { id: 59002, name: 'Tachibana Gen', picture: '5900201.jpg' },
          { id: 59003, name: 'Kisaragi Ren', picture: null },
        ],
      },
    ]);
  });

  it('reads staff, relations and similar anime', () => {
    expect(anime.creators).toEqual([
      { id: 59101, type: 'Direction', name: 'Aomine Tsukasa' },
      { id: 59102, type: 'Music', name: 'Kuroda Hibiki' },
      { id: 59103, type: 'Original Work', name: 'Shiraishi Nagi' },
      { id: 59104, type: 'Animation Work', name: 'Studio Kazamidori' },
    ]);
    expect(anime.relatedAnime).toEqual([
      { id: 9002, relation: 'Sequel', title: 'Kiri no Toudai Yuubinkyoku 2' },
      { id: 9003, relation: 'Side Story', title: 'Kiri no Toudai Yuubinkyoku: Tegami no Hi' },
    ]);
    expect(anime.similarAnime).toEqual([{ id: 9101, approval: 14, total: 21, title: 'Yozora Tegami Ressha' }]);
  });

  it('types and numbers every episode from its epno', () => {
    expect(anime.episodes.map((e) => [e.epno, e.type, e.number])).toEqual([
      ['1', 'Episode', 1],
      ['2', 'Episode', 2],
      ['3', 'Episode', 3],
      ['S1', 'Special', 1],
      ['S2', 'Special', 2],
      ['C1', 'Credits', 1],
      ['C2', 'Credits', 2],
      ['T1', 'Trailer', 1],
      ['P1', 'Parody', 1],
      ['O1', 'Other', 1],
    ]);
    expect(anime.episodes.map((e) => e.id)).toContain(inventedEpisodeId(9001, 'C2'));
  });

  it('reads an episode in full, with CDATA summary and resources', () => {
    expect(anime.episodes[0]).toEqual({
      id: inventedEpisodeId(9001, '1'),
      epno: '1',
      type: 'Episode',
      number: 1,
      lengthMinutes: 24,
      airDate: '2021-04-06',
      rating: { value: 7, count: 10 },
      titles: [
        { language: 'en', value: 'Letter Number 1' },
        { language: 'x-jat', value: 'Tegami 1-gou' },
        { language: 'ja', value: '手紙1号' },
      ],
      summary: 'Mio finds a letter addressed to the lighthouse itself & decides to <deliver> it.',
      // Episode resources keep identifiers but get no anime-page link.
      resources: [{ type: 28, site: 'Crunchyroll', entities: [{ identifiers: ['GINVENTED01'], url: null }] }],
      updated: '2022-01-15',
    });
    const recap = anime.episodes.find((e) => e.epno === 'S1')!;
    expect(recap).toMatchObject({ airDate: '2021-05-06', rating: null, summary: "Mio's notes on the first three deliveries." });
    expect(anime.episodes.find((e) => e.epno === 'S2')!.airDate).toBeNull();
  });

  it('honours the generator options', () => {
    const movie = parseAnimeXml(inventedAnimeXml({ id: 9500, title: 'Sora & Umi', type: 'Movie', regularEpisodes: 1, restricted: true }));
    expect(movie).toMatchObject({
      id: 9500,
      type: 'Movie',
      restricted: true,
      episodeCount: 1,
      mainTitle: 'Sora & Umi',
      endDate: '2021-04-06',
    });
  });
});

describe('parseAnimeXml edge cases', () => {
  it('rejects bodies that are not a usable anime record', () => {
    expect(() => parseAnimeXml('<error>Anime not found</error>')).toThrow(AniDBInvalidAnimeXmlError);
    expect(() => parseAnimeXml('<anime id="5"><titles><title xml:lang="en" type="official">X</title></titles></anime>')).toThrow(
      /no main title/,
    );
    expect(() => parseAnimeXml(minimalAnime('', 'id="abc"'))).toThrow(AniDBInvalidAnimeXmlError);
    expect(() => parseAnimeXml('<anime id="5"><titles>')).toThrow(/malformed/);
  });

  it('pads partial dates and clamps an end before the start', () => {
    expect(parseAnimeXml(minimalAnime('<startdate>2019-07</startdate><enddate>2020</enddate>'))).toMatchObject({
      startDate: '2019-07-01',
      endDate: '2020-01-01',
    });
    expect(parseAnimeXml(minimalAnime('<startdate>2019-07-10</startdate><enddate>2019-07-01</enddate>'))).toMatchObject({
      endDate: '2019-07-10',
    });
    expect(parseAnimeXml(minimalAnime('<startdate>2019-13-01</startdate>'))).toMatchObject({ startDate: null, endDate: null });
  });

  it('decodes numeric entities and leaves unknown ones alone', () => {
    const anime = parseAnimeXml(
      minimalAnime('<description>Rock &amp;#39;n&amp;#x2019; roll &amp;bogus; &lt;b&gt;</description>').replace(
        'Kari',
        'Kari &amp;amp; Kuro',
      ),
    );
    expect(anime.mainTitle).toBe('Kari & Kuro');
    expect(anime.description).toBe("Rock 'n\u2019 roll &bogus; <b>");
  });

  it('defaults what a sparse record leaves out', () => {
    expect(parseAnimeXml(minimalAnime(''))).toMatchObject({
      type: 'Unknown',
      restricted: false,
      episodeCount: 0,
      specialCount: 0,
      startDate: null,
      description: null,
      picture: null,
      ratings: { permanent: null, temporary: null, review: null },
      tags: [],
      episodes: [],
    });
  });
});

describe('epno and anime types', () => {
  it('takes the type from the first character and the first number', () => {
    expect(parseEpno('12')).toEqual({ type: 'Episode', number: 12 });
    expect(parseEpno('5-6')).toEqual({ type: 'Episode', number: 5 });
    expect(parseEpno('s3')).toEqual({ type: 'Special', number: 3 });
    expect(parseEpno('C10')).toEqual({ type: 'Credits', number: 10 });
    expect(parseEpno('X1')).toEqual({ type: 'Unknown', number: 1 });
    expect(parseEpno('', '4')).toEqual({ type: 'Trailer', number: 0 });
  });

  it('maps AniDB type texts to the APIv3 names', () => {
    expect(['TV Series', 'Movie', 'OVA', 'TV Special', 'web', 'Music Video', 'Other', 'Manga', null].map(animeTypeFromText)).toEqual([
      'TV',
      'Movie',
      'OVA',
      'TVSpecial',
      'Web',
      'MusicVideo',
      'Other',
      'Unknown',
      'Unknown',
    ]);
  });
});
