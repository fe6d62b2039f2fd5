import { XMLParser } from 'fast-xml-parser';
import { AniDBInvalidAnimeXmlError } from './errors.js';
import type {
  AniDBAnime,
  AniDBAnimeType,
  AniDBCharacter,
  AniDBEpisode,
  AniDBEpisodeType,
  AniDBRating,
  AniDBTag,
  AniDBTitle,
} from './model.js';
import { parseResources } from './resources.js';
import { attr, child, childProse, children, childText, decimal, flag, integer, isoDate, prose, text } from './xml-nodes.js';

const xmlParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  // Every value stays a string: ids and epnos like "01" or "1e3" must not turn into numbers behind our back.
  parseTagValue: false,
  parseAttributeValue: false,
  // Entities are decoded by xml-nodes (AniDB double-escapes); this also keeps DOCTYPE entity expansion off.
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const ANIME_TYPES: Record<string, AniDBAnimeType> = {
  'tv series': 'TV',
  movie: 'Movie',
  ova: 'OVA',
  'tv special': 'TVSpecial',
  web: 'Web',
  other: 'Other',
  'music video': 'MusicVideo',
};

export function animeTypeFromText(value: string | null): AniDBAnimeType {
  return ANIME_TYPES[value?.trim().toLowerCase() ?? ''] ?? 'Unknown';
}

const EPNO_PREFIXES: Record<string, AniDBEpisodeType> = { S: 'Special', C: 'Credits', T: 'Trailer', P: 'Parody', O: 'Other' };
/** AniDB's `<epno type="N">` numbering, used only when the epno text is empty. */
const EPNO_TYPE_NUMBERS: Record<string, AniDBEpisodeType> = {
  1: 'Episode',
  2: 'Special',
  3: 'Credits',
  4: 'Trailer',
  5: 'Parody',
  6: 'Other',
};

/**
 * The episode type comes from the epno text's first character (a digit means a regular episode), as Shoko does; the
 * number is the first run of digits, so `5-6` is episode 5.
 */
export function parseEpno(epno: string, typeAttribute: string | null = null): { type: AniDBEpisodeType; number: number } {
  const value = epno.trim();
  const number = Number(value.match(/\d+/)?.[0] ?? 0);
  if (value === '') return { type: EPNO_TYPE_NUMBERS[typeAttribute ?? ''] ?? 'Unknown', number };
  if (/^\d/.test(value)) return { type: 'Episode', number };
  return { type: EPNO_PREFIXES[value[0].toUpperCase()] ?? 'Unknown', number };
}

