/**
 * DESIGN — release-management domain: multiple releases, duplicate files and missing episodes (`/api/v3/ReleaseManagement/*`,
 * contract files.md §6, R1–R18) and which files or locations to remove. Routes: release-management.routes.ts; SQL:
 * release-management.store.ts; quality ranking: file-quality.ts. It reads series models and visibility through the series
 * domain's SeriesModels and SeriesAccess, and leaves deleting to the files domain's FilesService.
 */
import type {
  File,
  FileCrossReference,
  FileIdSet,
  FileIncludeType,
  ListResult,
  ReleaseEpisode,
  ReleaseManagementType,
  SeriesWithEpisodeCount,
} from '@shoko-ts/contract';
import type { SeriesModels } from '../series/index.js';
import type { Viewer } from '../../http/viewer.js';
import type { FilesService } from '../files/index.js';
import type { SeriesAccess } from '../series/index.js';
import type { EpisodesService } from '../episodes/index.js';
import { filesToDelete, type QualityPreferences } from './file-quality.js';
import type { EpisodeFileRow, EpisodeScope, Paging, ReleaseManagementStore } from './release-management.store.js';

/** The toggles of a list request. */
export interface ScopeOptions {
  ignoreVariations: boolean;
  collecting: boolean;
}

/** What an episode list carries besides the episodes themselves. */
export interface EpisodeOptions {
  includeAniDB: boolean;
  includeTMDB: boolean;
  includeFiles: boolean;
  includeMediaInfo: boolean;
  includeAbsolutePaths: boolean;
  includeXRefs: boolean;
}

const today = () => new Date().toISOString().slice(0, 10);
const EMPTY: ListResult<never> = { Total: 0, List: [] };

/**
 * Release management (contract files.md §6): episodes with several releases, files stored more than once, and
 * missing episodes — as series lists with counts and per-series episode lists with their files. Series whose tags
 * are restricted for the viewer are left out everywhere.
 */
export class ReleaseManagementService {
  constructor(
    private readonly deps: {
      store: ReleaseManagementStore;
      models: SeriesModels;
      series: Pick<SeriesAccess, 'isVisible'>;
      episodes: Pick<EpisodesService, 'modelsInOrder'>;
      files: Pick<FilesService, 'list'>;
      qualityPreferences(): QualityPreferences;
    },
  ) {}

  viewer(userId: number | null): Promise<Viewer> {
    return this.deps.models.viewer(userId);
  }

  private scope(type: ReleaseManagementType, viewer: Viewer, options: ScopeOptions, seriesId?: number): EpisodeScope {
    return {
      type,
      ...options,
      allowed: this.deps.models.seriesAllowed(viewer, 's'),
      restricted: viewer.restrictedTags.length > 0,
      seriesId,
      today: today(),
    };
  }

  /** R3, R8, R12: series with episodes in the category, by name, each with its count. */
  async series(
    type: ReleaseManagementType,
    viewer: Viewer,
    options: ScopeOptions & { onlyFinishedSeries: boolean; includeAniDB: boolean; includeTMDB: boolean },
    paging: Paging,
  ): Promise<ListResult<SeriesWithEpisodeCount>> {
    const { total, rows } = await this.deps.store.seriesPage(this.scope(type, viewer, options), options.onlyFinishedSeries, paging);
    const counts = new Map(rows.map((r) => [r.series_id, r.episode_count]));
    const models = await this.deps.models.seriesModels(
      rows.map((r) => r.series_id),
      viewer,
      { includeAniDB: options.includeAniDB, includeTMDB: options.includeTMDB },
    );
    return { Total: total, List: models.map((series) => ({ ...series, EpisodeCount: counts.get(series.IDs.ID) ?? 0 })) };
  }

  /**
   * R1, R4, R6, R9, R11, R13: episodes in the category (of one series, or all), each with its files: every file for
   * multiple releases, only the ones stored twice for duplicates (their `Size` is then that count).
   */
  async episodes(
    type: ReleaseManagementType,
    viewer: Viewer,
    options: ScopeOptions & EpisodeOptions,
    paging: Paging,
    seriesId?: number,
  ): Promise<ListResult<ReleaseEpisode>> {
    if (seriesId !== undefined && !(await this.seriesVisible(viewer, seriesId))) return EMPTY;
    const { total, ids } = await this.deps.store.episodePage(this.scope(type, viewer, options, seriesId), paging);
    if (!ids.length) return { Total: total, List: [] };
    const episodes: ReleaseEpisode[] = await this.deps.episodes.modelsInOrder(ids, viewer.userId, {
      includeAniDB: options.includeAniDB,
      includeTMDB: options.includeTMDB,
    });
    const wantFiles = options.includeFiles || options.includeXRefs;
    if (type === 'MissingEpisodes' || !wantFiles) {
      for (const episode of episodes) {
        if (options.includeFiles) episode.Files = [];
        if (options.includeXRefs) episode.CrossReferences = [];
      }
      return { Total: total, List: episodes };
    }
    const duplicates = type === 'DuplicateFiles';
    const links = await this.deps.store.episodeFiles(ids, duplicates);
    // Duplicates always carry absolute paths: the point is to see where each copy lives.
    const files = await this.fileModels(links, { ...options, includeAbsolutePaths: options.includeAbsolutePaths || duplicates });
    const byEpisode = groupBy(links, (l) => l.episode_id);
    for (const episode of episodes) {
      const own = (byEpisode.get(episode.IDs.ID) ?? []).map((l) => files.get(l.file_id)).filter((f) => f !== undefined);
      if (options.includeXRefs) {
        episode.CrossReferences = own.flatMap((file) =>
          ((file.SeriesIDs as FileCrossReference[] | undefined) ?? []).flatMap((x) =>
            x.EpisodeIDs.filter((e) => e.AniDB === episode.IDs.AniDB),
          ),
        );
      }
      if (options.includeFiles) episode.Files = own.map((file) => (options.includeXRefs ? file : withoutXRefs(file)));
      if (duplicates) episode.Size = own.length;
    }
    return { Total: total, List: episodes };
  }

