/**
 * DESIGN — actions domain: the server actions of `GET /api/v3/Action/<Name>` (contract server.md §6): each queues work
 * on the jobs queue and returns at once; actions with no integration on this server answer 400 with the reason.
 * Routes: actions.routes.ts; SQL: actions.store.ts (what a bulk action walks over). The work itself belongs to the
 * neighbours it calls: import, files, metadata (AniDB, MyList), tmdb and integrations (Plex).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { JobPriority, type JobContext, type JobDefinition } from '../../jobs/job.js';
import type { QueueService } from '../../jobs/queue.service.js';
import { badRequest, problemError, textError, validationError } from '../../http/problem.js';
import type { SettingsService } from '../settings/index.js';
import type { ImportService } from '../import/index.js';
import type { FilesService } from '../files/index.js';
import type { AnimeImport, MetadataScheduler, MyList } from '../metadata/index.js';
import type { TmdbDomain } from '../tmdb/index.js';
import { folderLabel, type FolderAvailability, type ImportFolderRow } from '../import-folders/index.js';
import type { ActionsStore } from './actions.store.js';

/** Work an action does in the background; the HTTP call only queues it. */
type BulkAction =
  | 'RemoveMissingFiles'
  | 'SyncMyList'
  | 'UpdateAllAniDBInfo'
  | 'SearchForTmdbMatches'
  | 'UpdateAllTmdbShows'
  | 'UpdateAllTmdbMovies'
  | 'UpdateAllMediaInfo';
interface ActionPayload {
  action: BulkAction;
  removeFromMyList?: boolean;
}

/** What the HTTP layer answers: nothing (queued) or a text body. */
export type ActionOutcome = { text?: string };

/**
 * Actions for which this server has no integration yet answer 400 (text, like Shoko's other refusals) with the reason, so the console can say so
 * instead of pretending the work was queued.
 */
const NOT_AVAILABLE: Record<string, string> = {
  SyncVotes: 'AniDB vote syncing is not available on this server yet.',
  UpdateAniDBCalendar: 'The AniDB calendar is not fetched by this server yet.',
  GetAniDBNotifications: 'AniDB notifications are not fetched by this server yet.',
  RefreshAniDBMovedFiles: 'AniDB moved-file messages are not processed by this server yet.',
  PurgeAllUnusedTmdbShows: 'Purging TMDB shows is not available on this server yet.',
  PurgeAllUnusedTmdbMovies: 'Purging TMDB movies is not available on this server yet.',
  DownloadMissingTmdbPeople: 'TMDB people are stored with their show or movie; there is nothing separate to download.',
  PurgeAllTmdbMovieCollections: 'TMDB movie collections are not stored by this server.',
  PurgeAllTmdbShowAlternateOrderings: 'Purging TMDB alternate orderings is not available on this server yet.',
  PurgeAllUnusedTmdbImages: 'TMDB images are not downloaded by this server yet.',
  PurgeAllTmdbLinks: 'Purging all TMDB links is not available on this server yet.',
  RecreateAllGroups: 'Recreating all groups is not available on this server yet.',
  RenameAllGroups: 'Renaming all groups is not available on this server yet.',
  UpdateMissingAniDBFileInfo: 'Refreshing AniDB file information in bulk is not available on this server yet.',
  UpdateSeriesStats: 'Series statistics are computed live on this server; there is nothing to recalculate.',
  UpdateAllImages: 'Image downloads are not available on this server yet.',
  ValidateAllImages: 'Image validation is not available on this server yet.',
  DownloadMissingAniDBCreators: 'Creator downloads are not available on this server yet.',
  CreateMissingSeries: 'Series are created with their anime on this server; there are none to create.',
};

