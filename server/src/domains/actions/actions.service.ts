import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { JobPriority, type JobContext, type JobDefinition } from '../../jobs/job.js';
import type { QueueService } from '../../jobs/queue.service.js';
import { badRequest, problemError, textError, validationError } from '../../http/problem.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ImportService } from '../import/import.service.js';
import type { FilesService } from '../files/files.service.js';
import type { AnimeImport } from '../metadata/anime-import.js';
import type { MetadataScheduler } from '../metadata/metadata-scheduler.js';
import type { MyList } from '../metadata/my-list.js';
import type { TmdbDomain } from '../tmdb/tmdb.domain.js';

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
  db: Kysely<Database>;
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

  /** Plex › Force Unlink: the user's Plex token is forgotten. */
  async forgetPlexToken(userId: number): Promise<void> {
    await this.deps.db.updateTable('users').set({ plex_token: null }).where('id', '=', userId).execute();
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
        for (const folder of await this.deps.db.selectFrom('import_folders').select('id').execute())
          await this.deps.importer.queueScan(folder.id, true);
        return {};
      case 'DownloadMissingAniDBAnimeData':
        void this.deps.scheduler.check();
        return {};
      case 'AddAllManualLinksToMyList': {
        const rows = await this.deps.db
          .selectFrom('file_episode_links')
          .select(['ed2k', 'size'])
          .where('source', '=', 'User')
          .distinct()
          .execute();
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
        throw badRequest('Trakt syncing is not available on this server yet.');
      }
      case 'PlexSyncAll':
        await this.deps.plexSyncAll();
        return {};
      case 'SyncHashes':
        throw problemError(400);
      case 'RemoveMissingFiles':
        await this.deps.queue.enqueue(this.job, { action: 'RemoveMissingFiles', removeFromMyList: options.removeFromMyList ?? true });
        return {};
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
    const { db, queue } = this.deps;
    switch (action) {
      case 'RemoveMissingFiles':
        return this.removeMissingFiles(removeFromMyList ?? true, ctx);
      case 'SyncMyList': {
        const rows = await db
          .selectFrom('files as f')
          .innerJoin('file_episode_links as l', (j) => j.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
          .select(['f.ed2k', 'f.size'])
          .distinct()
          .execute();
        for (const row of rows) await this.deps.myList.queueAdd({ ed2k: row.ed2k, size: row.size }, { force: true });
        ctx.logger.info(`MyList sync: queued ${rows.length} file(s)`);
        return;
      }
      case 'UpdateAllAniDBInfo': {
        const rows = await db.selectFrom('series').select('anime_id').execute();
        for (const row of rows) await this.deps.animeImport.queue(row.anime_id, { force: true });
        return;
      }
      case 'SearchForTmdbMatches': {
        const rows = await db
          .selectFrom('series as s')
          .select('s.anime_id')
          .where((eb) =>
            eb.not(eb.exists(eb.selectFrom('xref_anidb_tmdb_show as x').select('x.anime_id').whereRef('x.anime_id', '=', 's.anime_id'))),
          )
          .where((eb) =>
            eb.not(eb.exists(eb.selectFrom('xref_anidb_tmdb_movie as m').select('m.anime_id').whereRef('m.anime_id', '=', 's.anime_id'))),
          )
          .execute();
        for (const row of rows) await this.deps.tmdb.linking.queueAutoMatch(row.anime_id);
        return;
      }
      case 'UpdateAllTmdbShows':
        for (const row of await db.selectFrom('tmdb_shows').select('id').execute())
          await this.deps.tmdb.sync.queueShow(row.id, { force: true });
        return;
      case 'UpdateAllTmdbMovies':
        for (const row of await db.selectFrom('tmdb_movies').select('id').execute())
          await this.deps.tmdb.sync.queueMovie(row.id, { force: true });
        return;
      case 'UpdateAllMediaInfo': {
        const ids = (await db.selectFrom('files').select('id').where('ed2k', '<>', '').execute()).map((r) => ({ fileId: r.id }));
        await queue.enqueueMany(this.deps.importer.mediaInfoJob, ids);
        return;
      }
    }
  }

  /** Forgets locations whose file is gone from disk; the file record goes with its last location. */
  private async removeMissingFiles(removeFromMyList: boolean, ctx: JobContext): Promise<void> {
    const locations = await this.deps.db
      .selectFrom('file_locations as l')
      .innerJoin('import_folders as f', 'f.id', 'l.import_folder_id')
      .innerJoin('files as file', 'file.id', 'l.file_id')
      .select(['l.id', 'l.file_id', 'l.relative_path', 'f.path as folder_path', 'file.ed2k', 'file.size'])
      .execute();
    let removed = 0;
    for (const location of locations) {
      if (ctx.signal.aborted) return;
      const exists = await fs.access(path.join(location.folder_path, location.relative_path)).then(
        () => true,
        () => false,
      );
      if (exists) continue;
      await this.deps.files.deleteLocationById(location.id, { removeFiles: false, removeFolders: false }, true);
      removed++;
      const left = await this.deps.db.selectFrom('file_locations').select('id').where('file_id', '=', location.file_id).executeTakeFirst();
      if (!left) {
        await this.deps.db.deleteFrom('files').where('id', '=', location.file_id).execute();
        if (removeFromMyList && location.ed2k) await this.deps.myList.queueRemove({ ed2k: location.ed2k, size: location.size });
      }
    }
    ctx.logger.info(`Remove Missing Files: removed ${removed} missing location(s)`);
  }
}
