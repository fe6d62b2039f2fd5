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
