import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { AnimeFacts, RelationRow } from './grouping.js';

export interface AnimeCharacter {
  id: number;
  name: string;
  gender: string | null;
  characterType: string | null;
  description: string | null;
  picture: string | null;
  /** AniDB's appearance text (`main character in`, …). */
  appearance: string;
  voiceActors: Array<{ id: number; name: string; picture: string | null }>;
}

/** AniDB anime data as the metadata pipeline stores it (the HTTP client's model is mapped to this). */
export interface AnimeMetadata {
  id: number;
  /** The APIv3 AnimeType name (`TV`, `Movie`, `OVA`, `TVSpecial`, `Web`, `MusicVideo`, `Other`, `Unknown`). */
  type: string;
  mainTitle: string;
  titles: Array<{ type: string; language: string; value: string }>;
  episodeCount: number;
  specialCount: number;
  airDate: string | null;
  endDate: string | null;
  restricted: boolean;
  description: string;
  picture: string | null;
  rating: number;
  ratingVotes: number;
  tempRating: number;
  tempRatingVotes: number;
  resources: Array<{ Type: string; Name: string; URL: string }>;
  tags: Array<{
    id: number;
    parentId: number | null;
    name: string;
    description: string | null;
    weight: number;
    isSpoiler: boolean;
    isLocalSpoiler: boolean;
    isVerified: boolean;
  }>;
  relations: Array<{ animeId: number; type: string; title?: string }>;
  url?: string | null;
  characters?: AnimeCharacter[];
  /** Credited staff of `<creators>`; voice actors come with the characters. */
  staff?: Array<{ id: number; name: string; role: string }>;
  similar?: Array<{ animeId: number; approval: number; total: number; title: string }>;
  episodes: Array<{
    id: number;
    type: string;
    number: number;
    lengthSeconds: number;
    airDate: string | null;
    rating: number;
    votes: number;
    description: string;
    titles: Array<{ language: string; value: string }>;
  }>;
}

const flag = (value: boolean) => (value ? 1 : 0);

/** The anidb_anime columns of an anime record (all but its id), as fetched at `fetchedAt`. */
export function animeRow(meta: AnimeMetadata, fetchedAt: string) {
  return {
    type: meta.type,
    main_title: meta.mainTitle,
    episode_count: meta.episodeCount,
    special_count: meta.specialCount,
    air_date: meta.airDate,
    end_date: meta.endDate,
    restricted: flag(meta.restricted),
    description: meta.description,
    picture: meta.picture,
    rating: meta.rating,
    rating_votes: meta.ratingVotes,
    temp_rating: meta.tempRating,
    temp_rating_votes: meta.tempRatingVotes,
    resources: JSON.stringify(meta.resources),
    url: meta.url ?? null,
    fetched_at: fetchedAt,
  };
}

/** SQL of AniDB anime metadata: one transaction per anime, so a crash never leaves half an anime. */
export class AnimeStore {
  constructor(private readonly db: Kysely<Database>) {}

