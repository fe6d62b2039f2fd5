import type { AniDBExternalEntity, AniDBResource } from './model.js';
import { attr, children, integer, text } from './xml-nodes.js';

interface ResourceSite {
  site: string;
  /** How the site's page is addressed by the entity's first identifier; absent when AniDB sends URLs instead. */
  link?: (id: string) => string;
}

/** The resource type numbers Shoko knows; unknown numbers keep their identifiers but get no name or link. */
export const ANIDB_RESOURCE_SITES: Record<number, ResourceSite> = {
  1: { site: 'Anime News Network', link: (id) => `https://www.animenewsnetwork.com/encyclopedia/anime.php?id=${id}` },
  2: { site: 'MyAnimeList', link: (id) => `https://myanimelist.net/anime/${id}` },
  3: { site: 'AnimeNfo' },
  4: { site: 'Official Japanese site' },
  5: { site: 'Official English site' },
  6: { site: 'Wikipedia (en)', link: (id) => `https://en.wikipedia.org/wiki/${encodeURIComponent(id)}` },
  7: { site: 'Wikipedia (ja)', link: (id) => `https://ja.wikipedia.org/wiki/${encodeURIComponent(id)}` },
  8: { site: 'Syoboi Calendar', link: (id) => `https://cal.syoboi.jp/tid/${id}` },
  9: { site: 'allcinema', link: (id) => `https://www.allcinema.net/cinema/${id}` },
  10: { site: 'anison.info' },
  11: { site: '.lain' },
  14: { site: 'VNDB', link: (id) => `https://vndb.org/v${id}` },
  28: { site: 'Crunchyroll', link: (id) => `https://www.crunchyroll.com/series/${id}` },
  32: { site: 'Amazon' },
  34: { site: 'Funimation' },
  38: { site: 'Bangumi', link: (id) => `https://bgm.tv/subject/${id}` },
  42: { site: 'HIDIVE' },
};

/**
 * `<resources>`: one `<resource type="N">` per site, each with `<externalentity>` elements. The link patterns address
 * an anime's page, so episode resources only keep the URLs AniDB sends.
 */
export function parseResources(resources: unknown, of: 'anime' | 'episode'): AniDBResource[] {
  const parsed: AniDBResource[] = [];
  for (const resource of children(resources, 'resource')) {
    const type = integer(attr(resource, 'type'));
    if (type === null) continue;
    const known = ANIDB_RESOURCE_SITES[type];
    const entities = children(resource, 'externalentity').map((entity): AniDBExternalEntity => {
      const identifiers = children(entity, 'identifier')
        .map(text)
        .filter((id): id is string => id !== null);
      const url = text(children(entity, 'url')[0]);
      const built = of === 'anime' && identifiers[0] && known?.link ? known.link(identifiers[0]) : null;
      return { identifiers, url: url ?? built };
    });
    parsed.push({ type, site: known?.site ?? null, entities: entities.filter((e) => e.identifiers.length > 0 || e.url) });
  }
  return parsed;
}
