import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** What the AniDB estimate reads from the database. */
export class AniDBEstimateStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** AniDB pictures (posters, characters, creators) per stored anime; null while no anime is stored. */
  async picturesPerAnime(): Promise<number | null> {
    const count = (table: 'anidb_anime' | 'anidb_characters' | 'anidb_creators', withPicture: boolean) => {
      let query = this.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
      if (withPicture) query = query.where('picture', 'is not', null).where('picture', '!=', '');
      return query.executeTakeFirstOrThrow().then((row) => Number(row.n));
    };
    const [anime, posters, characters, creators] = await Promise.all([
      count('anidb_anime', false),
      count('anidb_anime', true),
      count('anidb_characters', true),
      count('anidb_creators', true),
    ]);
    return anime ? (posters + characters + creators) / anime : null;
  }
}
