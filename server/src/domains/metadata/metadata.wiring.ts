import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { ServerConfig } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { AniDBTitlesDump, DEFAULT_TITLES_URL } from '../../providers/anidb/titles/titles-dump.js';
import { AniDBConnection } from './anidb-connection.js';
import { anidbHttpSource } from './anidb-http-source.js';
import { AniDBSearch } from './anidb-search.js';
import { AniDBSearchStore } from './anidb-search.store.js';
import { AniDBStateStore } from './anidb-state.store.js';
import { AnimeImport, type AnimeSource } from './anime-import.js';
import { AnimeStore } from './anime.store.js';
import { FileLinksStore } from './file-links.store.js';
import { FileMatching } from './file-matching.js';
import { FileXRefs } from './file-xrefs.js';
import { FileXRefsStore } from './file-xrefs.store.js';
import { LocalSeriesStore } from './local-series.store.js';
import { ManualLinks } from './manual-links.js';
import { ManualLinksStore } from './manual-links.store.js';
import { MetadataScheduler } from './metadata-scheduler.js';
import { MyList } from './my-list.js';
import { SeriesRemoval } from './series-removal.js';
import { SeriesRemovalStore } from './series-removal.store.js';

type AnimeImportDeps = ConstructorParameters<typeof AnimeImport>[0];
type SeriesRemovalDeps = ConstructorParameters<typeof SeriesRemoval>[0];
type AniDBSearchDeps = ConstructorParameters<typeof AniDBSearch>[0];

/** What the metadata domain needs of the server: its database, the shared services and the hooks into other domains. */
export interface MetadataDeps {
  config: ServerConfig;
  db: Kysely<Database>;
  settings: AnimeImportDeps['settings'];
  queue: AnimeImportDeps['queue'];
  bus: AnimeImportDeps['bus'];
  logger: Logger;
  files: AnimeImportDeps['files'];
  /** Tests replace AniDB's HTTP API with a local source. */
  animeSource?: AnimeSource;
  /** Whether the image store holds an anime's AniDB poster (title search). */
  hasPoster: AniDBSearchDeps['hasPoster'];
  onAnimeSaved: AnimeImportDeps['onAnimeSaved'];
  /** Files newly linked to episodes (automatically or by hand) go to the renamer's import hook. */
  onFilesLinked: NonNullable<AnimeImportDeps['onFilesImported']>;
  onSeriesJoinedGroup: AnimeImportDeps['onSeriesJoinedGroup'];
  deleteFiles: SeriesRemovalDeps['deleteFiles'];
}

export interface MetadataDomain {
  anidb: AniDBConnection;
  links: FileLinksStore;
  animeImport: AnimeImport;
  myList: MyList;
  fileXRefs: FileXRefs;
  fileMatching: FileMatching;
  manualLinks: ManualLinks;
  anidbSearch: AniDBSearch;
  seriesRemoval: SeriesRemoval;
  scheduler: MetadataScheduler;
}

/** Builds the AniDB metadata pipeline: the AniDB connection, anime downloads, file matching, manual links and checks. */
export function createMetadataDomain(deps: MetadataDeps): MetadataDomain {
  const { config, db, settings, queue, bus, logger } = deps;
  const anidb = new AniDBConnection(settings, bus, logger.child({ name: 'AniDB' }), { store: new AniDBStateStore(db) });
  const links = new FileLinksStore(db);
  const animeImport = new AnimeImport({
    onAnimeSaved: deps.onAnimeSaved,
    onFilesImported: (fileIds) => deps.onFilesLinked(fileIds),
    onSeriesJoinedGroup: deps.onSeriesJoinedGroup,
    source: deps.animeSource ?? anidbHttpSource(config, settings, anidb, logger.child({ name: 'AniDB HTTP' })),
    anime: new AnimeStore(db),
    localSeries: new LocalSeriesStore(db),
    links,
    files: deps.files,
    settings,
    queue,
    bus,
  });
  const myList = new MyList({ anidb, settings, queue });
  const fileXRefs = new FileXRefs(new FileXRefsStore(db));
  const fileMatching = new FileMatching({
    onIdentified: (content) => myList.queueAdd(content),
    files: deps.files,
    links,
    anidb,
    queue,
    bus,
    onAnimeNeeded: async (animeIds) => {
      for (const animeId of animeIds) await animeImport.queue(animeId);
    },
  });
  anidb.holdJobs(queue, { udp: [fileMatching.job.kind, myList.job.kind], http: [animeImport.job.kind] });
  const manualLinks = new ManualLinks({
    store: new ManualLinksStore(db),
    files: deps.files,
    bus,
    onLinked: (fileIds) => deps.onFilesLinked(fileIds),
  });
  const anidbSearch = new AniDBSearch({
    store: new AniDBSearchStore(db),
    hasPoster: deps.hasPoster,
    dump: new AniDBTitlesDump({
      url: process.env.SHOKO_ANIDB_TITLES_URL?.trim() || DEFAULT_TITLES_URL,
      cacheDir: path.join(config.home, 'anidb'),
      logger: logger.child({ name: 'AniDB' }),
    }),
  });
  const seriesRemoval = new SeriesRemoval({ store: new SeriesRemovalStore(db), xrefs: fileXRefs, bus, deleteFiles: deps.deleteFiles });
  const scheduler = new MetadataScheduler({ db, settings, anidb, fileMatching, animeImport, bus, logger: logger.child({ name: 'AniDB' }) });
  return { anidb, links, animeImport, myList, fileXRefs, fileMatching, manualLinks, anidbSearch, seriesRemoval, scheduler };
}
