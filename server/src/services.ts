import { describeBlock, LoginThrottle } from './http/login-throttle.js';
import path from 'node:path';
import type { ComponentVersionSet } from '@shoko-ts/contract';
import type { ServerConfig } from './config.js';
import { FiguresUpkeep, type FiguresUpkeepTiming } from './db/figures-upkeep.js';
import { AccountCache } from './db/account-cache.js';
import { DataDisk } from './db/data-disk.js';
import type { MigrationModule } from './db/migrate.js';
import { DEFAULT_BACKUP_SCHEDULE } from './config.js';
import { BackupService } from './domains/backup/backup.service.js';
import { BackupStore } from './domains/backup/backup.store.js';
import { ShokoImportService } from './domains/shoko-import/shoko-import.service.js';
import { ShokoImportStore } from './domains/shoko-import/shoko-import.store.js';
import type { Db } from './db/database.js';
import { EventBus } from './events/bus.js';
import type { AggregateSources } from './http/signalr/index.js';
import { AuthService } from './domains/auth/auth.service.js';
import { AuthStore } from './domains/auth/auth.store.js';
import { ServerStateService } from './domains/init/server-state.js';
import { versionSet } from './domains/init/version.js';
import type { LogService } from './domains/logs/log.service.js';
import { NetworkService } from './domains/network/network.service.js';
import { SettingsService } from './domains/settings/settings.service.js';
import { UsersService } from './domains/users/users.service.js';
import { UsersStore } from './domains/users/users.store.js';
import { QueueService } from './jobs/queue.service.js';
import { QueueControl } from './domains/queue/queue.service.js';
import { JobsStore } from './jobs/jobs.store.js';
import { FilesService } from './domains/files/files.service.js';
import { FilesStore } from './domains/files/files.store.js';
import { FileListStore } from './domains/files/file-list.store.js';
import type { ImportFoldersService } from './domains/import-folders/import-folders.service.js';
import type { FolderAvailability } from './domains/import-folders/folder-availability.js';
import type { ImportService } from './domains/import/import.service.js';
import type { FolderWatcher } from './domains/import/folder-watcher.js';
import { closeMediaInfo } from './media/mediainfo/index.js';
import { queueAniDBImages } from './domains/images/images.service.js';
import { createInitDomain, type InitDomain } from './domains/init/init.wiring.js';
import { createImportFoldersDomain } from './domains/import-folders/import-folders.wiring.js';
import { createImportDomain } from './domains/import/import.wiring.js';
import { createRenamerDomain } from './domains/renamer/renamer.wiring.js';
import { createImagesDomain, type ImagesDomain } from './domains/images/images.wiring.js';
import { createMetadataDomain, type MetadataDeps, type MetadataDomain } from './domains/metadata/metadata.wiring.js';
import { BrowseStore } from './domains/groups/browse.store.js';
import { SeriesStore } from './domains/series/series.store.js';
import { SeriesAccess } from './domains/series/series-access.js';
import type { SeriesService } from './domains/series/series.service.js';
import type { SeriesCatalog } from './domains/series/series-catalog.service.js';
import type { SeriesEditing } from './domains/series/series-editing.service.js';
import { TagsStore } from './domains/tags/tags.store.js';
import { TagsService } from './domains/tags/tags.service.js';
import type { EpisodesService } from './domains/episodes/episodes.service.js';
import { createSeriesDomain, type SeriesDomain } from './domains/series/series.wiring.js';
import { createEpisodesDomain } from './domains/episodes/episodes.wiring.js';
import { FiltersService } from './domains/filters/filters.service.js';
import { FiltersStore } from './domains/filters/filters.store.js';
import { GroupsService } from './domains/groups/groups.service.js';
import { GroupsStore } from './domains/groups/groups.store.js';
import type { RenamerService } from './domains/renamer/renamer.service.js';
import { createTmdbDomain, type TmdbDomain } from './domains/tmdb/tmdb.domain.js';
import { TmdbStore } from './domains/tmdb/tmdb.store.js';
import { DashboardService } from './domains/dashboard/dashboard.service.js';
import { DashboardStore } from './domains/dashboard/dashboard.store.js';
import { ScrobbleService } from './domains/files/scrobble.service.js';
import { ScrobbleStore } from './domains/files/scrobble.store.js';
import { createPlayback } from './domains/playback/playback.domain.js';
import type { PlaybackService } from './domains/playback/playback.service.js';
import { ActionsService } from './domains/actions/actions.service.js';
import { ActionsStore } from './domains/actions/actions.store.js';
import { AVDumpService } from './domains/avdump/avdump.service.js';
import { AVDumpStore } from './domains/avdump/avdump.store.js';
import { createIntegrations, type IntegrationsDomain } from './domains/integrations/integrations.domain.js';
import { PlexStore } from './domains/integrations/plex.store.js';
import { TraktStore } from './domains/integrations/trakt.store.js';
import { ReleaseManagementService } from './domains/release-management/release-management.service.js';
import { ReleasesService } from './domains/webui/releases.service.js';
import { ThemesService } from './domains/webui/themes.service.js';
import { WebUIUpdater } from './domains/webui/webui-updater.js';
import { ReleaseManagementStore } from './domains/release-management/release-management.store.js';

