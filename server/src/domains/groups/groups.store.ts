import type { Kysely, Selectable } from 'kysely';
import { insertGroup } from '../../db/shared-queries.js';
import type { Database, GroupsTable } from '../../db/schema.js';

type GroupRow = Selectable<GroupsTable>;

/** A main-series candidate of a group: where its default name and description come from. */
export interface GroupSeriesTitle {
  id: number;
  anime_id: number;
  title_override: string | null;
  main_title: string | null;
  description: string | null;
  air_date: string | null;
}

/** The name/description columns a merge changes. */
export type GroupNameChanges = { name?: string; has_custom_name?: number; description?: string; has_custom_description?: number };

/** One validated CreateOrUpdateGroupBody merge (GroupsService.merge), as rows to write. */
export interface GroupMerge {
  existingId: number | null;
  /** undefined: the parent stays. */
  parentId: number | null | undefined;
  seriesIds: number[];
  /** The moved series as they are now (their current group). */
  movedSeries: Array<{ id: number; group_id: number }>;
  childIds: number[];
  /** undefined: the preferred series stays. */
  preferred: number | null | undefined;
}

/** Groups' own rows and the series ↔ group links: reads for the group rules and the writes of merge, move and delete. */
export class GroupsStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** True when any series of `seriesIds` has an episode with a local file. */
  async anyLocalFile(seriesIds: number[]): Promise<boolean> {
    const hit = await this.db
      .selectFrom('episodes as e')
      .innerJoin('file_episode_links as l', 'l.episode_id', 'e.anidb_episode_id')
      .innerJoin('files as f', (join) => join.onRef('f.ed2k', '=', 'l.ed2k').onRef('f.size', '=', 'l.size'))
      .select('e.id')
      .where('e.series_id', 'in', seriesIds)
      .limit(1)
      .executeTakeFirst();
    return !!hit;
  }

  /** A series' id, group and AniDB anime, or undefined. */
  series(seriesId: number) {
    return this.db.selectFrom('series').select(['id', 'group_id', 'anime_id']).where('id', '=', seriesId).executeTakeFirst();
  }

  /** Id, group and AniDB anime of the given series that exist. */
  seriesByIds(ids: number[]) {
    return this.db.selectFrom('series').select(['id', 'group_id', 'anime_id']).where('id', 'in', ids).execute();
  }

  /** Ids of the series directly in one group. */
  async directSeriesIds(groupId: number): Promise<number[]> {
    return (await this.db.selectFrom('series').select('id').where('group_id', '=', groupId).execute()).map((s) => s.id);
  }

  /** Ids of the series directly in any of the groups. */
  async seriesIdsInGroups(groupIds: number[]): Promise<number[]> {
    return (await this.db.selectFrom('series').select('id').where('group_id', 'in', groupIds).execute()).map((s) => s.id);
  }

  /** Ids of a group's direct sub-groups (no particular order). */
  async childGroupIds(groupId: number): Promise<number[]> {
    return (await this.db.selectFrom('groups').select('id').where('parent_id', '=', groupId).execute()).map((g) => g.id);
  }

  /** Ids of a group's direct sub-groups by name, then id. */
  async childGroupIdsByName(groupId: number): Promise<number[]> {
    return (await this.db.selectFrom('groups').select('id').where('parent_id', '=', groupId).orderBy('name').orderBy('id').execute()).map(
      (g) => g.id,
    );
  }

  /** Those of the ids that are groups. */
  async existingGroupIds(ids: number[]): Promise<number[]> {
    return (await this.db.selectFrom('groups').select('id').where('id', 'in', ids).execute()).map((g) => g.id);
  }

  /** True when the group has a series or a sub-group. */
  async hasContent(groupId: number): Promise<boolean> {
    return !!(
      (await this.db.selectFrom('series').select('id').where('group_id', '=', groupId).limit(1).executeTakeFirst()) ||
      (await this.db.selectFrom('groups').select('id').where('parent_id', '=', groupId).limit(1).executeTakeFirst())
    );
  }

  /** The stored AniDB relations between the given anime, both ends among them, none to itself. */
  relationsAmong(animeIds: number[]) {
    return this.db
      .selectFrom('anidb_relations')
      .select(['anime_id', 'related_anime_id', 'relation_type'])
      .where('anime_id', 'in', animeIds)
      .where('related_anime_id', 'in', animeIds)
      .where((eb) => eb('anime_id', '<>', eb.ref('related_anime_id')))
      .execute();
  }

  /** Type, rating and air dates of the given AniDB anime (WebUI GroupView). */
  animeSummaries(animeIds: number[]) {
    return this.db
      .selectFrom('anidb_anime')
      .select(['id', 'type', 'rating', 'rating_votes', 'air_date', 'end_date'])
      .where('id', 'in', animeIds)
      .execute();
  }

  /** AniDB tags of the given anime, heaviest first, then by name. */
  animeTags(animeIds: number[]) {
    return this.db
      .selectFrom('anidb_anime_tags as at')
      .innerJoin('anidb_tags as t', 't.id', 'at.tag_id')
      .select(['at.anime_id', 't.id', 't.parent_id', 't.name', 't.is_spoiler', 'at.weight'])
      .where('at.anime_id', 'in', animeIds)
      .orderBy('at.weight', 'desc')
      .orderBy('t.name')
      .execute();
  }

  /** Custom tags of the given series, by name. */
  seriesCustomTags(seriesIds: number[]) {
    return this.db
      .selectFrom('series_custom_tags as sct')
      .innerJoin('custom_tags as ct', 'ct.id', 'sct.tag_id')
      .select(['sct.series_id', 'ct.id', 'ct.name'])
      .where('sct.series_id', 'in', seriesIds)
      .orderBy('ct.name')
      .execute();
  }

  /**
   * Writes a merge in one transaction: creates the group (or updates the existing one), moves series and sub-groups in,
   * sets the preferred series, then the name/description `names` decides from the group and its series by air date.
   * Groups the moved series leave empty are deleted (as a recalculation would); in the others they stop being preferred.
   */
  async writeMerge(merge: GroupMerge, names: (current: GroupRow, byAirDate: GroupSeriesTitle[]) => GroupNameChanges): Promise<number> {
    const { existingId, parentId, seriesIds, movedSeries, childIds, preferred } = merge;
    const stamp = new Date().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const existing =
        existingId === null ? null : await trx.selectFrom('groups').selectAll().where('id', '=', existingId).executeTakeFirstOrThrow();
      const groupId = existing?.id ?? (await insertGroup(trx, { parent_id: parentId ?? null, name: '', description: '' }, stamp));
      if (existing && parentId !== undefined)
        await trx.updateTable('groups').set({ parent_id: parentId }).where('id', '=', groupId).execute();
      const emptied = new Set<number>();
      if (seriesIds.length) {
        for (const s of movedSeries) if (s.group_id !== groupId) emptied.add(s.group_id);
        await trx.updateTable('series').set({ group_id: groupId, updated_at: stamp }).where('id', 'in', seriesIds).execute();
      }
      if (childIds.length)
        await trx.updateTable('groups').set({ parent_id: groupId, updated_at: stamp }).where('id', 'in', childIds).execute();
      if (preferred !== undefined)
        await trx.updateTable('groups').set({ preferred_series_id: preferred }).where('id', '=', groupId).execute();

      const main = await trx
        .selectFrom('series as s')
        .leftJoin('anidb_anime as a', 'a.id', 's.anime_id')
        .select(['s.id', 's.anime_id', 's.title_override', 'a.main_title', 'a.description', 'a.air_date'])
        .where('s.group_id', '=', groupId)
        .orderBy('a.air_date')
        .orderBy('s.id')
        .execute();
      const current = await trx.selectFrom('groups').selectAll().where('id', '=', groupId).executeTakeFirstOrThrow();
      await trx
        .updateTable('groups')
        .set({ ...names(current, main), updated_at: stamp })
        .where('id', '=', groupId)
        .execute();

      for (const old of emptied) {
        const left = await trx.selectFrom('series').select('id').where('group_id', '=', old).limit(1).executeTakeFirst();
        const kids = await trx.selectFrom('groups').select('id').where('parent_id', '=', old).limit(1).executeTakeFirst();
        if (!left && !kids) await trx.deleteFrom('groups').where('id', '=', old).execute();
        else
          await trx
            .updateTable('groups')
            .set({ preferred_series_id: null })
            .where('id', '=', old)
            .where('preferred_series_id', 'in', seriesIds)
            .execute();
      }
      return groupId;
    });
  }

  /** Deletes the series, then the groups in the given order (children first), in one transaction. */
  async deleteGroups(groupIdsChildrenFirst: number[], seriesIds: number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (seriesIds.length) await trx.deleteFrom('series').where('id', 'in', seriesIds).execute();
      for (const groupId of groupIdsChildrenFirst) await trx.deleteFrom('groups').where('id', '=', groupId).execute();
    });
  }
}