/** Parses a `request=anime` reply. Throws `AniDBInvalidAnimeXmlError` for anything that is not a usable record. */
export function parseAnimeXml(xml: string): AniDBAnime {
  let document: unknown;
  try {
    document = xmlParser.parse(xml, true);
  } catch (error) {
    throw new AniDBInvalidAnimeXmlError(`AniDB anime XML is malformed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const anime = child(document, 'anime');
  const id = integer(attr(anime, 'id'));
  if (!anime || id === null || id <= 0) throw new AniDBInvalidAnimeXmlError('The reply has no <anime id="..."> record');

  const titles = children(child(anime, 'titles'), 'title').flatMap((node): AniDBTitle[] => {
    const value = prose(node);
    return value ? [{ type: attr(node, 'type') ?? 'synonym', language: attr(node, 'xml:lang') ?? '', value }] : [];
  });
  const mainTitle = titles.find((title) => title.type === 'main')?.value;
  if (!mainTitle) throw new AniDBInvalidAnimeXmlError(`AniDB anime ${id} has no main title`);

  const startDate = isoDate(childText(anime, 'startdate'));
  const endDate = isoDate(childText(anime, 'enddate'));
  const ratings = child(anime, 'ratings');
  const episodes = children(child(anime, 'episodes'), 'episode').flatMap(parseEpisode);
  return {
    id,
    type: animeTypeFromText(childText(anime, 'type')),
    restricted: flag(attr(anime, 'restricted')),
    episodeCount: integer(childText(anime, 'episodecount')) ?? 0,
    specialCount: episodes.filter((episode) => episode.type === 'Special').length,
    startDate,
    // AniDB data entry sometimes has the end before the start; Shoko clamps it.
    endDate: startDate && endDate && endDate < startDate ? startDate : endDate,
    mainTitle,
    titles,
    description: childProse(anime, 'description'),
    picture: childText(anime, 'picture'),
    url: childText(anime, 'url'),
    resources: parseResources(child(anime, 'resources'), 'anime'),
    ratings: {
      permanent: parseRating(child(ratings, 'permanent')),
      temporary: parseRating(child(ratings, 'temporary')),
      review: parseRating(child(ratings, 'review')),
    },
    tags: children(child(anime, 'tags'), 'tag').flatMap(parseTag),
    characters: children(child(anime, 'characters'), 'character').flatMap(parseCharacter),
    creators: children(child(anime, 'creators'), 'name').flatMap((node) => {
      const creatorId = integer(attr(node, 'id'));
      const name = prose(node);
      return creatorId !== null && name ? [{ id: creatorId, type: attr(node, 'type') ?? '', name }] : [];
    }),
    relatedAnime: children(child(anime, 'relatedanime'), 'anime').flatMap((node) => {
      const relatedId = integer(attr(node, 'id'));
      return relatedId !== null ? [{ id: relatedId, relation: attr(node, 'type') ?? '', title: prose(node) ?? '' }] : [];
    }),
    similarAnime: children(child(anime, 'similaranime'), 'anime').flatMap((node) => {
      const similarId = integer(attr(node, 'id'));
      if (similarId === null) return [];
      return [
        {
          id: similarId,
          approval: integer(attr(node, 'approval')) ?? 0,
          total: integer(attr(node, 'total')) ?? 0,
          title: prose(node) ?? '',
        },
      ];
    }),
    episodes,
  };
}

/** `<permanent count="12">7.45</permanent>`; episode and character ratings count `votes` instead. */
function parseRating(node: unknown): AniDBRating | null {
  const value = decimal(text(node));
  if (value === null) return null;
  return { value, count: integer(attr(node, 'count') ?? attr(node, 'votes')) ?? 0 };
}

function parseTag(node: unknown): AniDBTag[] {
  const id = integer(attr(node, 'id'));
  const name = childProse(node, 'name');
  if (id === null || !name) return [];
  const parentId = integer(attr(node, 'parentid'));
  return [
    {
      id,
      parentId: parentId ? parentId : null,
      name,
      description: childProse(node, 'description'),
      weight: integer(attr(node, 'weight')) ?? 0,
      localSpoiler: flag(attr(node, 'localspoiler')),
      globalSpoiler: flag(attr(node, 'globalspoiler')),
      verified: flag(attr(node, 'verified')),
      updated: isoDate(attr(node, 'update')),
    },
  ];
}

function parseCharacter(node: unknown): AniDBCharacter[] {
  const id = integer(attr(node, 'id'));
  const name = childProse(node, 'name');
  if (id === null || !name) return [];
  return [
    {
      id,
      role: attr(node, 'type') ?? '',
      name,
      gender: childText(node, 'gender'),
      characterType: childText(node, 'charactertype'),
      description: childProse(node, 'description'),
      picture: childText(node, 'picture'),
      rating: parseRating(child(node, 'rating')),
      seiyuu: children(node, 'seiyuu').flatMap((seiyuu) => {
        const seiyuuId = integer(attr(seiyuu, 'id'));
        const seiyuuName = prose(seiyuu);
        return seiyuuId !== null && seiyuuName ? [{ id: seiyuuId, name: seiyuuName, picture: attr(seiyuu, 'picture') || null }] : [];
      }),
    },
  ];
}

function parseEpisode(node: unknown): AniDBEpisode[] {
  const id = integer(attr(node, 'id'));
  if (id === null) return [];
  const epnoNode = child(node, 'epno');
  const epno = text(epnoNode) ?? '';
  return [
    {
      id,
      epno,
      ...parseEpno(epno, attr(epnoNode, 'type')),
      lengthMinutes: integer(childText(node, 'length')) ?? 0,
      airDate: isoDate(childText(node, 'airdate')),
      rating: parseRating(child(node, 'rating')),
      titles: children(node, 'title').flatMap((title) => {
        const value = prose(title);
        return value ? [{ language: attr(title, 'xml:lang') ?? '', value }] : [];
      }),
      summary: childProse(node, 'summary'),
      resources: parseResources(child(node, 'resources'), 'episode'),
      updated: isoDate(attr(node, 'update')),
    },
  ];
}
