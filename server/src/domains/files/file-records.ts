import type { FilesStore } from './files.store.js';

/** What AniDB matching and linking read of file records: one file, the locations of files. */
export type FileReads = Pick<FilesStore, 'file' | 'locationsOfFiles'>;

/**
 * What the import domain's scan and hashing read and write of file records: the locations it finds, their
 * reachability, hashes and media info. Other domains get these methods (bound, nothing else of the store), because
 * the files service is built after import and metadata, which give it its hooks.
 */
export type FileRecords = FileReads &
  Pick<
    FilesStore,
    | 'locationsInFolder'
    | 'setAccessible'
    | 'unhashedLocationIds'
    | 'detachChangedContent'
    | 'createDiscovered'
    | 'location'
    | 'applyHashes'
    | 'removeLocation'
    | 'setMediaInfo'
  >;

/** The file records other domains use, over the files store the composition root made. */
export function fileRecordsOver(store: FilesStore): FileRecords {
  return {
    file: (id) => store.file(id),
    locationsOfFiles: (fileIds) => store.locationsOfFiles(fileIds),
    locationsInFolder: (folderId) => store.locationsInFolder(folderId),
    setAccessible: (locationIds, accessible) => store.setAccessible(locationIds, accessible),
    unhashedLocationIds: () => store.unhashedLocationIds(),
    detachChangedContent: (locationId, size, mtimeMs) => store.detachChangedContent(locationId, size, mtimeMs),
    createDiscovered: (folderId, found) => store.createDiscovered(folderId, found),
    location: (id) => store.location(id),
    applyHashes: (...args) => store.applyHashes(...args),
    removeLocation: (locationId) => store.removeLocation(locationId),
    setMediaInfo: (fileId, mediaInfo) => store.setMediaInfo(fileId, mediaInfo),
  };
}
