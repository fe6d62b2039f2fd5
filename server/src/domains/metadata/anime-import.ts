/**
 * DESIGN — metadata domain: AniDB data and what is derived from it: anime downloads and the series, groups and
 * episodes made from them (this file), file identification (file-matching), MyList, manual links, the AniDB search,
 * series removal and the scheduled re-checks. Routes: metadata.routes.ts (`Series/AniDB/*`, `DELETE Series/{id}`,
 * `File/{id}/Link*`); SQL: anime, local-series, file-links, file-xrefs, manual-links, anidb-search,
 * metadata-scheduler and series-removal stores. Files come from the files domain; TMDB follows through events.
 */
import type { EventBus } from '../../events/bus.js';
import type { Logger } from 'pino';
import { JobPriority, PermanentJobError, type JobContext, type JobDefinition } from '../../jobs/job.js';
import { AniDBAnimeNotFoundError } from '../../providers/anidb/http/index.js';
import type { QueueService } from '../../jobs/queue.service.js';
import { Exclusive } from '../../jobs/exclusive.js';
import type { FileReads } from '../files/index.js';
import { fileEvent } from '../files/index.js';
import type { SettingsService } from '../settings/index.js';
import type { AnimeMetadata, AnimeStore } from './anime.store.js';
import type { LocalSeriesStore } from './local-series.store.js';
import type { FileLinksStore } from './file-links.store.js';
import { bestScored, findRelatedGroup, relationGraph, relationScores, type GroupingRules, type RelationSource } from './grouping.js';

/** Where anime metadata comes from (the AniDB HTTP client with its disk cache). */
export interface AnimeSource {
  getAnime(animeId: number, options: { force: boolean }): Promise<AnimeMetadata>;
}

export interface AnimeImportPayload {
  animeId: number;
  createSeries: boolean;
  force?: boolean;
}

/**
 * "Get AniDB Anime Data": stores the anime, creates its series (grouped by the AutoGroupSeries rules) and episodes,
 * marks the files linked to it as imported, and announces what changed.
 */
export class AnimeImport {
  readonly job: JobDefinition<AnimeImportPayload>;
  private readonly seriesCreation = new Exclusive();
  /** The import of each anime in progress: a queued one and an immediate one of the same anime run one after another. */
  private readonly importing = new Map<number, Promise<void>>();

  constructor(
    private readonly deps: {
      source: AnimeSource;
      anime: AnimeStore;
      localSeries: LocalSeriesStore;
      links: FileLinksStore;
      files: FileReads;
      settings: SettingsService;
      queue: QueueService;
      bus: EventBus;
      /** The anime's data was stored (its images get downloaded). */
      onAnimeSaved?: (meta: AnimeMetadata) => Promise<unknown>;
      /** Files that just became imported (rename/move on import follows). */
      onFilesImported?: (fileIds: number[]) => Promise<unknown>;
      /** A new series joined an existing group: its name and description follow the group's main series again. */
      onSeriesJoinedGroup?: (groupId: number) => Promise<unknown>;
    },
  ) {
    this.job = {
      kind: 'GetAniDBAnimeJob',
      type: 'Get AniDB Anime Data',
      title: 'Getting AniDB Anime Data',
      group: 'AniDB',
      priority: JobPriority.Lookup,
      key: (p) => `${p.animeId}`,
      details: (p) => ({ AnimeID: p.animeId }),
      run: (p, ctx) => this.importInTurn(p, ctx),
      // A file identified while this ran may have been linked after announceMatchedFiles read the anime's files.
      rerunWhenAskedWhileRunning: true,
    };
    deps.queue.register(this.job);
  }

  queue(animeId: number, options: { createSeries?: boolean; force?: boolean } = {}): Promise<boolean> {
    return this.deps.queue.enqueue(this.job, { animeId, createSeries: options.createSeries ?? true, force: options.force ?? false });
  }

  async animeOfSeries(seriesId: number): Promise<number | null> {
    return (await this.deps.localSeries.series(seriesId))?.anime_id ?? null;
  }