export interface Services {
  /** AVDump sessions over an installed AVDump3 tool. */
  avdump: AVDumpService;
  config: ServerConfig;
  bus: EventBus;
  logs: LogService;
  db: Db;
  settings: SettingsService;
  state: ServerStateService;
  /** Backups of the database and settings (`Backup*`), scheduled, before migrations, restores at the next start. */
  backups: BackupService;
  /** Moving from Shoko Server: imports its data folder into this empty server (first run, or `npm run import-shoko`). */
  shokoImport: ShokoImportService;
  /** `GET /healthz`. */
  health: InitDomain['health'];
  /** The data folder's free space, and whether writes fail for want of it (noted by whoever meets such a failure). */
  dataDisk: DataDisk;
  auth: AuthService;
  /** Failed password checks per user name and client address (login, password change, AniDB test login). */
  loginThrottle: LoginThrottle;
  users: UsersService;
  init: InitDomain['init'];
  queue: QueueService;
  /** What the Queue API sees of the job queue. */
  queueControl: QueueControl;
  importFolders: ImportFoldersService;
  folderAvailability: FolderAvailability;
  importer: ImportService;
  files: FilesService;
  watcher: FolderWatcher;
  network: NetworkService;
  /** Renamer configs, previews and journaled relocations; `renamer.renameOnImport(fileId)` is the import hook. */
  renamer: RenamerService;
  /** The AniDB/TMDB metadata pipeline: anime downloads, manual links, scheduled checks. */
  images: ImagesDomain;
  metadata: MetadataDomain;
  /** TMDB metadata, refresh jobs and auto-linking; `tmdb.linking.queueAutoMatch(animeId)` after an AniDB anime is stored. */
  tmdb: TmdbDomain;
  /** Collection browsing: the read models (BrowseStore), groups (domains/groups) and filters (domains/filters). */
  collection: { browse: BrowseStore; filters: FiltersService; groups: GroupsService };
  /** Dashboard aggregates (stats, recent imports, next up, calendar, recommendations). */
  dashboard: DashboardService;
  /** Each user's playback record of files (resume positions, watched), reported by players through Scrobble. */
  scrobble: ScrobbleService;
  /** Watching in the browser: playback facts, signed media URLs, HLS sessions over ffmpeg (issue 43). */
  playback: PlaybackService;
  /** Series page: episodes, watch state, votes. */
  series: SeriesService;
  /** Series lists, search, folders, years, seasons and the stored AniDB anime. */
  seriesCatalog: SeriesCatalog;
  /** Title override, auto-match settings and the per-series Trakt syncs. */
  seriesEditing: SeriesEditing;
  /** Series/{id}/TMDB/Season. */
  seriesTmdbSeasons: SeriesDomain['tmdbSeasons'];
  /** Episode/{id}*: the episode, watch state, votes, hiding. */
  episodes: EpisodesService;
  /** Series tags, user tags and the AniDB tag list. */
  tags: TagsService;
  /** The server actions of `GET Action/<Name>` (contract server.md §6). */
  actions: ActionsService;
  /** Trakt device-code linking and token refresh; Plex PIN login, servers and libraries. */
  integrations: IntegrationsDomain;
  /** Multiple releases, duplicate files and missing episodes (contract files.md §6). */
  releaseManagement: ReleaseManagementService;
  /** Console themes, console/server release checks and the console updater (contract server.md §7). */
  webui: { themes: ThemesService; releases: ReleasesService; updater: WebUIUpdater };
  /** Stops background work (queue, watcher, hash workers) before the database closes. */
  stopBackground(): Promise<void>;
  aggregateSources: AggregateSources;
  anidbStatus: { status(): { udpReachable: boolean; udpBanned: boolean; httpBanned: boolean } };
  testAniDBLogin(username: string, password: string): Promise<boolean>;
  versions(): ComponentVersionSet;
}

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
  folderAvailability?: Pick<ConstructorParameters<typeof FolderAvailability>[0], 'timer' | 'intervalMs' | 'probe'>;
  /** Tests that look at the marks a change leaves turn the background upkeep of maintained figures off. */
  figuresUpkeep?: Partial<FiguresUpkeepTiming> | false;
}

