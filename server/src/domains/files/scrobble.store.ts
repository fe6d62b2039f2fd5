import type { Kysely } from 'kysely';
import { byIds } from '../../db/shared-queries.js';
import type { Database, UserFileStatesTable } from '../../db/schema.js';

export type FileState = Omit<UserFileStatesTable, 'user_id' | 'file_id'>;

/** SQL of the per-user file records (table `user_file_states`). */
export class ScrobbleStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The file's media info (for its duration), or undefined for an unknown id. */
  async file(fileId: number): Promise<{ id: number; media_info: string | null } | undefined> {
    return this.db.selectFrom('files').select(['id', 'media_info']).where('id', '=', fileId).executeTakeFirst();
  }

  async state(userId: number, fileId: number): Promise<FileState | undefined> {
    const row = await this.db
      .selectFrom('user_file_states')
      .select(['resume_position_ms', 'watched_at', 'watch_count', 'updated_at'])
      .where('user_id', '=', userId)
      .where('file_id', '=', fileId)
      .executeTakeFirst();
    return row && { ...row, resume_position_ms: Number(row.resume_position_ms), watch_count: Number(row.watch_count) };
  }

  /** The users' records of these files, by file id. */
  async states(userId: number, fileIds: number[]): Promise<Map<number, FileState>> {
    if (!fileIds.length) return new Map();
    const states = () =>
      this.db
        .selectFrom('user_file_states')
        .select(['file_id', 'resume_position_ms', 'watched_at', 'watch_count', 'updated_at'])
        .where('user_id', '=', userId);
    const rows = await byIds(
      fileIds,
      (row) => Number(row.file_id),
      (slice) => states().where('file_id', 'in', slice).execute(),
      () => states().execute(),
    );
    return new Map(
      rows.map(({ file_id, ...row }) => [
        Number(file_id),
        { ...row, resume_position_ms: Number(row.resume_position_ms), watch_count: Number(row.watch_count) },
      ]),
    );
  }

  async save(userId: number, fileId: number, state: FileState): Promise<void> {
    await this.db
      .insertInto('user_file_states')
      .values({ user_id: userId, file_id: fileId, ...state })
      .onConflict((oc) => oc.columns(['user_id', 'file_id']).doUpdateSet(state))
      .execute();
  }

  /** Shoko episode ids the file's content is linked to. */
  async episodeIds(fileId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('files as f')
      .innerJoin('file_episode_links as l', (join) => join.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .innerJoin('episodes as e', 'e.anidb_episode_id', 'l.episode_id')
      .select('e.id')
      .distinct()
      .where('f.id', '=', fileId)
      .execute();
    return rows.map((r) => Number(r.id));
  }
}
