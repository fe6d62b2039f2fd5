/**
 * Anime XML for invented series, shaped like AniDB's `request=anime` replies. Every title, name, id, date and link
 * is made up. The default record (anime 9001) carries all the awkward parts: episodes of every type, titles in three
 * languages, nested and spoiler tags, two characters with voice actors, staff, relations, similar anime, ratings,
 * resources, double-escaped text, a backtick apostrophe and a CDATA section.
 */

export interface InventedAnimeOptions {
  id?: number;
  /** The romaji main title. */
  title?: string;
  englishTitle?: string;
  japaneseTitle?: string;
  /** AniDB's type text: `TV Series`, `OVA`, `Movie`, `TV Special`, `Web`, `Music Video`, `Other`. */
  type?: string;
  regularEpisodes?: number;
  /** `YYYY-MM-DD`; regular episodes air weekly from here. */
  startDate?: string;
  restricted?: boolean;
  picture?: string;
  relatedAnime?: Array<{ id: number; relation: string; title: string }>;
  similarAnime?: Array<{ id: number; approval: number; total: number; title: string }>;
}

const EPNO_ID_OFFSETS: Record<string, number> = { '': 0, S: 100, C: 200, T: 300, P: 400, O: 500 };
const EPNO_TYPE_NUMBERS: Record<string, number> = { '': 1, S: 2, C: 3, T: 4, P: 5, O: 6 };

/** The episode id the invented record gives `epno` (`3`, `S1`, `C2`, ...), for fake files that point at it. */
export function inventedEpisodeId(animeId: number, epno: string): number {
  const [, prefix = '', number = '0'] = epno.match(/^([SCTPO]?)(\d+)$/) ?? [];
  return animeId * 1000 + EPNO_ID_OFFSETS[prefix] + Number(number);
}