  /**
   * The same work as the job, now, for the API's `immediate`; false when AniDB could not be asked (a ban, an error). It
   * takes its turn with the job of the same anime, so the second of them finds the record the first one downloaded.
   */
  async importNow(payload: AnimeImportPayload, logger: Logger): Promise<boolean> {
    try {
      await this.importInTurn(payload, { logger, signal: new AbortController().signal, progress: () => undefined });
      return true;
    } catch (error) {
      logger.warn(`Getting AniDB anime ${payload.animeId} failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  /** Runs the import after any other import of the same anime has ended. */
  private importInTurn(payload: AnimeImportPayload, ctx: JobContext): Promise<void> {
    const { animeId } = payload;
    const previous = this.importing.get(animeId) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.import(payload, ctx));
    this.importing.set(animeId, run);
    const forget = () => {
      if (this.importing.get(animeId) === run) this.importing.delete(animeId);
    };
    run.then(forget, forget);
    return run;
  }

  private async fetch(animeId: number, force: boolean): Promise<AnimeMetadata> {
    try {
      return await this.deps.source.getAnime(animeId, { force });
    } catch (error) {
      // An unknown id stays unknown. A ban is not the job's failure: the queue holds it until the ban is over.
      if (error instanceof AniDBAnimeNotFoundError) throw new PermanentJobError(error.message);
      throw error;
    }
  }

  private async import({ animeId, createSeries, force = false }: AnimeImportPayload, ctx: JobContext): Promise<void> {
    const meta = await this.fetch(animeId, force);
    await this.deps.anime.save(meta);
    await this.deps.onAnimeSaved?.(meta);
    const episodeIds = meta.episodes.map((e) => e.id);
    // One import at a time finds its related group and creates its series: two related anime imported side by side
    // would otherwise each find no group and each make one.
    const { series, created, added } = await this.seriesCreation.run(() => this.placeSeries(animeId, meta, createSeries, episodeIds, ctx));
    if (!series) return;
    await this.announceSeries(animeId, series.id, created, added);
    await this.announceMatchedFiles(animeId);
  }

  private async placeSeries(
    animeId: number,
    meta: AnimeMetadata,
    createSeries: boolean | undefined,
    episodeIds: number[],
    ctx: JobContext,
  ) {
    let series = await this.deps.localSeries.seriesByAnime(animeId);
    let added: number[] = [];
    const created = !series && !!createSeries;
    if (!series && createSeries) {
      const settings = this.deps.settings.current;
      const groupId = settings.AutoGroupSeries
        ? await findRelatedGroup(
            await relationGraph([animeId], this.groupingRules(), this.relationSource),
            async (ids) => new Map((await this.deps.localSeries.seriesByAnimeIds(ids)).map((s) => [s.anime_id, s.group_id])),
          )
        : null;
      await this.deps.localSeries.createSeries(animeId, { groupId, groupName: meta.mainTitle, description: meta.description, episodeIds });
      series = await this.deps.localSeries.seriesByAnime(animeId);
      if (series && settings.AutoGroupSeries) await this.chooseGroupMain(series.group_id);
      added = episodeIds;
      // Imports finish in any order: a sequel imported first named the group, so the main series may differ now.
      if (groupId) await this.deps.onSeriesJoinedGroup?.(groupId);
      ctx.logger.info(`Created series "${meta.mainTitle}" (AniDB ${animeId})${groupId ? ` in group ${groupId}` : ''}`);
    } else if (series) {
      added = await this.deps.localSeries.addMissingEpisodes(series.id, episodeIds);
    }
    return { series, created, added };
  }

  private readonly relationSource: RelationSource = {
    rowsTouching: (ids) => this.deps.anime.relationRowsTouching(ids),
    facts: (ids) => this.deps.anime.groupingFacts(ids),
  };

  private groupingRules(): GroupingRules {
    const settings = this.deps.settings.current;
    return { maxDepth: settings.AniDb.MaxRelationDepth, exclusions: settings.AutoGroupSeriesRelationExclusions };
  }

  /** With AutoGroupSeriesUseScoreAlgorithm the best-scoring series leads the group; otherwise the earliest aired one. */
  private async chooseGroupMain(groupId: number): Promise<void> {
    if (!this.deps.settings.current.AutoGroupSeriesUseScoreAlgorithm) return this.deps.localSeries.setGroupMainAnime(groupId, null);
    const members = await this.deps.localSeries.animeIdsInGroup(groupId);
    const graph = await relationGraph(members, this.groupingRules(), this.relationSource);
    await this.deps.localSeries.setGroupMainAnime(groupId, bestScored(members, relationScores(graph)));
  }

  /** SeriesUpdated, listing the episodes that are new to the collection (Shokofin refreshes from it). */
  private async announceSeries(animeId: number, seriesId: number, created: boolean, addedEpisodes: number[]): Promise<void> {
    const localIds = await this.deps.localSeries.episodeIdsByAniDB(seriesId, addedEpisodes);
    const episodes = addedEpisodes.map((episodeId) => ({
      Reason: 'Added' as const,
      EpisodeID: episodeId,
      ShokoEpisodeIDs: localIds.has(episodeId) ? [localIds.get(episodeId)!] : [],
    }));
    this.deps.bus.emit('shoko', {
      event: 'SeriesUpdated',
      payload: {
        Source: 'AniDB',
        Reason: created ? 'Added' : 'Updated',
        SeriesID: animeId,
        ShokoSeriesIDs: [seriesId],
        Episodes: episodes,
      },
    });
  }

  private async announceMatchedFiles(animeId: number): Promise<void> {
    const contents = await this.deps.links.contentsOfAnime(animeId);
    const importedIds = await this.deps.localSeries.markImported(contents);
    if (importedIds.length && this.deps.settings.current.Import.UseExistingFileWatchedStatus)
      await this.deps.localSeries.copyWatchedStateFromOtherFiles(importedIds);
    if (importedIds.length) await this.deps.onFilesImported?.(importedIds);
    for (const location of await this.deps.files.locationsOfFiles(importedIds)) {
      this.deps.bus.emit('shoko', { event: 'FileMatched', payload: fileEvent(location.file_id, location) });
    }
  }
}