export async function createServices(
  config: ServerConfig,
  logs: LogService,
  db: Db,
  bus: EventBus,
  options: ServiceOverrides = {},
): Promise<Services> {
  const logger = logs.logger;
  const settings = await SettingsService.open({ home: config.home, logger: logger.child({ name: 'Settings' }), bus });
  logs.applySettings(settings.current);
  bus.on('settings:saved', () => logs.applySettings(settings.current));

  const state = new ServerStateService();
  const backups = new BackupService({
    store: new BackupStore(db, path.join(config.home, 'backups')),
    dialect: db.dialect,
    settings,
    schedule: config.backups ?? DEFAULT_BACKUP_SCHEDULE,
    logger: logger.child({ name: 'Backup' }),
  });
  // One cache of key owners and tag restrictions, cleared by every write of the stores that change them.
  const accounts = new AccountCache();
  const usersStore = new UsersStore(db.kysely, accounts);
  const auth = new AuthService(new AuthStore(db.kysely, accounts), usersStore);
  const authLogger = logger.child({ name: 'Auth' });
  const loginThrottle = new LoginThrottle({}, (notice) => authLogger.warn(describeBlock(notice)));
  const users = new UsersService(usersStore, auth);
  const dataDisk = new DataDisk(config.home);
  const queue = new QueueService(new JobsStore(db.kysely), bus, logger.child({ name: 'Queue' }), {
    threadCount: settings.current.Quartz.MaxThreadPoolSize,
    concurrencyLimits: settings.current.Quartz.LimitedConcurrencyOverrides,
    faultRetry:
      options.queueFaultRetry ??
      (config.queueRetryMaxMs ? { firstMs: Math.min(1_000, config.queueRetryMaxMs), maxMs: config.queueRetryMaxMs } : undefined),
    onFault: (error) => dataDisk.noteFailure(error),
  });
  const filesStore = new FilesStore(db.kysely);
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
    files: filesStore,
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
    files: filesStore,
    animeSource: options.animeSource,
    hasPoster: (animeId) => images.store.has('AniDB', 'Poster', animeId),
    onAnimeSaved: (meta) => queueAniDBImages(images.service, meta),
    onFilesLinked: (fileIds) => renamer.queueRenameOnImport(fileIds),
    onSeriesJoinedGroup: (groupId) => groups.recalculate(groupId),
    deleteFiles: (ids, options) => files.deleteFiles(ids, options),
  });
  const { anidb, links, fileMatching, myList, fileXRefs } = metadata;
  importer.afterHash = (fileId) => fileMatching.queue(fileId).then(() => undefined);
  const files = new FilesService(filesStore, new FileListStore(db.kysely), importer, bus, {
    isLinked: (contents) => links.linkedContents(contents),
    rescan: (fileId) => fileMatching.queue(fileId, { force: true, priority: true }).then(() => undefined),
    removedFromDisk: (content) => myList.queueRemove(content),
    details: fileXRefs,
  });
  const avdump = new AVDumpService({
    store: new AVDumpStore(db.kysely),
    files: filesStore,
    settings,
    bus,
    queue,
    logger: logger.child({ name: 'AVDump' }),
  });
  files.avdumpInfo = (ids) => avdump.infoOf(ids);
  const renamer = createRenamerDomain({
    db: db.kysely,
    bus,
    settings,
    // Checked afresh for each batch, so nothing moves into or out of a folder that went offline (issue 49).
    folders: () => folderAvailability.checkAll(),
    logger: logger.child({ name: 'Renamer' }),
    jobs: queue,
  });
  const network = new NetworkService(bus, { disabledMonitors: () => settings.current.Connectivity.DisabledMonitorServices });
  const browse = new BrowseStore(db.kysely, db.dialect, accounts);
  const filters = new FiltersService(browse, new FiltersStore(db.kysely, browse));
  const groups = new GroupsService(browse, new GroupsStore(db.kysely), filters, bus, (tagIds) => new TagsStore(db.kysely).ancestry(tagIds));
  const collection = { browse, filters, groups };
  // TMDB images: after a show or movie refresh, as many per type as the TMDB download settings allow go to the image store.
  const tmdb = createTmdbDomain({
    store: new TmdbStore(db.kysely),
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

  const scrobbleStore = new ScrobbleStore(db.kysely);
  const seriesStore = new SeriesStore(db.kysely);
  const seriesAccess = new SeriesAccess(browse, seriesStore);
  const tags = new TagsService({ store: new TagsStore(db.kysely), access: seriesAccess });
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
  const scrobble = new ScrobbleService(scrobbleStore, episodes, bus, () => settings.current.Playback.WatchedThresholdPercent);
  files.userStates = (userId, fileIds) => scrobbleStore.states(userId, fileIds);
  files.streams.markWatched = (userId, fileId) => scrobble.setWatched(userId, fileId, true);
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
  files.streams.tokenUser = (token, fileId) => playback.streamUser(token, fileId);
  metadata.anidbSearch.hiddenTagsOf = async (userId) => (await seriesAccess.viewer(userId)).restrictedTags;
  files.visibility = {
    hiddenTags: async (userId) => (await seriesAccess.viewer(userId)).restrictedTags,
    checkSeries: async (userId, seriesId) => void (await seriesAccess.allowedSeries(await seriesAccess.viewer(userId), seriesId)),
  };
  files.lookups.collection = {
    animeAllowed: async (userId, animeId) => seriesAccess.isAnimeAllowed(await seriesAccess.viewer(userId), animeId),
    episodeModels: (episodeIds, userId, options) => episodes.modelsInOrder(episodeIds, userId, options),
  };
  const integrations = createIntegrations({
    plexStore: new PlexStore(db.kysely),
    traktStore: new TraktStore(db.kysely),
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
    store: seriesStore,
    access: seriesAccess,
    browse,
    tags,
    episodes,
    images: images.service,
    tmdb: tmdb.service,
    groups,
    settings,
    bus,
    queueTraktSync: (direction, animeId) => integrations.traktSync.queue(direction, animeId),
    onCollectionChange: (listener) => {
      bus.on('shoko', listener);
      bus.on('job:finished', listener);
    },
  });

  const webuiReleases = new ReleasesService(() => versionSet(config.webuiDir));

  const figuresUpkeep = new FiguresUpkeep({
    db: db.kysely,
    dialect: db.dialect,
    logger: logger.child({ name: 'Database' }),
    timing: options.figuresUpkeep || undefined,
  });
  if (options.figuresUpkeep !== false) {
    bus.on('job:finished', () => figuresUpkeep.changed());
    bus.on('shoko', () => figuresUpkeep.changed());
  }

  const { init, health, migrate } = createInitDomain({
    db,
    state,
    users: usersStore,
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
    backups,
    shokoImport: new ShokoImportService({
      store: new ShokoImportStore(db.kysely, db.dialect),
      home: config.home,
      settings,
      logger: logger.child({ name: 'ShokoImport' }),
      bus,
    }),
    health,
    dataDisk,
    auth,
    loginThrottle,
    users,
    init,
    queue,
    queueControl: new QueueControl(queue),
    importFolders: importFolders.service,
    folderAvailability,
    importer,
    files,
    watcher,
    network,
    renamer,
    tmdb,
    images,
    metadata,
    collection,
    series: series.service,
    seriesEditing: series.editing,
    seriesTmdbSeasons: series.tmdbSeasons,
    seriesCatalog: series.catalog,
    episodes,
    tags,
    dashboard: new DashboardService(
      new DashboardStore(db.kysely, (viewer, alias) => browse.seriesAllowed(viewer, alias), db.dialect),
      browse,
    ),
    scrobble,
    playback,
    avdump,
    actions: new ActionsService({
      store: new ActionsStore(db.kysely),
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
    integrations,
    releaseManagement: new ReleaseManagementService({
      store: new ReleaseManagementStore(db.kysely, db.dialect),
      browse,
      series: seriesStore,
      episodes,
      files,
      qualityPreferences: () => settings.current.FileQualityPreferences,
    }),
    webui: { themes: new ThemesService(config.home), releases: webuiReleases, updater: new WebUIUpdater(config.webuiDir, webuiReleases) },
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
      fileCrossReferences: (fileId) => fileXRefs.eventCrossReferences(fileId),
    },
    anidbStatus: { status: () => ({ udpReachable: false, udpBanned: anidb.udpBanned, httpBanned: anidb.httpBan.state.banned }) },
    testAniDBLogin: (username, password) => anidb.testLogin(username, password),
    versions: () => versionSet(config.webuiDir),
  };
}
