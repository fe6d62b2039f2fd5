import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { inSlices } from '../../db/shared-queries.js';
import type { ImageSource } from '../images/index.js';

/** The TMDB episodes and movies linked to AniDB episodes (the sources of episode images) and the episodes' preferred images. */
export class EpisodeImagesStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** TMDB episodes linked to AniDB episodes (explicit "no link" rows skipped). */
  async tmdbEpisodeLinks(anidbEpisodeIds: number[]): Promise<Array<{ anidb: number; tmdb: number; show: number }>> {
    // In slices: a whole-collection episode list asks about more episodes than one statement may bind. An episode's
    // links all fall in its slice, so their order holds.
    const rows = await inSlices(anidbEpisodeIds, (slice) =>
      this.db
        .selectFrom('xref_anidb_tmdb_episode')
        .select(['anidb_episode_id', 'tmdb_episode_id', 'show_id'])
        .where('anidb_episode_id', 'in', slice)
        .where('tmdb_episode_id', '<>', 0)
        .orderBy('ordering')
        .execute(),
    );
    return rows.map((r) => ({ anidb: r.anidb_episode_id, tmdb: r.tmdb_episode_id, show: r.show_id }));
  }

  /** TMDB movies linked to AniDB episodes. */
  async tmdbMovieLinks(anidbEpisodeIds: number[]): Promise<Array<{ anidb: number; tmdb: number }>> {
    const rows = await inSlices(anidbEpisodeIds, (slice) =>
      this.db.selectFrom('xref_anidb_tmdb_movie').select(['anidb_episode_id', 'movie_id']).where('anidb_episode_id', 'in', slice).execute(),
    );
    return rows.map((r) => ({ anidb: r.anidb_episode_id, tmdb: r.movie_id }));
  }

  /** Images of TMDB episodes (thumbnails) or movies (posters, backdrops, logos), best rated first. */
  tmdbImages(parentType: 'Episode' | 'Movie', parentIds: number[]) {
    // Each parent's images fall in its slice, so they keep their order.
    return inSlices(parentIds, (slice) =>
      this.db
        .selectFrom('tmdb_images')
        .selectAll()
        .where('parent_type', '=', parentType)
        .where('parent_id', 'in', slice)
        .where('image_type', 'in', parentType === 'Episode' ? ['Thumbnail'] : ['Poster', 'Backdrop', 'Logo'])
        .orderBy('vote_average', 'desc')
        .orderBy('id')
        .execute(),
    );
  }

  /** `source:type:id` of the preferred images, per episode. */
  async preferredImageKeys(episodeIds: number[]): Promise<Map<number, Set<string>>> {
    const result = new Map<number, Set<string>>(episodeIds.map((id) => [id, new Set<string>()]));
    if (!episodeIds.length) return result;
    const rows = await inSlices(episodeIds, (slice) =>
      this.db.selectFrom('episode_preferred_images').selectAll().where('episode_id', 'in', slice).execute(),
    );
    for (const p of rows) result.get(p.episode_id)?.add(`${p.source}:${p.image_type}:${p.image_id}`);
    return result;
  }

  async setPreferred(episodeId: number, type: string, source: ImageSource, imageId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('episode_preferred_images').where('episode_id', '=', episodeId).where('image_type', '=', type).execute();
      await trx
        .insertInto('episode_preferred_images')
        .values({ episode_id: episodeId, image_type: type, source, image_id: imageId })
        .execute();
    });
  }

  async unsetPreferred(episodeId: number, type: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('episode_preferred_images')
      .where('episode_id', '=', episodeId)
      .where('image_type', '=', type)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