const escapeXml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function addDays(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

interface InventedEpisode {
  epno: string;
  minutes: number;
  airdate?: string;
  titles: Record<string, string>;
  summary?: string;
  rating?: [number, number];
}

function episodeXml(animeId: number, episode: InventedEpisode): string {
  const prefix = episode.epno.replace(/\d+$/, '');
  const titles = Object.entries(episode.titles)
    .map(([lang, title]) => `<title xml:lang="${lang}">${escapeXml(title)}</title>`)
    .join('');
  return [
    `    <episode id="${inventedEpisodeId(animeId, episode.epno)}" update="2022-01-15">`,
    `<epno type="${EPNO_TYPE_NUMBERS[prefix]}">${episode.epno}</epno>`,
    `<length>${episode.minutes}</length>`,
    episode.airdate ? `<airdate>${episode.airdate}</airdate>` : '',
    episode.rating ? `<rating votes="${episode.rating[1]}">${episode.rating[0].toFixed(2)}</rating>` : '',
    titles,
    episode.summary ?? '',
    '</episode>',
  ].join('');
}

export function inventedAnimeXml(options: InventedAnimeOptions = {}): string {
  const id = options.id ?? 9001;
  const title = options.title ?? 'Kiri no Toudai Yuubinkyoku';
  const englishTitle = options.englishTitle ?? 'The Post Office in the Foggy Lighthouse';
  const japaneseTitle = options.japaneseTitle ?? '霧の灯台郵便局';
  const startDate = options.startDate ?? '2021-04-06';
  const regularCount = options.regularEpisodes ?? 3;
  const related = options.relatedAnime ?? [
    { id: id + 1, relation: 'Sequel', title: `${title} 2` },
    { id: id + 2, relation: 'Side Story', title: `${title}: Tegami no Hi` },
  ];
  const similar = options.similarAnime ?? [{ id: id + 100, approval: 14, total: 21, title: 'Yozora Tegami Ressha' }];

  const regular: InventedEpisode[] = Array.from({ length: regularCount }, (_, index) => ({
    epno: String(index + 1),
    minutes: 24,
    airdate: addDays(startDate, index * 7),
    titles: { en: `Letter Number ${index + 1}`, 'x-jat': `Tegami ${index + 1}-gou`, ja: `手紙${index + 1}号` },
    rating: [7 + index / 10, 10 + index],
  }));
  if (regular[0]) {
    regular[0].summary =
      '<summary><![CDATA[Mio finds a letter addressed to the lighthouse itself & decides to <deliver> it.]]></summary>' +
      '<resources><resource type="28"><externalentity><identifier>GINVENTED01</identifier></externalentity></resource></resources>';
  }
  const extras: InventedEpisode[] = [
    {
      epno: 'S1',
      minutes: 5,
      airdate: addDays(startDate, 30),
      titles: { en: 'Recap: The First Bag of Mail' },
      summary: '<summary>Mio`s notes on the first three deliveries.</summary>',
    },
    { epno: 'S2', minutes: 12, titles: { en: 'Fog Day Special', 'x-jat': 'Kiri no Hi Tokubetsu-hen' } },
    { epno: 'C1', minutes: 2, titles: { en: 'Opening: Paper Beacon' } },
    { epno: 'C2', minutes: 2, titles: { en: 'Ending: Return to Sender' } },
    { epno: 'T1', minutes: 1, titles: { en: 'Teaser PV' } },
    { epno: 'P1', minutes: 3, titles: { en: 'Postal Chibi Theatre' } },
    { epno: 'O1', minutes: 8, titles: { en: 'Staff Talk at the Lighthouse' } },
  ];
  const lastAirdate = regular.at(-1)?.airdate ?? startDate;

  return `<?xml version="1.0" encoding="UTF-8"?>
<anime id="${id}" restricted="${options.restricted ?? false}">
  <type>${escapeXml(options.type ?? 'TV Series')}</type>
  <episodecount>${regularCount}</episodecount>
  <startdate>${startDate}</startdate>
  <enddate>${lastAirdate}</enddate>
  <titles>
    <title xml:lang="x-jat" type="main">${escapeXml(title)}</title>
    <title xml:lang="ja" type="official">${escapeXml(japaneseTitle)}</title>
    <title xml:lang="en" type="official">${escapeXml(englishTitle)}</title>
    <title xml:lang="en" type="synonym">Foggy Lighthouse Mail</title>
    <title xml:lang="x-jat" type="short">KiriYuu</title>
  </titles>
  <relatedanime>
${related.map((r) => `    <anime id="${r.id}" type="${escapeXml(r.relation)}">${escapeXml(r.title)}</anime>`).join('\n')}
  </relatedanime>
  <similaranime>
${similar.map((s) => `    <anime id="${s.id}" approval="${s.approval}" total="${s.total}">${escapeXml(s.title)}</anime>`).join('\n')}
  </similaranime>
  <recommendations total="1"><recommendation type="Recommended" uid="700001">Quiet and kind.</recommendation></recommendations>
  <url>https://example.test/kiri-yuubin</url>
  <creators>
    <name id="59101" type="Direction">Aomine Tsukasa</name>
    <name id="59102" type="Music">Kuroda Hibiki</name>
    <name id="59103" type="Original Work">Shiraishi Nagi</name>
    <name id="59104" type="Animation Work">Studio Kazamidori</name>
  </creators>
  <description>In a harbour town where the fog never lifts, http://anidb.net/ch49001 [Mio] delivers letters nobody wrote. Based on the novel by http://anidb.net/cr59103 [Shiraishi Nagi]. It\`s &amp;quot;a gentle mystery&amp;quot; &amp;amp; a coming-of-age story.</description>
  <ratings>
    <permanent count="142">7.38</permanent>
    <temporary count="150">7.52</temporary>
    <review count="3">8.00</review>
  </ratings>
  <picture>${escapeXml(options.picture ?? `${id}01.jpg`)}</picture>
  <resources>
    <resource type="1"><externalentity><identifier>99001</identifier></externalentity></resource>
    <resource type="2"><externalentity><identifier>99002</identifier></externalentity></resource>
    <resource type="4"><externalentity><url>https://example.test/kiri-yuubin/ja</url></externalentity></resource>
    <resource type="6"><externalentity><identifier>The_Post_Office_in_the_Foggy_Lighthouse</identifier></externalentity></resource>
  </resources>
  <tags>
    <tag id="39001" parentid="0" weight="0" localspoiler="false" globalspoiler="false" verified="true" update="2021-05-01"><name>setting</name><description>Where and when the story takes place.</description></tag>
    <tag id="39002" parentid="39001" weight="500" localspoiler="false" globalspoiler="false" verified="true" update="2021-05-01"><name>lighthouse</name><description>Much of the story happens in or around a lighthouse.</description></tag>
    <tag id="39003" parentid="0" weight="0" localspoiler="false" globalspoiler="false" verified="true" update="2021-05-01"><name>elements</name></tag>
    <tag id="39004" parentid="39003" weight="300" localspoiler="false" globalspoiler="false" verified="false" update="2021-05-02"><name>coming of age</name></tag>
    <tag id="39005" parentid="39003" weight="200" localspoiler="true" globalspoiler="false" verified="true" update="2021-05-03"><name>the sender is the narrator</name></tag>
    <tag id="39006" parentid="39003" weight="100" localspoiler="false" globalspoiler="true" verified="true" update="2021-05-04"><name>ghost protagonist</name><picurl>39006.jpg</picurl></tag>
  </tags>
  <characters>
    <character id="49001" type="main character in" update="2021-05-02">
      <rating votes="15">8.10</rating>
      <name>Hayase Mio</name>
      <gender>female</gender>
      <charactertype id="1">Character</charactertype>
      <description>The youngest postal worker in the harbour town.</description>
      <picture>4900101.jpg</picture>
      <seiyuu id="59001" picture="5900101.jpg">Minase Kaori</seiyuu>
    </character>
    <character id="49002" type="secondary cast in" update="2021-05-02">
      <name>Ojiisan the Keeper</name>
      <gender>male</gender>
      <charactertype id="1">Character</charactertype>
      <picture>4900201.jpg</picture>
      <seiyuu id="59002" picture="5900201.jpg">Tachibana Gen</seiyuu>
      <seiyuu id="59003">Kisaragi Ren</seiyuu>
    </character>
  </characters>
  <episodes>
${[...regular, ...extras].map((episode) => episodeXml(id, episode)).join('\n')}
  </episodes>
</anime>
`;
}
