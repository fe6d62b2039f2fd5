import type { EventBus } from '../../events/bus.js';
import { notFound } from '../../http/problem.js';
import type { FileXRefs } from './file-xrefs.js';
import type { SeriesRemovalStore } from './series-removal.store.js';

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
      store: SeriesRemovalStore;
      xrefs: FileXRefs;
      bus: EventBus;
      /** The files domain's delete, which confines disk deletions to import folders. */
      deleteFiles(fileIds: number[], options: { removeFiles: boolean; removeFolders: boolean }): Promise<void>;
    },
  ) {}

  async remove(seriesId: number, options: SeriesRemovalOptions): Promise<void> {
    const series = await this.deps.store.series(seriesId);
    if (!series) throw notFound('No Series entry for the given seriesID');

    const contents = (await this.deps.xrefs.contentsOfSeries(seriesId)) ?? new Set<string>();
    const hashes = [...new Set([...contents].map((key) => key.split(':')[0]))];
    const fileIds: number[] = [];
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await this.deps.store.filesOfHashes(hashes.slice(i, i + 500));
      fileIds.push(...rows.filter((row) => contents.has(`${row.ed2k}:${row.size}`)).map((row) => row.id));
    }
    if (fileIds.length) await this.deps.deleteFiles(fileIds, { removeFiles: options.deleteFiles, removeFolders: true });

    await this.deps.store.removeSeries(series, {
      linkSources: options.completelyRemove ? ['User', 'AniDB'] : ['User'],
      anidbData: options.completelyRemove,
    });
    this.deps.bus.emit('shoko', {
      event: 'SeriesUpdated',
      payload: { Source: 'AniDB', Reason: 'Removed', SeriesID: series.anime_id, ShokoSeriesIDs: [series.id], Episodes: [] },
    });
  }
}
