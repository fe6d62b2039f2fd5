import type { TestServer } from './harness.js';

export interface SeedEpisode {
  id: number;
  /** AniDB episode type name; default `Episode`. */
  type?: string;
  number: number;
  title: string;
  /** Default `2022-04-05`. */
  airDate?: string | null;
}

/** Another title of the anime (the main one is `title`, x-jat). */
export interface SeedTitle {
  type: string;
  language: string;
  value: string;
}

/**
 * An AniDB anime with its titles and episodes stored as the AniDB import stores them, plus (unless `series: false`)
 * a Shoko group, series and one Shoko episode per AniDB episode. Resolves to the series id (null without one).
 */
export async function seedAnidbAnime(
  server: TestServer,
  anime: {
    id: number;
    type: string;
    title: string;
    episodes: SeedEpisode[];
    /** `false`: AniDB rows only, no group or series. */
    series?: boolean;
    /** `false`: the series without Shoko episodes. */
    shokoEpisodes?: boolean;
    /** Default `2022-04-05`. */
    airDate?: string | null;
    restricted?: boolean;
    /** AniDB's poster file name; default none. */
    picture?: string | null;
    otherTitles?: SeedTitle[];
  },
): Promise<number | null> {
  const db = server.services.db.kysely;
  const now = new Date().toISOString();
  await db
    .insertInto('anidb_anime')
    .values({
      id: anime.id,
      type: anime.type,
      main_title: anime.title,
      episode_count: anime.episodes.filter((e) => (e.type ?? 'Episode') === 'Episode').length,
      special_count: anime.episodes.filter((e) => e.type === 'Special').length,
      air_date: anime.airDate === undefined ? '2022-04-05' : anime.airDate,
      end_date: null,
      restricted: anime.restricted ? 1 : 0,
      description: '',
      picture: anime.picture ?? null,
      rating: 0,
      rating_votes: 0,
      temp_rating: 0,
      temp_rating_votes: 0,
      resources: '[]',
      fetched_at: now,
      url: null,
    })
    .execute();
  await db
    .insertInto('anidb_anime_titles')
    .values([
      { anime_id: anime.id, type: 'main', language: 'x-jat', value: anime.title },
      ...(anime.otherTitles ?? []).map((t) => ({ anime_id: anime.id, ...t })),
    ])
    .execute();
  if (anime.episodes.length) {
    await db
      .insertInto('anidb_episodes')
      .values(
        anime.episodes.map((e) => ({
          id: e.id,
          anime_id: anime.id,
          type: e.type ?? 'Episode',
          number: e.number,
          length_seconds: 1440,
          air_date: e.airDate === undefined ? '2022-04-05' : e.airDate,
          rating: 0,
          votes: 0,
          description: '',
          titles: JSON.stringify([{ language: 'en', value: e.title }]),
        })),
      )
      .execute();
  }
  if (anime.series === false) return null;
  const seriesId = await seedSeries(server, anime.id, anime.title);
  if (anime.episodes.length && anime.shokoEpisodes !== false) {
    await db
      .insertInto('episodes')
      .values(
        anime.episodes.map((e) => ({
          series_id: seriesId,
          anidb_episode_id: e.id,
          is_hidden: 0,
          title_override: null,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  return seriesId;
}

/** A Shoko group named `name` holding one series of the AniDB anime `animeId` (no AniDB rows); resolves to the series id. */
export async function seedSeries(server: TestServer, animeId: number, name: string): Promise<number> {
  const db = server.services.db.kysely;
  const now = new Date().toISOString();
  const group = await db
    .insertInto('groups')
    .values({
      parent_id: null,
      name,
      description: '',
      has_custom_name: 0,
      has_custom_description: 0,
      preferred_series_id: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const series = await db
    .insertInto('series')
    .values({ anime_id: animeId, group_id: group.id, title_override: null, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return series.id;
}