export interface ActionsDeps {
  store: ActionsStore;
  queue: QueueService;
  settings: SettingsService;
  importer: ImportService;
  files: FilesService;
  animeImport: AnimeImport;
  scheduler: MetadataScheduler;
  myList: MyList;
  tmdb: TmdbDomain;
  /** Queues a Plex watched-state sync for every user with a Plex login; returns how many. */
  plexSyncAll: () => Promise<number>;
  /** Queues the Trakt send or get of every series the Trakt sync covers (integrations domain). */
  queueTraktSync: (direction: 'send' | 'get') => Promise<void>;
  /** Which import folders are offline: Remove Missing Files leaves their records alone (issue 49). */
  availability: FolderAvailability;
}

/** contract server.md §6: each action queues its work and returns at once. */
export class ActionsService {
  private readonly job: JobDefinition<ActionPayload>;

  constructor(private readonly deps: ActionsDeps) {
    this.job = {
      kind: 'RunActionJob',
      type: 'Run Action',
      title: 'Running Action',
      group: 'Actions',
      priority: JobPriority.Maintenance,
      key: (p) => `${p.action}${p.removeFromMyList === undefined ? '' : `.${p.removeFromMyList}`}`,
      details: (p) => ({ Action: p.action }),
      run: (p, ctx) => this.runBulk(p, ctx),
    };
    deps.queue.register(this.job);
  }

  /** Runs the action `name` (route segment, already matched case-insensitively by the router). */
  async run(name: string, options: { removeFromMyList?: boolean } = {}): Promise<ActionOutcome> {
    const unavailable = NOT_AVAILABLE[name];
    if (unavailable) throw badRequest(unavailable);
    switch (name) {
      case 'RunImport':
        await this.deps.importer.queueImport();
        return {};
      case 'ImportNewFiles':
        for (const folderId of await this.deps.store.importFolderIds()) await this.deps.importer.queueScan(folderId, true);
        return {};
      case 'DownloadMissingAniDBAnimeData':
        void this.deps.scheduler.check();
        return {};
      case 'AddAllManualLinksToMyList': {
        const rows = await this.deps.store.manuallyLinkedContents();
        for (const row of rows) await this.deps.myList.queueAdd({ ed2k: row.ed2k, size: row.size }, { force: true });
        return { text: `Saved ${rows.length} AddToMyList Commands` };
      }
      case 'AVDumpMismatchedFiles':
        if (!this.deps.settings.current.AniDb.AVDumpKey?.trim()) throw validationError('Settings', 'Missing AVDump API key.');
        throw badRequest(
          'Finding files whose chapters disagree with AniDB is not available on this server yet; AVDump single files from Unrecognized Files.',
        );
      case 'SendWatchStatesToTrakt':
      case 'GetWatchStatesFromTrakt': {
        const trakt = this.deps.settings.current.TraktTv;
        if (!trakt.Enabled || !trakt.AuthToken) throw badRequest('Trakt account is not linked!');
        await this.deps.queueTraktSync(name === 'SendWatchStatesToTrakt' ? 'send' : 'get');
        return {};
      }
      case 'PlexSyncAll':
        await this.deps.plexSyncAll();
        return {};
      case 'SyncHashes':
        throw problemError(400);
      case 'RemoveMissingFiles': {
        await this.deps.queue.enqueue(this.job, { action: 'RemoveMissingFiles', removeFromMyList: options.removeFromMyList ?? true });
        const skipped = await this.offlineFolderNotice(await this.deps.availability.unavailable());
        return skipped ? { text: `Removing missing files. ${skipped}` } : {};
      }
      case 'SyncMyList':
      case 'UpdateAllAniDBInfo':
      case 'SearchForTmdbMatches':
      case 'UpdateAllTmdbShows':
      case 'UpdateAllTmdbMovies':
      case 'UpdateAllMediaInfo':
        await this.deps.queue.enqueue(this.job, { action: name });
        return {};
      default:
        throw textError(404, `Unknown action ${name}.`);
    }
  }

