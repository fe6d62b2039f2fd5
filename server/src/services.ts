import { DEFAULT_BACKUP_SCHEDULE, type ServerConfig } from './config.js';
import { AccountCache } from './db/account-cache.js';
import { DataDisk } from './db/data-disk.js';
import type { Db } from './db/database.js';
import { FiguresUpkeep, type FiguresUpkeepTiming } from './db/figures-upkeep.js';
import type { MigrationModule } from './db/migrate.js';
import type { EventBus } from './events/bus.js';
import type { AggregateSources } from './http/signalr/index.js';
import { JobsStore } from './jobs/jobs.store.js';
import { QueueService } from './jobs/queue.service.js';
import { JobWrites } from './jobs/job-writes.js';
import { closeMediaInfo } from './media/mediainfo/index.js';
import { createActionsDomain } from './domains/actions/index.js';
import { createAuthDomain } from './domains/auth/index.js';
import { createAVDumpDomain } from './domains/avdump/index.js';
import { createBackupDomain } from './domains/backup/index.js';
import { createDashboardDomain } from './domains/dashboard/index.js';
import { createEpisodesDomain } from './domains/episodes/index.js';
import { createFileRecords, createFilesDomain } from './domains/files/index.js';
import { createFiltersDomain } from './domains/filters/index.js';
import { createCollectionBrowse, createGroupsDomain } from './domains/groups/index.js';
import { createImagesDomain, queueAniDBImages } from './domains/images/index.js';
import { createImportDomain } from './domains/import/index.js';
import { createImportFoldersDomain } from './domains/import-folders/index.js';
import { createInitDomain, ServerStateService, versionSet } from './domains/init/index.js';
import { createIntegrations } from './domains/integrations/index.js';
import type { LogService } from './domains/logs/index.js';
import { createMetadataDomain, type MetadataDeps } from './domains/metadata/index.js';
import { createNetworkDomain } from './domains/network/index.js';
import { createPlayback } from './domains/playback/index.js';
import { createQueueDomain } from './domains/queue/index.js';
import { createReleaseManagementDomain } from './domains/release-management/index.js';
import { createUtilitiesDomain } from './domains/utilities/index.js';
import { createRenamerDomain } from './domains/renamer/index.js';
import { createSeriesDomain, createSeriesReads, eventOutdatesSearch, jobOutdatesSearch } from './domains/series/index.js';
import { SettingsService } from './domains/settings/index.js';
import { createShokoImportDomain } from './domains/shoko-import/index.js';
import { createTagsDomain } from './domains/tags/index.js';
import { createTmdbDomain } from './domains/tmdb/index.js';
import { createUsersDomain } from './domains/users/index.js';
import { createWebUIDomain } from './domains/webui/index.js';

/** What the server is made of, as the composition root below builds it (each member documented where it is built). */
export type Services = Awaited<ReturnType<typeof createServices>>;

/**
 * The composition root: every service gets exactly what it uses. Migrations run here, before anything serves;
 * a database that cannot be migrated leaves the server in the Failed state with the reason.
 */
export interface ServiceOverrides {
  /** Tests replace AniDB's HTTP API with a local source. */
  animeSource?: MetadataDeps['animeSource'];
  /** Tests append migrations (a broken one proves that a failure rolls back and is reported). */
  extraMigrations?: Record<string, MigrationModule>;
  /** Tests shorten the queue's back-off after a fault of the database. */
  queueFaultRetry?: { firstMs: number; maxMs: number };
  /** Tests drive the periodic import folder check themselves. */
  folderAvailability?: Parameters<typeof createImportFoldersDomain>[0]['availability'];
  /** Tests that look at the marks a change leaves turn the background upkeep of maintained figures off. */
  figuresUpkeep?: Partial<FiguresUpkeepTiming> | false;
}

