import type { Kysely } from 'kysely';
import { insertGroup } from '../../db/shared-queries.js';
import type { Database } from '../../db/schema.js';

const now = () => new Date().toISOString();

/** SQL of the Shoko series made from AniDB anime: their groups, series and episodes, and the files they import. */
export class LocalSeriesStore {
  constructor(private readonly db: Kysely<Database>) {}

  async series(seriesId: number) {
    return (await this.db.selectFrom('series').selectAll().where('id', '=', seriesId).executeTakeFirst()) ?? null;
  }

  async seriesByAnime(animeId: number) {
    return (await this.db.selectFrom('series').selectAll().where('anime_id', '=', animeId).executeTakeFirst()) ?? null;
  }

  seriesByAnimeIds(animeIds: number[]) {
    if (!animeIds.length) return Promise.resolve([]);
    return this.db.selectFrom('series').selectAll().where('anime_id', 'in', animeIds).execute();
  }

  /** AniDB ids of the series directly in the group. */
  async animeIdsInGroup(groupId: number): Promise<number[]> {
    return (await this.db.selectFrom('series').select('anime_id').where('group_id', '=', groupId).orderBy('id').execute()).map(
      (r) => r.anime_id,
    );
  }

  /** The anime auto-grouping chose to lead the group (null: the earliest aired series leads). */
  async setGroupMainAnime(groupId: number, animeId: number | null): Promise<void> {
    await this.db.updateTable('groups').set({ main_anime_id: animeId }).where('id', '=', groupId).execute();
  }

  /** A new series in a new group named after it, or in `groupId`, with one episode per AniDB episode. */
  async createSeries(
    animeId: number,
    options: { groupId: number | null; groupName: string; description: string; episodeIds: number[] },
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const stamp = now();
      const groupId =
        options.groupId ?? (await insertGroup(trx, { parent_id: null, name: options.groupName, description: options.description }, stamp));
      const series = await trx
        .insertInto('series')
        .values({ anime_id: animeId, group_id: groupId, title_override: null, created_at: stamp, updated_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      await this.insertEpisodes(trx, series.id, options.episodeIds, stamp);
      await trx.updateTable('groups').set({ updated_at: stamp }).where('id', '=', groupId).execute();
      return series.id;
    });
  }

  /** Adds local episodes for AniDB episodes that appeared since the series was created; returns their AniDB ids. */
  async addMissingEpisodes(seriesId: number, episodeIds: number[]): Promise<number[]> {
    const existing = new Set(
      (await this.db.selectFrom('episodes').select('anidb_episode_id').where('series_id', '=', seriesId).execute()).map(
        (r) => r.anidb_episode_id,
      ),
    );
    const missing = episodeIds.filter((id) => !existing.has(id));
    if (missing.length) await this.insertEpisodes(this.db, seriesId, missing, now());
    return missing;
  }

  /** The series' local episode ids by AniDB episode id, for the given AniDB episodes. */
  async episodeIdsByAniDB(seriesId: number, anidbEpisodeIds: number[]): Promise<Map<number, number>> {
    if (!anidbEpisodeIds.length) return new Map();
    const rows = await this.db
      .selectFrom('episodes')
      .select(['id', 'anidb_episode_id'])
      .where('series_id', '=', seriesId)
      .where('anidb_episode_id', 'in', anidbEpisodeIds)
      .execute();
    return new Map(rows.map((r) => [r.anidb_episode_id, r.id]));
  }

  private async insertEpisodes(db: Kysely<Database>, seriesId: number, episodeIds: number[], stamp: string): Promise<void> {
    for (let i = 0; i < episodeIds.length; i += 200) {
      await db
        .insertInto('episodes')
        .values(
          episodeIds.slice(i, i + 200).map((id) => ({
            series_id: seriesId,
            anidb_episode_id: id,
            is_hidden: 0,
            title_override: null,
            created_at: stamp,
            updated_at: stamp,
          })),
        )
        .onConflict((c) => c.column('anidb_episode_id').doNothing())
        .execute();
    }
  }

  async markImported(ed2kSizes: Array<{ ed2k: string; size: number }>): Promise<number[]> {
    const stamp = now();
    const ids: number[] = [];
    for (const { ed2k, size } of ed2kSizes) {
      const rows = await this.db
        .updateTable('files')
        .set({ imported_at: stamp, updated_at: stamp })
        .where('ed2k', '=', ed2k)
        .where('size', '=', size)
        .where('imported_at', 'is', null)
        .returning('id')
        .execute();
      ids.push(...rows.map((r) => r.id));
    }
    return ids;
  }

  /**
   * Import.UseExistingFileWatchedStatus: each user who watched another file of the same episodes (other content) gets
   * that file's record (watched date, count, resume point) on the new file, unless the new file has one already.
   */
  async copyWatchedStateFromOtherFiles(fileIds: number[]): Promise<number> {
    let copied = 0;
    for (const fileId of fileIds) {
      const file = await this.db.selectFrom('files').select(['ed2k', 'size']).where('id', '=', fileId).executeTakeFirst();
      if (!file?.ed2k) continue;
      const records = await this.db
        .selectFrom('file_episode_links as mine')
        .innerJoin('file_episode_links as other', 'other.episode_id', 'mine.episode_id')
        .innerJoin('files as f', (join) => join.onRef('f.ed2k', '=', 'other.ed2k').onRef('f.size', '=', 'other.size'))
        .innerJoin('user_file_states as u', 'u.file_id', 'f.id')
        .select(['u.user_id', 'u.watched_at', 'u.watch_count', 'u.resume_position_ms'])
        .where('mine.ed2k', '=', file.ed2k)
        .where('mine.size', '=', file.size)
        .where((eb) => eb.or([eb('f.ed2k', '<>', file.ed2k), eb('f.size', '<>', file.size)]))
        .where('u.watched_at', 'is not', null)
        .orderBy('u.user_id')
        .orderBy('f.id')
        .execute();
      const taken = new Set(
        (await this.db.selectFrom('user_file_states').select('user_id').where('file_id', '=', fileId).execute()).map((r) => r.user_id),
      );
      for (const record of records) {
        if (taken.has(record.user_id)) continue;
        taken.add(record.user_id);
        await this.db
          .insertInto('user_file_states')
          .values({ ...record, file_id: fileId, updated_at: now() })
          .execute();
        copied++;
      }
    }
    return copied;
  }
}