  private async runBulk({ action, removeFromMyList }: ActionPayload, ctx: JobContext): Promise<void> {
    const { store, queue } = this.deps;
    switch (action) {
      case 'RemoveMissingFiles':
        return this.removeMissingFiles(removeFromMyList ?? true, ctx);
      case 'SyncMyList': {
        const rows = await store.linkedFileContents();
        for (const row of rows) await this.deps.myList.queueAdd({ ed2k: row.ed2k, size: row.size }, { force: true });
        ctx.logger.info(`MyList sync: queued ${rows.length} file(s)`);
        return;
      }
      case 'UpdateAllAniDBInfo':
        for (const animeId of await store.seriesAnimeIds()) await this.deps.animeImport.queue(animeId, { force: true });
        return;
      case 'SearchForTmdbMatches':
        for (const animeId of await store.animeIdsWithoutTmdbLink()) await this.deps.tmdb.linking.queueAutoMatch(animeId);
        return;
      case 'UpdateAllTmdbShows':
        for (const showId of await store.tmdbShowIds()) await this.deps.tmdb.sync.queueShow(showId, { force: true });
        return;
      case 'UpdateAllTmdbMovies':
        for (const movieId of await store.tmdbMovieIds()) await this.deps.tmdb.sync.queueMovie(movieId, { force: true });
        return;
      case 'UpdateAllMediaInfo': {
        const ids = (await store.hashedFileIds()).map((fileId) => ({ fileId }));
        await queue.enqueueMany(this.deps.importer.mediaInfoJob, ids);
        return;
      }
    }
  }

  /** What Remove Missing Files leaves alone: `Skipped offline import folder "NAS" (/mnt/nas/): its 50 file record(s) are kept.` */
  private async offlineFolderNotice(offlineById: Map<number, ImportFolderRow>): Promise<string | null> {
    const offline = [...offlineById.values()];
    if (!offline.length) return null;
    const counts = await this.deps.store.locationCounts(offline.map((folder) => folder.id));
    return offline
      .map((folder) => `Skipped offline import folder ${folderLabel(folder)}: its ${counts.get(folder.id) ?? 0} file record(s) are kept.`)
      .join(' ');
  }

  /**
   * Forgets locations whose file is gone from disk; the file record goes with its last location. Locations in an
   * offline folder are not gone and stay (issue 49); only `DELETE ImportFolder/{id}/OfflineRecords` removes them.
   */
  private async removeMissingFiles(removeFromMyList: boolean, ctx: JobContext): Promise<void> {
    const offline = await this.deps.availability.unavailable();
    const skipped = await this.offlineFolderNotice(offline);
    if (skipped) ctx.logger.warn(`Remove Missing Files: ${skipped}`);
    const locations = (await this.deps.store.locationsOnDisk()).filter((location) => !offline.has(location.import_folder_id));
    let removed = 0;
    // A folder is looked at again when its first missing file is met: a drive unplugged during the run is offline too.
    const rechecked = new Set<number>();
    for (const location of locations) {
      if (ctx.signal.aborted) return;
      if (offline.has(location.import_folder_id)) continue;
      const exists = await fs.access(path.join(location.folder_path, location.relative_path)).then(
        () => true,
        () => false,
      );
      if (exists) continue;
      if (!rechecked.has(location.import_folder_id)) {
        rechecked.add(location.import_folder_id);
        const folder = await this.deps.availability.check(location.import_folder_id);
        if (folder && !folder.is_available) {
          offline.set(folder.id, folder);
          ctx.logger.warn(`Remove Missing Files: import folder ${folderLabel(folder)} went offline; its records are kept.`);
          continue;
        }
      }
      await this.deps.files.deleteLocationById(location.id, { removeFiles: false, removeFolders: false }, true);
      removed++;
      if (!(await this.deps.store.fileHasLocations(location.file_id))) {
        await this.deps.store.deleteFile(location.file_id);
        if (removeFromMyList && location.ed2k) await this.deps.myList.queueRemove({ ed2k: location.ed2k, size: location.size });
      }
    }
    ctx.logger.info(`Remove Missing Files: removed ${removed} missing location(s)${offline.size ? `, offline folder(s) skipped` : ''}`);
  }
}
