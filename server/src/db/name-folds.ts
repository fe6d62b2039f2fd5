import { sql, type Kysely } from 'kysely';
import { writeComputed } from './computed-columns.js';
import { upkeepUnlessDbFault } from './db-faults.js';

/**
 * Folded names (issue 22, migration 0050): beside each name the filters' Name and Names selectors read — AniDB titles
 * and main titles, series title overrides, group names — its fold as fuzzy matching compares it (foldText below:
 * accents and case folded, punctuation a space). A fuzzy filter then picks the names holding a piece of its needle in the database
 * (FilterCompiler.textMatchPlan) instead of folding every name of the collection in the worker for each request (at
 * 400k files, 80,000 names: about 100 ms for the folding alone, and as long again to read them all out).
 *
 * Code computes the folds (no database has JS's Unicode decomposition). Triggers of 0050 clear a fold in the
 * transaction of the change to its name; a new row starts without one; `refreshNameFolds` fills the empty ones before
 * a filter reads them. A name without its fold (changed between the refresh and the read) goes to the worker as before.
 */
export const NAME_FOLDS = {
  titles: { table: 'anidb_anime_titles', name: 'value', fold: 'folded', nullable: false },
  mainTitles: { table: 'anidb_anime', name: 'main_title', fold: 'main_title_folded', nullable: false },
  overrides: { table: 'series', name: 'title_override', fold: 'title_override_folded', nullable: true },
  groups: { table: 'groups', name: 'name', fold: 'name_folded', nullable: false },
} as const;

/**
 * A text as fuzzy matching compares it: its first 1,000 characters, compatibility-decomposed, without combining marks
 * (accents), lower-cased, every run of characters other than letters and digits one space, trimmed. The database keeps
 * the fold of every name, so this is the one definition both use. It also runs in the filters' worker as source text
 * (shared/text-match.ts): it must not reference anything outside itself.
 */
export function foldText(text: string): string {
  return text
    .slice(0, 1000)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The rows whose fold is missing: what the partial indexes of 0050 hold. `name IS NOT NULL` only where the name may be
 * NULL: SQLite drops the term for a NOT NULL column before choosing an index, and then no longer sees a query's
 * condition imply the index's (every title read, 30-40 ms at 400k files).
 */
export const unfolded = ({ name, fold, nullable }: { name: string; fold: string; nullable: boolean }) =>
  nullable ? `${name} IS NOT NULL AND ${fold} IS NULL` : `${fold} IS NULL`;

/** Fills every missing fold; returns how many were written. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function refreshNameFolds(db: Kysely<any>): Promise<number> {
  // Those still missing are written by a later caller when the database cannot take the writes now (a full disk).
  return upkeepUnlessDbFault(db, () => writeMissingNameFolds(db), 0);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function writeMissingNameFolds(db: Kysely<any>): Promise<number> {
  let written = 0;
  for (const kind of Object.values(NAME_FOLDS)) {
    const { rows } = await sql<{ id: number; name: string }>`SELECT id, ${sql.raw(kind.name)} AS name FROM ${sql.raw(kind.table)}
      WHERE ${sql.raw(unfolded(kind))} ORDER BY id`.execute(db);
    await writeComputed(
      db,
      kind.table,
      kind.fold,
      kind.name,
      rows.map((r) => [r.id, foldText(r.name), r.name]),
    );
    written += rows.length;
  }
  return written;
}
