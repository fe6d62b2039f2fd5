import { fileRow } from '../domains/groups/synthetic.store.js';
import type { TestServer } from './harness.js';

/**
 * A file record as a finished hash leaves it (ED2K only, imported now), with its copy in an import folder when
 * `location` is given. Resolves to the file id.
 */
export async function seedFile(
  server: TestServer,
  file: { size: number; ed2k: string; location?: { importFolderId: number; relativePath: string } },
): Promise<number> {
  const db = server.services.db.kysely;
  const now = new Date().toISOString();
  const { id } = await db
    .insertInto('files')
    .values(fileRow({ size: file.size, ed2k: file.ed2k }, now, now))
    .returning('id')
    .executeTakeFirstOrThrow();
  if (file.location) {
    await db
      .insertInto('file_locations')
      .values({
        file_id: id,
        import_folder_id: file.location.importFolderId,
        relative_path: file.location.relativePath,
        is_accessible: 1,
        mtime_ms: null,
      })
      .execute();
  }
  return id;
}

/** A file-episode link as a user makes it by hand: the whole episode, no release group. */
export const userLinkRow = (content: { ed2k: string; size: number }, animeId: number, episodeId: number) => ({
  ed2k: content.ed2k,
  size: content.size,
  anime_id: animeId,
  episode_id: episodeId,
  percentage: 100,
  ordering: 0,
  source: 'User' as const,
  release_group_id: null,
});

/** An import folder record at `folderPath` (default `/srv/<name>/`; no watching, no drop roles); resolves to its id. */
export async function seedImportFolder(server: TestServer, name: string, folderPath = `/srv/${name}/`): Promise<number> {
  const { id } = await server.services.db.kysely
    .insertInto('import_folders')
    .values({ name, path: folderPath, is_drop_source: 0, is_drop_destination: 0, watch_for_new_files: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * File records in one insert, each with its copy at `relativePath` in `importFolderId` when given (also one insert).
 * Resolves to the file ids, in order.
 */
export async function seedFileRecords(
  server: TestServer,
  files: Array<{ size: number; ed2k: string; ignored?: boolean; location?: { importFolderId: number; relativePath: string } }>,
): Promise<number[]> {
  const db = server.services.db.kysely;
  const now = new Date().toISOString();
  const rows = await db
    .insertInto('files')
    .values(files.map((file) => ({ ...fileRow({ size: file.size, ed2k: file.ed2k }, null, now), is_ignored: file.ignored ? 1 : 0 })))
    .returning('id')
    .execute();
  const ids = rows.map((row) => row.id);
  const locations = files.flatMap((file, i) =>
    file.location
      ? [
          {
            file_id: ids[i],
            import_folder_id: file.location.importFolderId,
            relative_path: file.location.relativePath,
            is_accessible: 1,
            mtime_ms: null,
          },
        ]
      : [],
  );
  if (locations.length) await db.insertInto('file_locations').values(locations).execute();
  return ids;
}
