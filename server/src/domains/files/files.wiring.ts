import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EventBus } from '../../events/bus.js';
import type { FileLookupCollection } from './file-lookups.js';
import type { FileStreams } from './file-stream.js';
import { FileListStore } from './file-list.store.js';
import { FilesService } from './files.service.js';
import { FilesStore } from './files.store.js';
import { fileRecordsOver, type FileRecords } from './file-records.js';
import { ScrobbleService } from './scrobble.service.js';
import { ScrobbleStore } from './scrobble.store.js';

type FilesParameters = ConstructorParameters<typeof FilesService>;

export interface FilesDomain {
  service: FilesService;
  /** Each user's playback record of files (resume positions, watched), reported by players through Scrobble. */
  scrobble: ScrobbleService;
}

/**
 * Builds the files service over the files store (made first: import and metadata use it too) with what it shows of
 * other domains — matching, AVDump, who may see what, episodes — and the scrobble records of each user.
 */
export function createFilesDomain(deps: {
  db: Kysely<Database>;
  store: FilesStore;
  importer: FilesParameters[2];
  bus: EventBus;
  matching: FilesParameters[4];
  avdumpInfo: NonNullable<FilesService['avdumpInfo']>;
  visibility: NonNullable<FilesService['visibility']>;
  collection: FileLookupCollection;
  /** The user a signed stream URL was made for (playback domain). */
  tokenUser: NonNullable<FileStreams['tokenUser']>;
  episodes: ConstructorParameters<typeof ScrobbleService>[1];
  /** Settings' Playback.WatchedThresholdPercent. */
  watchedThresholdPercent(): number;
}): FilesDomain {
  const service = new FilesService(deps.store, new FileListStore(deps.db), deps.importer, deps.bus, deps.matching);
  const scrobbleStore = new ScrobbleStore(deps.db);
  const scrobble = new ScrobbleService(scrobbleStore, deps.episodes, deps.bus, deps.watchedThresholdPercent);
  service.avdumpInfo = deps.avdumpInfo;
  service.userStates = (userId, fileIds) => scrobbleStore.states(userId, fileIds);
  service.visibility = deps.visibility;
  service.lookups.collection = deps.collection;
  service.streams.markWatched = (userId, fileId) => scrobble.setWatched(userId, fileId, true);
  service.streams.tokenUser = deps.tokenUser;
  return { service, scrobble };
}

/** The file records import and metadata read and write (made first: they are built before the files service). */
export function createFileRecords(db: Kysely<Database>): { store: FilesStore; records: FileRecords } {
  const store = new FilesStore(db);
  return { store, records: fileRecordsOver(store) };
}