  /** R2, R5: files the quality preferences would remove from multiple-release episodes. */
  async filesToDelete(viewer: Viewer, ignoreVariations: boolean, seriesId?: number): Promise<number[]> {
    if (seriesId !== undefined && !(await this.seriesVisible(viewer, seriesId))) return [];
    const { ids } = await this.deps.store.episodePage(
      this.scope('MultipleReleases', viewer, { ignoreVariations, collecting: false }, seriesId),
      { page: 1, pageSize: 0 },
    );
    const links = await this.deps.store.episodeFiles(ids, false);
    const facts = new Map((await this.deps.store.qualityFacts([...new Set(links.map((l) => l.file_id))])).map((f) => [f.id, f]));
    const prefs = this.deps.qualityPreferences();
    const suggested = new Set<number>();
    for (const [, files] of groupBy(links, (l) => l.episode_id)) {
      for (const id of filesToDelete(files.map((l) => facts.get(l.file_id)!).filter(Boolean), prefs)) suggested.add(id);
    }
    return [...suggested].sort((a, b) => a - b);
  }

  /** R7, R10: per file stored more than once, every location except the first reachable one. */
  async locationsToAutoRemove(viewer: Viewer, seriesId?: number): Promise<FileIdSet[]> {
    if (seriesId !== undefined && !(await this.seriesVisible(viewer, seriesId))) return [];
    const { ids } = await this.deps.store.episodePage(
      this.scope('DuplicateFiles', viewer, { ignoreVariations: false, collecting: false }, seriesId),
      { page: 1, pageSize: 0 },
    );
    const links = await this.deps.store.episodeFiles(ids, true);
    const seriesOf = await this.deps.store.seriesOfEpisodes(ids);
    const locations = groupBy(await this.deps.store.locationsOf([...new Set(links.map((l) => l.file_id))]), (l) => l.file_id);
    return [...groupBy(links, (l) => l.file_id)].map(([fileId, own]) => {
      const all = locations.get(fileId) ?? [];
      const kept = all.find((l) => l.is_accessible && l.folder_available) ?? all[0];
      return {
        FileID: fileId,
        AnimeSeriesIDs: [...new Set(own.map((l) => seriesOf.get(l.episode_id)!))],
        AnimeEpisodeIDs: [...new Set(own.map((l) => l.episode_id))],
        // A copy in an offline folder is neither kept nor removed: it cannot be judged until its folder is back (issue 49).
        FileLocationIDs: all.filter((l) => l !== kept && l.folder_available).map((l) => l.id),
      };
    });
  }

  private seriesVisible(viewer: Viewer, seriesId: number): Promise<boolean> {
    return this.deps.series.isVisible(viewer, seriesId);
  }

  /** File models of the linked files, through the files API's own list (one query for the lot). */
  private async fileModels(links: EpisodeFileRow[], options: EpisodeOptions): Promise<Map<number, File>> {
    if (!links.length) return new Map();
    const include: FileIncludeType[] = ['Ignored'];
    if (options.includeMediaInfo) include.push('MediaInfo');
    if (options.includeAbsolutePaths) include.push('AbsolutePaths');
    if (options.includeXRefs) include.push('XRefs');
    const { List } = await this.deps.files.list({
      page: 1,
      pageSize: 0,
      include,
      includeOnly: [],
      exclude: [],
      sortOrder: [],
      includeDataFrom: options.includeAniDB ? ['AniDB'] : [],
      contents: new Set(links.map((l) => `${l.ed2k}:${l.size}`)),
    });
    return new Map(List.map((file) => [file.ID, file]));
  }
}

function withoutXRefs(file: File): File {
  const { SeriesIDs: _omitted, ...rest } = file;
  return rest as File;
}

function groupBy<T, K>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const result = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = result.get(k);
    if (list) list.push(item);
    else result.set(k, [item]);
  }
  return result;
}
