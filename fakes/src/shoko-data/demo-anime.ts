import type { AniDBEpisodeType, AnimeEpisodeSpec, AnimeSpec, AnimeTypeText, CharacterSpec, CreatorSpec, TagSpec } from './collection.js';

/**
 * The demo's anime as Shoko keeps them in its tables, read from the demo's own AniDB XML (what the AniDB HTTP fake
 * serves, fakes/src/anidb-http/sample-anime.ts): the same record Shoko would have downloaded and parsed. The reader
 * knows AniDB's `request=anime` layout only as far as those records use it.
 */

export interface DemoAnimeCatalog {
  anime: AnimeSpec[];
  tags: TagSpec[];
  characters: CharacterSpec[];
  creators: CreatorSpec[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An element's text as an XML parser gives it (CDATA kept, entities decoded once); AniDB's backtick is Shoko's apostrophe. */
function textOf(inner: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(inner);
  if (cdata) return cdata[1].replace(/`/g, "'");
  return inner.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name]).replace(/`/g, "'");
}

const attributesOf = (tag: string): Record<string, string> =>
  Object.fromEntries([...tag.matchAll(/([\w:]+)="([^"]*)"/g)].map(([, name, value]) => [name, textOf(value)]));

/** Every `<name …>…</name>` directly in `xml` (the layouts read here never nest an element in one of its own name). */
function elements(xml: string, name: string): Array<{ attributes: Record<string, string>; inner: string }> {
  const pattern = new RegExp(`<${name}(\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'g');
  return [...xml.matchAll(pattern)].map((match) => ({ attributes: attributesOf(match[1] ?? ''), inner: match[2] }));
}

const first = (xml: string, name: string) => elements(xml, name)[0];
const childText = (xml: string, name: string): string | null => {
  const element = first(xml, name);
  return element ? textOf(element.inner) : null;
};

/** AniDB's `<epno type>` numbers (1 regular, 2 special, 3 credits, ...) as Shoko's AniDB_Episode.EpisodeType. */
const EPISODE_TYPES: Record<string, AniDBEpisodeType> = { '1': 1, '2': 3, '3': 2, '4': 4, '5': 5, '6': 6 };

function episodeOf(episode: { attributes: Record<string, string>; inner: string }): AnimeEpisodeSpec {
  const epno = first(episode.inner, 'epno');
  const rating = first(episode.inner, 'rating');
  return {
    id: Number(episode.attributes.id),
    type: EPISODE_TYPES[epno.attributes.type],
    number: Number(/\d+/.exec(epno.inner)![0]),
    lengthMinutes: Number(childText(episode.inner, 'length') ?? 0),
    airDate: childText(episode.inner, 'airdate'),
    titles: elements(episode.inner, 'title').map((title) => ({ language: title.attributes['xml:lang'], value: textOf(title.inner) })),
    rating: rating ? Number(rating.inner) : 0,
    votes: rating ? Number(rating.attributes.votes) : 0,
    summary: childText(episode.inner, 'summary') ?? '',
  };
}

/** Shoko's resource columns the demo records fill: ANN (1), the official Japanese site (4), Wikipedia (6). */
function resourcesOf(xml: string): AnimeSpec['resources'] {
  const resources: AnimeSpec['resources'] = {};
  for (const resource of elements(first(xml, 'resources')?.inner ?? '', 'resource')) {
    const identifier = childText(resource.inner, 'identifier');
    const url = childText(resource.inner, 'url');
    if (resource.attributes.type === '1' && identifier) resources.annId = Number(identifier);
    if (resource.attributes.type === '4' && url) resources.siteJp = url;
    if (resource.attributes.type === '6' && identifier) resources.wikipediaEn = identifier;
    if (resource.attributes.type === '8' && identifier) resources.syoboiId = Number(identifier);
    if (resource.attributes.type === '9' && identifier) resources.allCinemaId = Number(identifier);
  }
  return resources;
}

const ratingOf = (xml: string, name: string): [number, number] | null => {
  const element = first(xml, name);
  return element ? [Number(element.inner), Number(element.attributes.count)] : null;
};

/** One anime record: the anime, and the tags, characters and creators it names (added to `catalog`). */
function animeOf(xml: string, catalog: Omit<DemoAnimeCatalog, 'anime'>, updatedAt: Date): AnimeSpec {
  // The record's own fields come before its episodes; related and similar anime are `<anime>` elements too.
  const root = /<anime id="(\d+)" restricted="(\w+)">/.exec(xml)!;
  const head = xml.slice(0, xml.indexOf('<episodes>'));
  const titles = elements(first(head, 'titles').inner, 'title').map((title) => ({
    type: title.attributes.type as AnimeSpec['titles'][number]['type'],
    language: title.attributes['xml:lang'],
    value: textOf(title.inner),
  }));
  const related = (section: string) => elements(first(head, section)?.inner ?? '', 'anime');

  const tags = elements(first(head, 'tags')?.inner ?? '', 'tag').map(({ attributes, inner }) => {
    if (!catalog.tags.some((tag) => tag.id === Number(attributes.id))) {
      const parentId = Number(attributes.parentid);
      catalog.tags.push({
        id: Number(attributes.id),
        parentId: parentId || null,
        name: childText(inner, 'name')!,
        description: childText(inner, 'description') ?? '',
        globalSpoiler: attributes.globalspoiler === 'true',
        verified: attributes.verified === 'true',
      });
    }
    return { id: Number(attributes.id), weight: Number(attributes.weight), localSpoiler: attributes.localspoiler === 'true' };
  });

  const addCreator = (creator: CreatorSpec) => {
    if (!catalog.creators.some((one) => one.id === creator.id)) catalog.creators.push(creator);
  };
  const characters = elements(first(head, 'characters')?.inner ?? '', 'character').map(({ attributes, inner }) => {
    const id = Number(attributes.id);
    if (!catalog.characters.some((character) => character.id === id)) {
      catalog.characters.push({
        id,
        name: childText(inner, 'name')!,
        originalName: '',
        gender: childText(inner, 'gender') === 'female' ? 'female' : 'male',
        description: childText(inner, 'description') ?? '',
        picture: childText(inner, 'picture') ?? '',
        kind: childText(inner, 'charactertype') === 'Organization' ? 'Organization' : 'Character',
      });
    }
    const seiyuu = elements(inner, 'seiyuu');
    for (const one of seiyuu) {
      addCreator({
        id: Number(one.attributes.id),
        name: textOf(one.inner),
        originalName: null,
        kind: 'Person',
        picture: one.attributes.picture ?? null,
      });
    }
    return { id, appearance: attributes.type, seiyuuIds: seiyuu.map((one) => Number(one.attributes.id)) };
  });

  // AniDB's creator records say which are companies; in these records that is the animation studio.
  const staff = elements(first(head, 'creators')?.inner ?? '', 'name').map(({ attributes, inner }) => {
    const company = attributes.type === 'Animation Work';
    addCreator({ id: Number(attributes.id), name: textOf(inner), originalName: null, kind: company ? 'Company' : 'Person', picture: null });
    return { creatorId: Number(attributes.id), role: attributes.type };
  });

  const ratings = first(head, 'ratings').inner;
  return {
    id: Number(root[1]),
    typeText: childText(head, 'type') as AnimeTypeText,
    restricted: root[2] === 'true',
    titles,
    startDate: childText(head, 'startdate'),
    endDate: childText(head, 'enddate'),
    description: childText(head, 'description') ?? '',
    picture: childText(head, 'picture') ?? '',
    url: childText(head, 'url'),
    ratings: {
      permanent: ratingOf(ratings, 'permanent') ?? [0, 0],
      temporary: ratingOf(ratings, 'temporary') ?? [0, 0],
      review: ratingOf(ratings, 'review'),
    },
    resources: resourcesOf(head),
    episodes: elements(first(xml, 'episodes').inner, 'episode').map(episodeOf),
    tags,
    relations: related('relatedanime').map(({ attributes, inner }) => ({
      id: Number(attributes.id),
      type: attributes.type,
      title: textOf(inner),
    })),
    similar: related('similaranime').map(({ attributes, inner }) => ({
      id: Number(attributes.id),
      approval: Number(attributes.approval),
      total: Number(attributes.total),
      title: textOf(inner),
    })),
    characters,
    staff,
    animeDocXml: true,
    updatedAt,
  };
}

/** The anime of `ids` from the demo's XML records, with the catalog of tags, characters and creators they share. */
export function demoAnimeCatalog(records: Record<number, string>, ids: number[], updatedAt: Date): DemoAnimeCatalog {
  const catalog: DemoAnimeCatalog = { anime: [], tags: [], characters: [], creators: [] };
  for (const id of ids) catalog.anime.push(animeOf(records[id], catalog, updatedAt));
  return catalog;
}
