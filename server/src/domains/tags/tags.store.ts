import { sql, type Kysely } from 'kysely';
import type { Tag } from '@shoko-ts/contract';
import type { Database } from '../../db/schema.js';
import { keepCategory, tagCategory } from './tag-filter.js';

export interface UserTagRow {
  id: number;
  name: string;
  description: string;
}

const iso = (text: string) => new Date(text).toISOString();

/** AniDB tags of anime and the user's custom tags with their series links. */
export class TagsStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Ancestor names (root first, the tag itself last) of every AniDB tag id given. */
  async ancestry(tagIds: number[]): Promise<Map<number, string[]>> {
    const result = new Map<number, string[]>();
    if (!tagIds.length) return result;
    const all = await this.db.selectFrom('anidb_tags').select(['id', 'parent_id', 'name']).execute();
    const byId = new Map(all.map((t) => [t.id, t]));
    for (const id of tagIds) {
      const chain: string[] = [];
      for (let t = byId.get(id), guard = 0; t && guard < 50; t = t.parent_id ? byId.get(t.parent_id) : undefined, guard++)
        chain.unshift(t.name);
      result.set(id, chain);
    }
    return result;
  }

  /** §5.6 AniDB part: the anime's tags with weight and local spoiler flag. */
  async seriesAnidbTags(
    animeId: number,
    options: { filter: number; excludeDescriptions: boolean; onlyVerified: boolean; includeCount: boolean },
  ): Promise<Tag[]> {
    const rows = await this.db
      .selectFrom('anidb_anime_tags as at')
      .innerJoin('anidb_tags as t', 't.id', 'at.tag_id')
      .select([
        't.id',
        't.parent_id',
        't.name',
        't.description',
        't.is_spoiler',
        't.is_verified',
        't.updated_at',
        'at.weight',
        'at.is_local_spoiler',
      ])
      .where('at.anime_id', '=', animeId)
      .execute();
    const ancestry = await this.ancestry(rows.map((r) => r.id));
    const kept = rows.filter(
      (r) => (!options.onlyVerified || r.is_verified) && keepCategory(options.filter, tagCategory(ancestry.get(r.id) ?? [r.name])),
    );
    const counts = options.includeCount ? await this.anidbCounts(kept.map((r) => r.id)) : new Map<number, number>();
    return kept.map((r) => {
      const tag: Tag = { ID: r.id, ParentID: r.parent_id, Name: r.name, IsSpoiler: !!r.is_spoiler, Source: 'AniDB' };
      if (!options.excludeDescriptions && r.description !== null) tag.Description = r.description;
      tag.IsVerified = !!r.is_verified;
      tag.IsLocalSpoiler = !!r.is_local_spoiler;
      tag.Weight = r.weight;
      if (options.includeCount) tag.Size = counts.get(r.id) ?? 0;
      tag.LastUpdated = iso(r.updated_at);
      return tag;
    });
  }

  /** Every AniDB tag, ordered by name then id (Tag/AniDB). */
  async allAnidbTags() {
    return this.db
      .selectFrom('anidb_tags')
      .select(['id', 'parent_id', 'name', 'description', 'is_spoiler', 'is_verified', 'updated_at'])
      .orderBy('name')
      .orderBy('id')
      .execute();
  }

  /** One AniDB tag (Tag/AniDB/{tagID}). */
  async anidbTag(id: number) {
    const row = await this.db
      .selectFrom('anidb_tags')
      .select(['id', 'parent_id', 'name', 'description', 'is_spoiler', 'is_verified', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row ?? null;
  }

  /** How many anime carry each AniDB tag. */
  async anidbCounts(tagIds: number[]) {
    if (!tagIds.length) return new Map<number, number>();
    const rows = await this.db
      .selectFrom('anidb_anime_tags')
      .select(['tag_id', sql<number>`COUNT(*)`.as('n')])
      .where('tag_id', 'in', tagIds)
      .groupBy('tag_id')
      .execute();
    return new Map(rows.map((r) => [r.tag_id, Number(r.n)]));
  }

  private async userCounts(tagIds: number[]) {
    if (!tagIds.length) return new Map<number, number>();
    const rows = await this.db
      .selectFrom('series_custom_tags')
      .select(['tag_id', sql<number>`COUNT(*)`.as('n')])
      .where('tag_id', 'in', tagIds)
      .groupBy('tag_id')
      .execute();
    return new Map(rows.map((r) => [r.tag_id, Number(r.n)]));
  }

  /** User tag models in the order of `rows`. */
  async userTagModels(rows: UserTagRow[], options: { excludeDescriptions?: boolean; includeCount?: boolean } = {}): Promise<Tag[]> {
    const counts = options.includeCount ? await this.userCounts(rows.map((r) => r.id)) : new Map<number, number>();
    return rows.map((r) => {
      const tag: Tag = { ID: r.id, ParentID: null, Name: r.name, IsSpoiler: false, Source: 'User' };
      if (!options.excludeDescriptions) tag.Description = r.description;
      if (options.includeCount) tag.Size = counts.get(r.id) ?? 0;
      return tag;
    });
  }

  async seriesUserTags(seriesId: number): Promise<UserTagRow[]> {
    return this.db
      .selectFrom('series_custom_tags as st')
      .innerJoin('custom_tags as t', 't.id', 'st.tag_id')
      .select(['t.id', 't.name', 't.description'])
      .where('st.series_id', '=', seriesId)
      .orderBy('t.name')
      .execute();
  }

  async userTags(): Promise<UserTagRow[]> {
    return this.db.selectFrom('custom_tags').select(['id', 'name', 'description']).orderBy('name').orderBy('id').execute();
  }

  async userTag(id: number): Promise<UserTagRow | null> {
    return (await this.db.selectFrom('custom_tags').select(['id', 'name', 'description']).where('id', '=', id).executeTakeFirst()) ?? null;
  }

  async userTagByName(name: string): Promise<UserTagRow | null> {
    return (
      (await this.db
        .selectFrom('custom_tags')
        .select(['id', 'name', 'description'])
        .where(sql`LOWER(name)`, '=', name.toLowerCase())
        .executeTakeFirst()) ?? null
    );
  }

  async createUserTag(name: string, description: string): Promise<UserTagRow> {
    return this.db
      .insertInto('custom_tags')
      .values({ name, description })
      .returning(['id', 'name', 'description'])
      .executeTakeFirstOrThrow();
  }

  async updateUserTag(id: number, changes: { name?: string; description?: string }) {
    if (changes.name === undefined && changes.description === undefined) return;
    await this.db.updateTable('custom_tags').set(changes).where('id', '=', id).execute();
  }

  async deleteUserTag(id: number): Promise<boolean> {
    await this.db.deleteFrom('series_custom_tags').where('tag_id', '=', id).execute();
    const result = await this.db.deleteFrom('custom_tags').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Adds the user tags not yet on the series (only tags that exist); returns how many were added. */
  async addToSeries(seriesId: number, tagIds: number[]): Promise<number> {
    const ids = [...new Set(tagIds)];
    if (!ids.length) return 0;
    const existing = new Set((await this.db.selectFrom('custom_tags').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
    const present = new Set(
      (await this.db.selectFrom('series_custom_tags').select('tag_id').where('series_id', '=', seriesId).execute()).map((r) => r.tag_id),
    );
    const fresh = ids.filter((id) => existing.has(id) && !present.has(id));
    if (fresh.length)
      await this.db
        .insertInto('series_custom_tags')
        .values(fresh.map((tag_id) => ({ series_id: seriesId, tag_id })))
        .execute();
    return fresh.length;
  }

  async removeFromSeries(seriesId: number, tagIds: number[]): Promise<number> {
    if (!tagIds.length) return 0;
    const result = await this.db
      .deleteFrom('series_custom_tags')
      .where('series_id', '=', seriesId)
      .where('tag_id', 'in', tagIds)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
