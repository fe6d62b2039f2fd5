import { sql, type Kysely } from 'kysely';
import { createTrigger } from './0023_series_aggregates.js';
import type { MigrationContext } from './helpers.js';

/**
 * SQLite: a file-episode link marks the series of its anime and of its episode's anime for the dashboard figures (0035)
 * with one lookup, `anime_id IN (…)`, instead of a UNION of two: the UNION built a temporary b-tree per link, which was
 * a third of the cost of writing 100,000 links (a Shoko import, a bulk link). The same series are marked. PostgreSQL's
 * triggers are left as they are (no such cost there).
 */
export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  if (ctx.dialect !== 'sqlite') return;
  for (const kind of ['insert', 'delete', 'update'])
    await sql.raw(`DROP TRIGGER IF EXISTS file_episode_links_dashboard_aggregates_${kind}`).execute(db);
  await createTrigger(db, ctx, {
    name: 'file_episode_links_dashboard_aggregates',
    table: 'file_episode_links',
    columns: ['ed2k', 'size', 'anime_id', 'episode_id'],
    series: (row) =>
      `SELECT s.id AS series_id FROM series s
       WHERE s.anime_id IN (${row}.anime_id, (SELECT ae.anime_id FROM anidb_episodes ae WHERE ae.id = ${row}.episode_id))`,
  });
}