export async function createServices(config: ServerConfig, logs: LogService, db: Db, bus: EventBus, options: ServiceOverrides = {}) {
  const logger = logs.logger;
  // Every store below queries through this instance, so the queue knows which jobs wrote (see JobWrites).
  const jobWrites = new JobWrites();
  db = { ...db, kysely: db.kysely.withPlugin(jobWrites) };
  const settings = await SettingsService.open({ home: config.home, logger: logger.child({ name: 'Settings' }), bus });
  logs.applySettings(settings.current);
  bus.on('settings:saved', () => logs.applySettings(settings.current));

  const state = new ServerStateService();
  const backups = createBackupDomain({
    db,
    home: config.home,
    settings,
    schedule: config.backups ?? DEFAULT_BACKUP_SCHEDULE,
    logger: logger.child({ name: 'Backup' }),
  });
  // One cache of key owners and tag restrictions, cleared by every write of the stores that change them.
  const accounts = new AccountCache();
  const users = createUsersDomain({ db: db.kysely, accounts, revokeAll: (userId) => auth.service.revokeAll(userId) });
  const auth = createAuthDomain({ db: db.kysely, accounts, users: users.service, logger: logger.child({ name: 'Auth' }) });
  const dataDisk = new DataDisk(config.home);
  const queue = new QueueService(new JobsStore(db.kysely), bus, logger.child({ name: 'Queue' }), {
    threadCount: settings.current.Quartz.MaxThreadPoolSize,
    concurrencyLimits: settings.current.Quartz.LimitedConcurrencyOverrides,
    faultRetry:
      options.queueFaultRetry ??
      (config.queueRetryMaxMs ? { firstMs: Math.min(1_000, config.queueRetryMaxMs), maxMs: config.queueRetryMaxMs } : undefined),
    onFault: (error) => dataDisk.noteFailure(error),
    writes: jobWrites,
  });
  const { store: filesStore, records: fileRecords } = createFileRecords(db.kysely);
  const importFolders = createImportFoldersDomain({
    db: db.kysely,
    home: config.home,
    bus,
    logger: logger.child({ name: 'ImportFolders' }),
    availability: options.folderAvailability,
  });
  const folderAvailability = importFolders.availability;
  const { hashPool, importer, watcher } = createImportDomain({
    folders: importFolders.service,
    files: fileRecords,
    queue,
    settings,
    bus,
    logger,
    availability: folderAvailability,
  });
  const images = createImagesDomain({
    db: db.kysely,
    home: config.home,
    queue,
    settings,
    logger: logger.child({ name: 'Images' }),
    anidbHold: () => metadata.anidb.pictureHold(),
  });
  const metadata = createMetadataDomain({
    config,
    db: db.kysely,
    settings,
    queue,
    bus,
    logger,
    files: fileRecords,
    animeSource: options.animeSource,
    hasPoster: (animeId) => images.store.has('AniDB', 'Poster', animeId),
    onAnimeSaved: (meta) => queueAniDBImages(images.service, meta),
    onFilesLinked: (fileIds) => renamer.queueRenameOnImport(fileIds),
    onSeriesJoinedGroup: (groupId) => groups.recalculate(groupId),
    deleteFiles: (ids, options) => files.deleteFiles(ids, options),
  });
  const { anidb, links, fileMatching, myList, fileXRefs } = metadata;
  importer.afterHash = (fileId) => fileMatching.queue(fileId).then(() => undefined);
  const { service: files, scrobble } = createFilesDomain({
    db: db.kysely,
    store: filesStore,
    importer,
    bus,
    matching: {
      isLinked: (contents) => links.linkedContents(contents),
      rescan: (fileId) => fileMatching.queue(fileId, { force: true, priority: true }).then(() => undefined),
      removedFromDisk: (content) => myList.queueRemove(content),
      details: fileXRefs,
    },
    avdumpInfo: (ids) => avdump.infoOf(ids),
    visibility: {
      hiddenTags: async (userId) => (await seriesAccess.viewer(userId)).restrictedTags,
      checkSeries: async (userId, seriesId) => void (await seriesAccess.allowedSeries(await seriesAccess.viewer(userId), seriesId)),
    },
    collection: {
      animeAllowed: async (userId, animeId) => seriesAccess.isAnimeAllowed(await seriesAccess.viewer(userId), animeId),
      episodeModels: (episodeIds, userId, options) => episodes.modelsInOrder(episodeIds, userId, options),
    },
    tokenUser: (token, fileId) => playback.streamUser(token, fileId),
    episodes: { recordWatched: (userId, episodeIds, watched, source) => episodes.recordWatched(userId, episodeIds, watched, source) },
    watchedThresholdPercent: () => settings.current.Playback.WatchedThresholdPercent,
  });
  const avdump = createAVDumpDomain({ db: db.kysely, files, settings, bus, queue, logger: logger.child({ name: 'AVDump' }) });
  const renamer = createRenamerDomain({
    db: db.kysely,
    bus,
    settings,
    // Checked afresh for each batch, so nothing moves into or out of a folder that went offline (issue 49).
    folders: () => folderAvailability.checkAll(),
    logger: logger.child({ name: 'Renamer' }),
    jobs: queue,
  });
  const network = createNetworkDomain({ bus, settings });
  const seriesReads = createSeriesReads({ db: db.kysely, dialect: db.dialect, accounts });
  const { models: seriesModels, access: seriesAccess } = seriesReads;
  const browse = createCollectionBrowse({ db: db.kysely, series: seriesModels });
  const filters = createFiltersDomain({ db: db.kysely, browse });
  const groups = createGroupsDomain({ db: db.kysely, browse, filters, bus, tagAncestry: (tagIds) => tags.ancestry(tagIds) });
  const collection = { browse, filters, groups };
  // TMDB images: after a show or movie refresh, as many per type as the TMDB download settings allow go to the image store.
  const tmdb = createTmdbDomain({
    db: db.kysely,
    settings,
    queue,
    bus,
    logger: logger.child({ name: 'TMDB' }),
    queueImageDownloads: (parent) => images.service.queueTmdbImages(parent),
  });
  // Auto-linking after an AniDB anime was stored: AnimeImport announces it as SeriesUpdated with Source AniDB.
  bus.on('shoko', (raised) => {
    if (raised.event !== 'SeriesUpdated' || raised.payload.Source !== 'AniDB' || !raised.payload.SeriesID) return;
    const animeId = raised.payload.SeriesID;
    // A series whose AutoMatchSettings switch TMDB off is left alone.
    series.editing
      .tmdbAutoMatchAllowed(animeId)
      .then((allowed) => (allowed ? tmdb.linking.queueAutoMatch(animeId) : false))
      .catch((error) => logger.child({ name: 'TMDB' }).warn({ err: error }, 'Queueing the TMDB auto-match failed'));
  });

  const tags = createTagsDomain({ db: db.kysely, access: seriesAccess });
  const episodes = createEpisodesDomain({
    db: db.kysely,
    dialect: db.dialect,
    access: seriesAccess,
    bus,
    files,
    crossReferences: (contents) => fileXRefs.crossReferences(contents),
    images: images.service,
    tmdbData: async (episodeId) => ({
      Episodes: await tmdb.service.tmdbEpisodesOfEpisode(episodeId),
      Movies: await tmdb.service.moviesOfEpisode(episodeId, new Set()),
    }),
  });
  const playback = createPlayback({
    home: config.home,
    db,
    accounts,
    settings,
    locate: (fileId) => files.streams.video(fileId),
    animeAllowed: async (userId, animeId) => seriesAccess.isAnimeAllowed(await seriesAccess.viewer(userId), animeId),
    logger: logger.child({ name: 'Playback' }),
  });
  await playback.start();
  metadata.anidbSearch.hiddenTagsOf = async (userId) => (await seriesAccess.viewer(userId)).restrictedTags;
  const integrations = createIntegrations({
    db: db.kysely,
    settings,
    bus,
    queue,
    logger,
    serverVersion: versionSet(config.webuiDir).Server.Version ?? '',
    markWatched: (userId, fileId) => scrobble.setWatched(userId, fileId, true),
    setEpisodeWatched: (userId, episodeId) => episodes.setWatched(userId, episodeId, true),
    markWatchedFromTrakt: (userId, episodeIds) => episodes.recordWatched(userId, episodeIds, true, 'Trakt'),
  });

  const series = createSeriesDomain({
    db: db.kysely,
    store: seriesReads.store,
    access: seriesAccess,
    browse: seriesModels,
    tags: tags.service,
    episodes,
    images: images.service,
    tmdb: tmdb.service,
    groups,
    settings,
    bus,
    queueTraktSync: (direction, animeId) => integrations.traktSync.queue(direction, animeId),
    onCollectionChange: (listener) => {
      bus.on('shoko', (message) => eventOutdatesSearch(message.event) && listener());
      bus.on('job:finished', (job) => jobOutdatesSearch(job) && listener());
    },
  });

  const webui = createWebUIDomain({ home: config.home, webuiDir: config.webuiDir, versions: () => versionSet(config.webuiDir) });

  const figuresUpkeep = new FiguresUpkeep({
    db: db.kysely,
    dialect: db.dialect,
    logger: logger.child({ name: 'Database' }),
    timing: options.figuresUpkeep || undefined,
  });
  if (options.figuresUpkeep !== false) {
    bus.on('job:finished', (job) => job.changed !== false && figuresUpkeep.changed());
    bus.on('shoko', (message) => figuresUpkeep.shokoEvent(message.event));
  }

  const { init, health, migrate } = createInitDomain({
    db,
    state,
    users: users.service,
    settings,
    logger,
    backups,
    extraMigrations: options.extraMigrations,
    steps: [
      { message: 'Initializing queue...', run: () => queue.start() },
      { message: 'Scheduling backups...', run: () => backups.startSchedule() },
      { message: 'Scheduling AniDB checks...', run: async () => metadata.scheduler.start() },
      {
        message: 'Watching import folders...',
        run: async () => {
          await folderAvailability.checkAll();
          folderAvailability.start();
          await watcher.start();
        },
      },
      { message: 'Checking network...', run: async () => network.start() },
      {
        message: 'Queueing import...',
        run: async () => {
          if (settings.current.Import.RunOnStart) await importer.queueImport();
        },
      },
    ],
    afterStart: () => {
      series.catalog.warmSearch();
      void filters
        .warmKeptFigures()
        .catch((error: unknown) => logger.child({ name: 'Filters' }).warn({ err: error }, 'Counting the filters failed'));
    },
    queueState: () => queue.state(),
    dataDisk,
  });

  // Migrations run at boot so accounts can be checked even before the first start.
  try {
    await migrate();
    // Bans AniDB gave before a restart still hold.
    await anidb.restore();
    // Relocations a crash interrupted are completed or rolled back before anything else touches the files.
    await renamer
      .recover()
      .catch((error) => logger.child({ name: 'Renamer' }).error({ err: error }, 'Recovering interrupted relocations failed'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    state.setFailed(`Startup Failed: database migration failed: ${reason}`);
    logger.child({ name: 'Database' }).error({ err: error }, 'Database migration failed');
  }

  return {
    config,
    bus,
    logs,
    db,
    settings,
    state,
    /** Backups of the database and settings (`Backup*`), scheduled, before migrations, restores at the next start. */
    backups,
    /** Moving from Shoko Server: imports its data folder into this empty server (first run, or `npm run import-shoko`). */
    shokoImport: createShokoImportDomain({
      db,
      home: config.home,
      settings,
      logger: logger.child({ name: 'ShokoImport' }),
      bus,
      prepareSearch: () => series.catalog.prepareSearch(),
    }),
    /** `GET /healthz`. */
    health,
    /** The data folder's free space, and whether writes fail for want of it (noted by whoever meets such a failure). */
    dataDisk,
    /** Brings the maintained figures up to date in the background after a change. */
    figuresUpkeep,
    auth: auth.service,
    /** Failed password checks per user name and client address (login, password change, AniDB test login). */
    loginThrottle: auth.loginThrottle,
    users: users.service,
    init,
    queue,
    /** What the Queue API sees of the job queue. */
    queueControl: createQueueDomain({ queue }),
    importFolders: importFolders.service,
    folderAvailability,
    importer,
    files,
    watcher,
    network,
    /** Renamer configs, previews and journaled relocations; `renamer.renameOnImport(fileId)` is the import hook. */
    renamer,
    /** TMDB metadata, refresh jobs and auto-linking; `tmdb.linking.queueAutoMatch(animeId)` after an AniDB anime is stored. */
    tmdb,
    /** The AniDB/TMDB metadata pipeline: anime downloads, manual links, scheduled checks. */
    images,
    metadata,
    /** Collection browsing: the read models (BrowseStore), groups (domains/groups) and filters (domains/filters). */
    collection,
    /** Series page: episodes, watch state, votes. */
    series: series.service,
    /** Title override, auto-match settings and the per-series Trakt syncs. */
    seriesEditing: series.editing,
    /** Series/{id}/TMDB/Season. */
    seriesTmdbSeasons: series.tmdbSeasons,
    /** Series lists, search, folders, years, seasons and the stored AniDB anime. */
    seriesCatalog: series.catalog,
    /** Episode/{id}*: the episode, watch state, votes, hiding. */
    episodes,
    /** Series tags, user tags and the AniDB tag list. */
    tags: tags.service,
    /** Dashboard aggregates (stats, recent imports, next up, calendar, recommendations). */
    dashboard: createDashboardDomain({ db: db.kysely, dialect: db.dialect, series: series.models, tagAncestry: tags.ancestry }),
    /** Each user's playback record of files (resume positions, watched), reported by players through Scrobble. */
    scrobble,
    /** Watching in the browser: playback facts, signed media URLs, HLS sessions over ffmpeg (issue 43). */
    playback,
    /** AVDump sessions over an installed AVDump3 tool. */
    avdump,
    /** The server actions of `GET Action/<Name>` (contract server.md §6). */
    actions: createActionsDomain({
      db: db.kysely,
      queue,
      settings,
      importer,
      files,
      animeImport: metadata.animeImport,
      scheduler: metadata.scheduler,
      myList,
      tmdb,
      plexSyncAll: () => integrations.plexSync.queueAll(),
      queueTraktSync: (direction) => integrations.traktSync.queue(direction),
      availability: folderAvailability,
    }),
    /** Trakt device-code linking and token refresh; Plex PIN login, servers and libraries. */
    integrations,
    /** The Utilities pages' series lists (without files, with manually linked files). */
    utilities: createUtilitiesDomain({ db: db.kysely, dialect: db.dialect, series: series.models }),
    /** Multiple releases, duplicate files and missing episodes (contract files.md §6). */
    releaseManagement: createReleaseManagementDomain({
      db: db.kysely,
      dialect: db.dialect,
      models: series.models,
      series: seriesAccess,
      episodes,
      files,
      qualityPreferences: () => settings.current.FileQualityPreferences,
    }),
    /** Console themes, console/server release checks and the console updater (contract server.md §7). */
    webui,
    /** Stops background work (queue, watcher, hash workers) before the database closes. */
    stopBackground: async () => {
      await playback.close();
      await backups.stop();
      network.stop();
      integrations.stop();
      folderAvailability.stop();
      await watcher.stop();
      metadata.scheduler.stop();
      // The queue first: its jobs use AniDB, the hash pool and the database; after it no job touches any of them.
      await queue.stop();
      await figuresUpkeep.stop();
      await anidb.reset();
      await anidb.flush();
      await hashPool.close();
      await closeMediaInfo();
    },
    aggregateSources: {
      queueState: () => queue.state(),
      anidbStates: () => anidb.states(),
      networkState: () => network.state(),
      avdumpSessions: () => avdump.restoreEvents(),
      fileCrossReferences: (fileId: number) => fileXRefs.eventCrossReferences(fileId),
    } satisfies AggregateSources,
    anidbStatus: { status: () => ({ udpReachable: false, udpBanned: anidb.udpBanned, httpBanned: anidb.httpBan.state.banned }) },
    testAniDBLogin: (username: string, password: string): Promise<boolean> => anidb.testLogin(username, password),
    versions: () => versionSet(config.webuiDir),
  };
}
