import path from 'node:path';
import type { Logger } from 'pino';
import type { ServerConfig } from '../../config.js';
import { AniDBHttpClient, type AniDBAnime, type AniDBRating, type AniDBResource } from '../../providers/anidb/http/index.js';
import type { SettingsService } from '../settings/index.js';
import type { AniDBConnection } from './anidb-connection.js';
import type { AnimeSource } from './anime-import.js';
import type { AnimeMetadata } from './anime.store.js';

/** AniDB's production HTTP API; `SHOKO_ANIDB_HTTP` (tests, the demo) wins over the setting. */
export function anidbHttpBaseUrl(settingsUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.SHOKO_ANIDB_HTTP?.trim() || settingsUrl;
}

/** The Links categories and names the API shows, by AniDB resource type; other sites are not shown. */
const RESOURCE_LINKS: Record<number, { Type: string; Name: string }> = {
  1: { Type: 'english-metadata', Name: 'AnimeNewsNetwork' },
  4: { Type: 'source', Name: 'Official Site (JP)' },
  5: { Type: 'source', Name: 'Official Site (EN)' },
  6: { Type: 'wiki', Name: 'Wikipedia (EN)' },
  7: { Type: 'wiki', Name: 'Wikipedia (JP)' },
  8: { Type: 'foreign-metadata', Name: 'syoboi' },
  9: { Type: 'foreign-metadata', Name: 'allcinema' },
  10: { Type: 'foreign-metadata', Name: 'Anison' },
  11: { Type: 'foreign-metadata', Name: '.lain' },
  14: { Type: 'english-metadata', Name: 'VNDB' },
  28: { Type: 'streaming', Name: 'Crunchyroll' },
  34: { Type: 'streaming', Name: 'Funimation' },
  38: { Type: 'foreign-metadata', Name: 'bangumi' },
  42: { Type: 'streaming', Name: 'HiDive' },
};

/** The links the API shows of an anime's AniDB resources (shared with the Shoko import, which builds them from Shoko's columns). */
export function animeResourceLinks(resources: AniDBResource[]): AnimeMetadata['resources'] {
  return resources.flatMap((resource) => {
    const link = RESOURCE_LINKS[resource.type];
    if (!link) return [];
    return resource.entities.filter((entity) => entity.url).map((entity) => ({ ...link, URL: entity.url! }));
  });
}

/** AniDB ratings are 0–10 with two decimals; they are stored ×100 like AniDB's own integer form. */
const ratingOf = (rating: AniDBRating | null) => ({ value: rating ? Math.round(rating.value * 100) : 0, votes: rating?.count ?? 0 });

/** What the pipeline stores of an AniDB record, honouring the "download characters / creators" settings. */
export function toAnimeMetadata(anime: AniDBAnime, options: { characters: boolean; creators: boolean }): AnimeMetadata {
  const permanent = ratingOf(anime.ratings.permanent);
  const temporary = ratingOf(anime.ratings.temporary);
  return {
    id: anime.id,
    type: anime.type,
    mainTitle: anime.mainTitle,
    titles: anime.titles.map((t) => ({ type: t.type, language: t.language, value: t.value })),
    episodeCount: anime.episodeCount,
    specialCount: anime.specialCount,
    airDate: anime.startDate,
    endDate: anime.endDate,
    restricted: anime.restricted,
    description: anime.description ?? '',
    picture: anime.picture,
    url: anime.url,
    rating: permanent.value,
    ratingVotes: permanent.votes,
    tempRating: temporary.value,
    tempRatingVotes: temporary.votes,
    resources: animeResourceLinks(anime.resources),
    tags: anime.tags.map((tag) => ({
      id: tag.id,
      parentId: tag.parentId,
      name: tag.name,
      description: tag.description,
      weight: tag.weight,
      isSpoiler: tag.globalSpoiler,
      isLocalSpoiler: tag.localSpoiler,
      isVerified: tag.verified,
    })),
    relations: anime.relatedAnime.map((r) => ({ animeId: r.id, type: r.relation, title: r.title })),
    similar: anime.similarAnime.map((s) => ({ animeId: s.id, approval: s.approval, total: s.total, title: s.title })),
    characters: options.characters
      ? anime.characters.map((c) => ({
          id: c.id,
          name: c.name,
          gender: c.gender,
          characterType: c.characterType,
          description: c.description,
          picture: c.picture,
          appearance: c.role,
          voiceActors: options.creators ? c.seiyuu.map((p) => ({ id: p.id, name: p.name, picture: p.picture })) : [],
        }))
      : [],
    staff: options.creators ? anime.creators.map((c) => ({ id: c.id, name: c.name, role: c.type })) : [],
    episodes: anime.episodes.map((episode) => {
      const rating = ratingOf(episode.rating);
      return {
        id: episode.id,
        type: episode.type,
        number: episode.number,
        lengthSeconds: episode.lengthMinutes * 60,
        airDate: episode.airDate,
        rating: rating.value,
        votes: rating.votes,
        description: episode.summary ?? '',
        titles: episode.titles,
      };
    }),
  };
}

/**
 * Anime metadata from AniDB's HTTP API with its disk cache under `<home>/anidb`. The client is rebuilt when the HTTP
 * settings change, but the pacing and the ban are the connection's, so they outlive every rebuild.
 */
export function anidbHttpSource(config: ServerConfig, settings: SettingsService, anidb: AniDBConnection, logger: Logger): AnimeSource {
  let client: AniDBHttpClient | null = null;
  let clientKey = '';
  const current = () => {
    const s = settings.current.AniDb;
    const baseUrl = anidbHttpBaseUrl(s.HTTPServerUrl);
    const key = JSON.stringify([baseUrl, s.MinimumHoursToRedownloadAnimeInfo]);
    if (client && key === clientKey) return client;
    client = new AniDBHttpClient({
      baseUrl,
      clientName: 'shokots',
      clientVersion: 1,
      cacheDir: path.join(config.home, 'anidb'),
      logger,
      limiter: anidb.httpLimiter,
      ban: anidb.httpBan,
      requestLog: anidb.animeRequests,
      minimumHoursToRedownload: s.MinimumHoursToRedownloadAnimeInfo,
      banDurationMs: anidb.httpBanMs(),
      now: anidb.now,
    });
    clientKey = key;
    return client;
  };
  return {
    async getAnime(animeId, { force }) {
      const anime = await current().getAnime(animeId, { force });
      const s = settings.current.AniDb;
      return toAnimeMetadata(anime, { characters: s.DownloadCharacters, creators: s.DownloadCreators });
    },
  };
}
