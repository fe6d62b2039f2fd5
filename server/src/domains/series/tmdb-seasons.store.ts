import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The TMDB seasons an anime's episodes are linked into, and what the season model shows of them. */
export class TmdbSeasonsStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Seasons reached through the anime's episode links (not "no link" entries), by show then season number. */
  seasonsOfAnime(animeId: number) {
    return this.db
      .selectFrom('tmdb_seasons as s')
      .selectAll('s')
      .where('s.id', 'in', (eb) =>
        eb
          .selectFrom('xref_anidb_tmdb_episode as x')
          .innerJoin('tmdb_episodes as e', 'e.id', 'x.tmdb_episode_id')
          .select('e.season_id')
          .where('x.anime_id', '=', animeId)
          .where('x.tmdb_episode_id', '>', 0),
      )
      .orderBy('s.show_id')
      .orderBy('s.season_number')
      .orderBy('s.id')
      .execute();
  }

  /** Air dates of the stored episodes of the seasons. */
  episodesOfSeasons(seasonIds: number[]) {
    if (!seasonIds.length) return Promise.resolve([]);
    return this.db.selectFrom('tmdb_episodes').select(['season_id', 'aired_at']).where('season_id', 'in', seasonIds).execute();
  }

  /** Posters, backdrops and logos of the seasons, best rated first. */
  seasonImages(seasonIds: number[]) {
    if (!seasonIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('tmdb_images')
      .selectAll()
      .where('parent_type', '=', 'Season')
      .where('parent_id', 'in', seasonIds)
      .where('image_type', 'in', ['Poster', 'Backdrop', 'Logo'])
      .orderBy('vote_average', 'desc')
      .orderBy('id')
      .execute();
  }
}