  async anime(id: number) {
    return (await this.db.selectFrom('anidb_anime').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  episodesOfAnime(animeId: number) {
    return this.db.selectFrom('anidb_episodes').selectAll().where('anime_id', '=', animeId).orderBy('type').orderBy('number').execute();
  }

  /** Every stored relation row from or to one of the anime (auto-grouping walks them both ways). */
  async relationRowsTouching(animeIds: number[]): Promise<RelationRow[]> {
    if (!animeIds.length) return [];
    const rows = await this.db
      .selectFrom('anidb_relations')
      .select(['anime_id', 'related_anime_id', 'relation_type', 'related_title'])
      .where((eb) => eb.or([eb('anime_id', 'in', animeIds), eb('related_anime_id', 'in', animeIds)]))
      .execute();
    return rows.map((r) => ({ from: r.anime_id, to: r.related_anime_id, type: r.relation_type, toTitle: r.related_title }));
  }

  /** Type and main title of the stored anime among the ids. */
  async groupingFacts(animeIds: number[]): Promise<Map<number, AnimeFacts>> {
    if (!animeIds.length) return new Map();
    const rows = await this.db.selectFrom('anidb_anime').select(['id', 'type', 'main_title']).where('id', 'in', animeIds).execute();
    return new Map(rows.map((r) => [r.id, { type: r.type, title: r.main_title }]));
  }

  async save(meta: AnimeMetadata): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const now = new Date().toISOString();
      const row = animeRow(meta, now);
      await trx
        .insertInto('anidb_anime')
        .values({ id: meta.id, ...row })
        .onConflict((c) => c.column('id').doUpdateSet(row))
        .execute();
      await trx.deleteFrom('anidb_anime_titles').where('anime_id', '=', meta.id).execute();
      if (meta.titles.length)
        await trx
          .insertInto('anidb_anime_titles')
          .values(meta.titles.map((t) => ({ anime_id: meta.id, ...t })))
          .execute();
      await this.saveEpisodes(trx, meta);
      await this.saveTags(trx, meta, now);
      await trx.deleteFrom('anidb_relations').where('anime_id', '=', meta.id).execute();
      const relations = [...new Map(meta.relations.filter((r) => r.animeId !== meta.id).map((r) => [r.animeId, r])).values()];
      if (relations.length) {
        await trx
          .insertInto('anidb_relations')
          .values(
            relations.map((r) => ({
              anime_id: meta.id,
              related_anime_id: r.animeId,
              relation_type: r.type,
              related_title: r.title ?? null,
            })),
          )
          .execute();
      }
      await this.saveCast(trx, meta);
      await trx.deleteFrom('anidb_similar').where('anime_id', '=', meta.id).execute();
      const similar = [...new Map((meta.similar ?? []).filter((s) => s.animeId !== meta.id).map((s) => [s.animeId, s])).values()];
      if (similar.length) {
        await trx
          .insertInto('anidb_similar')
          .values(
            similar.map((s) => ({ anime_id: meta.id, similar_anime_id: s.animeId, approval: s.approval, total: s.total, title: s.title })),
          )
          .execute();
      }
    });
  }

  /** Characters, the people who voice them and the credited staff; people and characters are shared between anime. */
  private async saveCast(trx: Transaction<Database>, meta: AnimeMetadata): Promise<void> {
    await trx.deleteFrom('anidb_anime_characters').where('anime_id', '=', meta.id).execute();
    await trx.deleteFrom('anidb_anime_staff').where('anime_id', '=', meta.id).execute();
    const upsertPerson = async (person: { id: number; name: string; picture: string | null }) => {
      const row = { name: person.name, ...(person.picture ? { picture: person.picture } : {}) };
      await trx
        .insertInto('anidb_creators')
        .values({ id: person.id, name: person.name, picture: person.picture })
        .onConflict((c) => c.column('id').doUpdateSet(row))
        .execute();
    };
    const credits: Array<{ anime_id: number; creator_id: number; role: string; character_id: number | null; ordering: number }> = [];
    const characters = [...new Map((meta.characters ?? []).map((c) => [c.id, c])).values()];
    for (const [ordering, character] of characters.entries()) {
      const row = {
        name: character.name,
        gender: character.gender,
        character_type: character.characterType,
        description: character.description,
        picture: character.picture,
      };
      await trx
        .insertInto('anidb_characters')
        .values({ id: character.id, ...row })
        .onConflict((c) => c.column('id').doUpdateSet(row))
        .execute();
      await trx
        .insertInto('anidb_anime_characters')
        .values({ anime_id: meta.id, character_id: character.id, appearance: character.appearance, ordering })
        .execute();
      for (const actor of character.voiceActors) {
        await upsertPerson(actor);
        credits.push({ anime_id: meta.id, creator_id: actor.id, role: 'Seiyuu', character_id: character.id, ordering });
      }
    }
    for (const [ordering, person] of (meta.staff ?? []).entries()) {
      await upsertPerson({ ...person, picture: null });
      credits.push({ anime_id: meta.id, creator_id: person.id, role: person.role, character_id: null, ordering });
    }
    for (let i = 0; i < credits.length; i += 200)
      await trx
        .insertInto('anidb_anime_staff')
        .values(credits.slice(i, i + 200))
        .execute();
  }

  private async saveEpisodes(trx: Transaction<Database>, meta: AnimeMetadata): Promise<void> {
    for (const episode of meta.episodes) {
      const row = {
        anime_id: meta.id,
        type: episode.type,
        number: episode.number,
        length_seconds: episode.lengthSeconds,
        air_date: episode.airDate,
        rating: episode.rating,
        votes: episode.votes,
        description: episode.description,
        titles: JSON.stringify(episode.titles),
      };
      await trx
        .insertInto('anidb_episodes')
        .values({ id: episode.id, ...row })
        .onConflict((c) => c.column('id').doUpdateSet(row))
        .execute();
    }
  }

  private async saveTags(trx: Transaction<Database>, meta: AnimeMetadata, now: string): Promise<void> {
    await trx.deleteFrom('anidb_anime_tags').where('anime_id', '=', meta.id).execute();
    for (const tag of meta.tags) {
      const row = {
        parent_id: tag.parentId,
        name: tag.name,
        description: tag.description,
        is_spoiler: flag(tag.isSpoiler),
        is_verified: flag(tag.isVerified),
        updated_at: now,
      };
      await trx
        .insertInto('anidb_tags')
        .values({ id: tag.id, ...row })
        .onConflict((c) => c.column('id').doUpdateSet(row))
        .execute();
    }
    const unique = [...new Map(meta.tags.map((t) => [t.id, t])).values()];
    if (unique.length) {
      await trx
        .insertInto('anidb_anime_tags')
        .values(unique.map((t) => ({ anime_id: meta.id, tag_id: t.id, weight: t.weight, is_local_spoiler: flag(t.isLocalSpoiler) })))
        .execute();
    }
  }
}
