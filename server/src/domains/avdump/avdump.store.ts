import type { Kysely } from 'kysely';
import { byIds } from '../../db/shared-queries.js';
import type { Database, FileAvdumpsTable } from '../../db/schema.js';

/** SQL for the per-file record of the last successful AVDump. */
export class AVDumpStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The last successful dump of each of these files that has one. */
  async lastDumps(fileIds: number[]): Promise<FileAvdumpsTable[]> {
    const dumps = () => this.db.selectFrom('file_avdumps').selectAll();
    return byIds(
      fileIds,
      (row) => row.file_id,
      (slice) => dumps().where('file_id', 'in', slice).execute(),
      () => dumps().execute(),
    );
  }

  async recordDump(fileId: number, dumpedAt: string, version: string): Promise<void> {
    await this.db
      .insertInto('file_avdumps')
      .values({ file_id: fileId, last_dumped_at: dumpedAt, last_version: version })
      .onConflict((oc) => oc.column('file_id').doUpdateSet({ last_dumped_at: dumpedAt, last_version: version }))
      .execute();
  }
}
