import { sql, type Kysely } from 'kysely';
import { createTrigger } from './0023_series_aggregates.js';
import type { MigrationContext } from './helpers.js';

/**
 * Totals of release management's series lists (issue 22). The lists read a page as a range of the name-key index
 * (0040) probed against the figures (0034), but counted their total per request by joining every figure row with its
 * series and anime (34–37 ms on PostgreSQL at 400k files). Now:
 *
 * - a figure row exists only for a series whose AniDB anime is stored (the lists never showed the others), and keeps
 *   the anime's end day (`anime_end_day`, the first ten characters of its end date, NULL without one), so "only
 *   finished series" is decided on the day of the request from the row; AniDB anime inserts, deletes and end-date
 *   updates mark their series for the refresh like the other figure inputs;
 * - `series_release_totals`, one row, holds how many figure rows have each of the multiple, multiple-original and
 *   duplicate figures above zero; triggers on the figure rows keep it in the transaction that writes them (the
 *   refresh of db/aggregates.ts), so it cannot drift from the rows whatever writes them. Being date-independent, it
 *   never goes stale: an unrestricted finished-only list subtracts the few rows not finished by today, read through
 *   the index on `anime_end_day`.
 */
const COUNTED = ['multiple_count', 'multiple_original_count', 'duplicate_count'];
const counted = (row: string) => COUNTED.map((c) => `CASE WHEN ${row}.${c} > 0 THEN 1 ELSE 0 END`);

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await sql`ALTER TABLE series_release_figures ADD COLUMN anime_end_day text`.execute(db);
  await sql`DELETE FROM series_release_figures
    WHERE NOT EXISTS (SELECT 1 FROM series s JOIN anidb_anime a ON a.id = s.anime_id WHERE s.id = series_release_figures.series_id)`.execute(
    db,
  );
  await sql`UPDATE series_release_figures SET anime_end_day = (SELECT substr(a.end_date, 1, 10)
    FROM series s JOIN anidb_anime a ON a.id = s.anime_id WHERE s.id = series_release_figures.series_id)`.execute(db);
  await db.schema.createIndex('series_release_figures_end_day').on('series_release_figures').column('anime_end_day').execute();

  let table = db.schema.createTable('series_release_totals');
  for (const column of COUNTED) table = table.addColumn(column, 'integer', (c) => c.notNull());
  await table.execute();
  const sums = counted('r').map((c, i) => `COALESCE(SUM(${c}), 0) AS ${COUNTED[i]}`);
  await sql.raw(`INSERT INTO series_release_totals SELECT ${sums.join(', ')} FROM series_release_figures r`).execute(db);

  if (ctx.dialect === 'sqlite') {
    const shift = (sign: '+' | '-', row: string) =>
      `UPDATE series_release_totals SET ${counted(row)
        .map((c, i) => `${COUNTED[i]} = ${COUNTED[i]} ${sign} ${c}`)
        .join(', ')};`;
    await sql
      .raw(`CREATE TRIGGER series_release_totals_insert AFTER INSERT ON series_release_figures BEGIN ${shift('+', 'NEW')} END`)
      .execute(db);
    await sql
      .raw(`CREATE TRIGGER series_release_totals_delete AFTER DELETE ON series_release_figures BEGIN ${shift('-', 'OLD')} END`)
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER series_release_totals_update AFTER UPDATE OF ${COUNTED.join(', ')} ON series_release_figures
         BEGIN ${shift('-', 'OLD')} ${shift('+', 'NEW')} END`,
      )
      .execute(db);
  } else {
    // Per statement, from its transition tables: a refresh of 20,000 series is one update of the totals, not 40,000
    // updates of the same row.
    const shift = (sign: '+' | '-', rows: string) =>
      `UPDATE series_release_totals t SET ${COUNTED.map((c) => `${c} = t.${c} ${sign} d.${c}`).join(', ')}
       FROM (SELECT COUNT(*) AS n, ${counted('r')
         .map((c, i) => `SUM(${c}) AS ${COUNTED[i]}`)
         .join(', ')} FROM ${rows} r) d WHERE d.n > 0;`;
    await sql
      .raw(
        `CREATE FUNCTION series_release_totals_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN ${shift('-', 'removed')} END IF;
  IF TG_OP <> 'DELETE' THEN ${shift('+', 'added')} END IF;
  RETURN NULL;
END $$`,
      )
      .execute(db);
    for (const [event, tables] of [
      ['INSERT', 'NEW TABLE AS added'],
      ['DELETE', 'OLD TABLE AS removed'],
      ['UPDATE', 'OLD TABLE AS removed NEW TABLE AS added'],
    ]) {
      await sql
        .raw(
          `CREATE TRIGGER series_release_totals_${event.toLowerCase()} AFTER ${event} ON series_release_figures
           REFERENCING ${tables} FOR EACH STATEMENT EXECUTE FUNCTION series_release_totals_change()`,
        )
        .execute(db);
    }
  }

  await createTrigger(db, ctx, {
    table: 'anidb_anime',
    name: 'anidb_anime_release_marks',
    columns: ['end_date'],
    series: (row) => `SELECT s.id AS series_id FROM series s WHERE s.anime_id = ${row}.id`,
  });
}
