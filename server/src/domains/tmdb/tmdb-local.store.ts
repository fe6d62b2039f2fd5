import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EpisodeRow, EpisodeXrefRow, MovieRow, SeasonRow, ShowRow } from './tmdb.store.js';

/** The queries of the local-data TMDB routes (tmdb-local.routes.ts) that tmdb.store.ts has no form of. */
export class TmdbLocalStore {
  constructor(private readonly db: Kysely<Database>) {}

  allMovies(): Promise<MovieRow[]> {
    return this.db.selectFrom('tmdb_movies').selectAll().orderBy('title').orderBy('id').execute();
  }

  allShows(): Promise<ShowRow[]> {
    return this.db.selectFrom('tmdb_shows').selectAll().orderBy('title').orderBy('id').execute();
  }

  season(seasonId: number): Promise<SeasonRow | undefined> {
    return this.db.selectFrom('tmdb_seasons').selectAll().where('id', '=', seasonId).executeTakeFirst();
  }

  episodesOfSeason(seasonId: number): Promise<EpisodeRow[]> {
    return this.db.selectFrom('tmdb_episodes').selectAll().where('season_id', '=', seasonId).orderBy('episode_number').execute();
  }

  episode(episodeId: number): Promise<EpisodeRow | undefined> {
    return this.db.selectFrom('tmdb_episodes').selectAll().where('id', '=', episodeId).executeTakeFirst();
  }

  /** The placed episodes of an alternate ordering's season (24-hex id). */
  orderingSeasonEpisodes(seasonId: string) {
    return this.db.selectFrom('tmdb_ordering_episodes').selectAll().where('season_id', '=', seasonId).orderBy('episode_number').execute();
  }

  /** Where an episode sits in each alternate ordering. */
  orderingPlacementsOfEpisode(episodeId: number) {
    return this.db.selectFrom('tmdb_ordering_episodes').selectAll().where('episode_id', '=', episodeId).execute();
  }

  orderingTimes(orderingId: string) {
    return this.db.selectFrom('tmdb_orderings').select(['created_at', 'updated_at']).where('id', '=', orderingId).executeTakeFirst();
  }

  images(parentType: 'Show' | 'Season' | 'Episode' | 'Movie', parentIds: number[]) {
    if (!parentIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('tmdb_images')
      .selectAll()
      .where('parent_type', '=', parentType)
      .where('parent_id', 'in', parentIds)
      .orderBy('id')
      .execute();
  }

  episodeLinksOfShow(showId: number): Promise<EpisodeXrefRow[]> {
    return this.db
      .selectFrom('xref_anidb_tmdb_episode')
      .selectAll()
      .where('show_id', '=', showId)
      .where('tmdb_episode_id', '!=', 0)
      .orderBy('anime_id')
      .orderBy('anidb_episode_id')
      .orderBy('ordering')
      .execute();
  }

  episodeLinksOfEpisodes(episodeIds: number[]): Promise<EpisodeXrefRow[]> {
    if (!episodeIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('xref_anidb_tmdb_episode')
      .selectAll()
      .where('tmdb_episode_id', 'in', episodeIds)
      .orderBy('anime_id')
      .orderBy('anidb_episode_id')
      .orderBy('ordering')
      .execute();
  }

  /** The Shoko series of AniDB anime, in anime order. */
  seriesOfAnime(animeIds: number[]): Promise<{ id: number; anime_id: number }[]> {
    if (!animeIds.length) return Promise.resolve([]);
    return this.db.selectFrom('series').select(['id', 'anime_id']).where('anime_id', 'in', animeIds).orderBy('anime_id').execute();
  }

  /** The Shoko episodes of AniDB episodes. */
  shokoEpisodesOfAnidb(anidbEpisodeIds: number[]): Promise<{ id: number; anidb_episode_id: number }[]> {
    if (!anidbEpisodeIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('episodes')
      .select(['id', 'anidb_episode_id'])
      .where('anidb_episode_id', 'in', anidbEpisodeIds)
      .orderBy('anidb_episode_id')
      .execute();
  }

  /** The file contents (`ed2k`, `size`) linked to AniDB episodes, in link order. */
  async linkedContents(anidbEpisodeIds: number[]): Promise<{ ed2k: string; size: number; episode_id: number }[]> {
    const result: { ed2k: string; size: number; episode_id: number }[] = [];
    for (let i = 0; i < anidbEpisodeIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('file_episode_links')
        .select(['ed2k', 'size', 'episode_id'])
        .where('episode_id', 'in', anidbEpisodeIds.slice(i, i + 500))
        .orderBy('episode_id')
        .orderBy('ordering')
        .orderBy('id')
        .execute();
      result.push(...rows.map((r) => ({ ...r, size: Number(r.size) })));
    }
    return result;
  }

  /** Removes the local copy of a movie: the row, its credits and image records and every AniDB link to it. */
  async purgeMovie(movieId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('xref_anidb_tmdb_movie').where('movie_id', '=', movieId).execute();
      await trx.deleteFrom('tmdb_credits').where('parent_type', '=', 'Movie').where('parent_id', '=', movieId).execute();
      await trx.deleteFrom('tmdb_images').where('parent_type', '=', 'Movie').where('parent_id', '=', movieId).execute();
      await trx.deleteFrom('tmdb_movies').where('id', '=', movieId).execute();
    });
  }

  /** Removes the local copy of a show: seasons, episodes, orderings, credits, image records and every AniDB link to it. */
  async purgeShow(showId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const seasonIds = (await trx.selectFrom('tmdb_seasons').select('id').where('show_id', '=', showId).execute()).map((r) => r.id);
      const episodeIds = (await trx.selectFrom('tmdb_episodes').select('id').where('show_id', '=', showId).execute()).map((r) => r.id);
      await trx.deleteFrom('xref_anidb_tmdb_episode').where('show_id', '=', showId).execute();
      await trx.deleteFrom('xref_anidb_tmdb_show').where('show_id', '=', showId).execute();
      await trx.deleteFrom('tmdb_credits').where('parent_type', '=', 'Show').where('parent_id', '=', showId).execute();
      await trx.deleteFrom('tmdb_images').where('parent_type', '=', 'Show').where('parent_id', '=', showId).execute();
      for (const [type, ids] of [
        ['Season', seasonIds],
        ['Episode', episodeIds],
      ] as const) {
        for (let i = 0; i < ids.length; i += 500) {
          const chunk = ids.slice(i, i + 500);
          await trx.deleteFrom('tmdb_images').where('parent_type', '=', type).where('parent_id', 'in', chunk).execute();
        }
      }
      await trx.deleteFrom('tmdb_ordering_episodes').where('show_id', '=', showId).execute();
      await trx.deleteFrom('tmdb_orderings').where('show_id', '=', showId).execute();
      await trx.deleteFrom('tmdb_episodes').where('show_id', '=', showId).execute();
      await trx.deleteFrom('tmdb_seasons').where('show_id', '=', showId).execute();
      await trx.deleteFrom('tmdb_shows').where('id', '=', showId).execute();
    });
  }
}
