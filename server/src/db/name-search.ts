import { sql, type RawBuilder } from 'kysely';

/**
 * Name search (issue 22, migration 0044): the names the filters' Names selector reads — AniDB titles, series title
 * overrides, group names — each in a trigram index, so that "some name contains (or equals) this text" reads the
 * rows holding the text's three-letter runs instead of lower-casing every name of the collection (the console's
 * collection search). SQLite keeps each kind in an FTS5 table with the trigram tokenizer (rowid = the base row's id,
 * `name` = the name as stored), filled by triggers in the transaction of the change; PostgreSQL indexes lower(name)
 * with pg_trgm's GIN operator class, which the filters' own comparison reads.
 *
 * The index only narrows the rows: the filter compares the base rows' names as it always did (domains/filters/
 * compiler/), so the answer does not depend on how the tokenizer folds case (FTS5 folds all of Unicode, SQLite's
 * lower() only ASCII: a row the comparison accepts always holds the folded text).
 */
export const NAME_SEARCH = {
  titles: { table: 'anidb_anime_titles', column: 'value', search: 'anidb_title_search' },
  overrides: { table: 'series', column: 'title_override', search: 'series_title_search' },
  groups: { table: 'groups', column: 'name', search: 'group_name_search' },
} as const;

export type NameKind = keyof typeof NAME_SEARCH;

/** Texts shorter than this have no trigram: the trigram tables cannot name their rows. */
const TRIGRAM = 3;

/**
 * SQLite: the ids of the `kind` rows whose name may contain `text` (all that do, and maybe more), as a sub-query of
 * its trigram table; null when `text` is too short to look up. The text is one quoted FTS5 phrase (a `"` doubled), so
 * no character of it is an operator or a wildcard.
 */
export function nameCandidates(kind: NameKind, text: string): RawBuilder<unknown> | null {
  if ([...text].length < TRIGRAM) return null;
  const table = sql.raw(NAME_SEARCH[kind].search);
  return sql`SELECT rowid FROM ${table} WHERE ${table} MATCH ${`"${text.replaceAll('"', '""')}"`}`;
}
