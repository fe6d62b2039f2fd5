import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EventBus } from '../../events/bus.js';
import { notFound } from '../../http/problem.js';
import type { FileXRefs } from './file-xrefs.js';

export interface SeriesRemovalOptions {
  /** Delete the files from disk too (otherwise only their records go; the files are found again by the next scan). */
  deleteFiles: boolean;
  /** Also forget AniDB's data of the anime and AniDB's links to it. */
  completelyRemove: boolean;
}

/**
 * `DELETE Series/{id}`: the series' file locations (records, and files on disk only when asked), its episodes, the
 * links users made to it, and its group when that is left empty.
 */
export class SeriesRemoval {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      xrefs: FileXRefs;
      bus: EventBus;
      /** The files domain's delete, which confines disk deletions to import folders. */
      deleteFiles(fileIds: number[], options: { removeFiles: boolean; removeFolders: boolean }): Promise<void>;
    },
  ) {}

  async remove(seriesId: number, options: SeriesRemovalOptions): Promise<void> {
    const db = this.deps.db;
    const series = await db.selectFrom('series').select(['id', 'anime_id', 'group_id']).where('id', '=', seriesId).executeTakeFirst();
    if (!series) throw notFound('No Series entry for the given seriesID');

    const contents = (await this.deps.xrefs.contentsOfSeries(seriesId)) ?? new Set<string>();
    const hashes = [...new Set([...contents].map((key) => key.split(':')[0]))];
    const fileIds: number[] = [];
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await db
        .selectFrom('files')
        .select(['id', 'ed2k', 'size'])
        .where('ed2k', 'in', hashes.slice(i, i + 500))
        .execute();
      fileIds.push(...rows.filter((row) => contents.has(`${row.ed2k}:${row.size}`)).map((row) => row.id));
    }
    if (fileIds.length) await this.deps.deleteFiles(fileIds, { removeFiles: options.deleteFiles, removeFolders: true });

    await db.transaction().execute(async (trx) => {
      const linkSources = options.completelyRemove ? ['User', 'AniDB'] : ['User'];
      await trx
        .deleteFrom('file_episode_links')
        .where('anime_id', '=', series.anime_id)
        .where('source', 'in', linkSources as Array<'User' | 'AniDB'>)
        .execute();
      await trx.deleteFrom('episodes').where('series_id', '=', series.id).execute();
      await trx.deleteFrom('series').where('id', '=', series.id).execute();
      // The group goes when it holds nothing else, and so do its parents that are left empty.
      let groupId: number | null = series.group_id;
      while (groupId !== null) {
        const hasSeries = await trx.selectFrom('series').select('id').where('group_id', '=', groupId).executeTakeFirst();
        const hasChildren = await trx.selectFrom('groups').select('id').where('parent_id', '=', groupId).executeTakeFirst();
        if (hasSeries || hasChildren) break;
        const group: { parent_id: number | null } | undefined = await trx
          .selectFrom('groups')
          .select('parent_id')
          .where('id', '=', groupId)
          .executeTakeFirst();
        await trx.deleteFrom('groups').where('id', '=', groupId).execute();
        groupId = group?.parent_id ?? null;
      }
      if (options.completelyRemove) {
        await trx.deleteFrom('anidb_files').where('anime_id', '=', series.anime_id).execute();
        await trx.deleteFrom('anidb_anime').where('id', '=', series.anime_id).execute();
      }
    });
    this.deps.bus.emit('shoko', {
      event: 'SeriesUpdated',
      payload: { Source: 'AniDB', Reason: 'Removed', SeriesID: series.anime_id, ShokoSeriesIDs: [series.id], Episodes: [] },
    });
  }
}
