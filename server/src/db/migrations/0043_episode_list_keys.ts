import { sql, type Kysely, type SqlBool } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * The all-episodes list's maintained keys (issue 22): each Shoko episode's row holds how many local files it has (the
 * link ⋈ file pairs of its AniDB episode, which `Episode.Size` shows and the missing/unaired filters test) and its
 * AniDB episode's type rank and number, so `GET /api/v3/Episode` filters, orders and pages in SQL: a walk of
 * `episodes_list_order` that stops after the page, instead of a correlated file count of every episode per request.
 * The viewer's watched (and voted) episodes get partial indexes, so the Total of `includeWatched=Only` reads only them.
 *
 * Triggers keep the columns current in the same transaction as the change. The file count moves by deltas (a link
 * adds the files of its content, a file the links of its content to each episode), so two transactions linking files
 * to one episode both count on PostgreSQL; a new episode (or one moved to another AniDB episode) counts from scratch.
 * The rank is the raw order of the contract: Episode, Credits, Special, Trailer, Parody, Other, anything else last;
 * null while the episode has no AniDB episode row (such episodes are never listed, so a count need not join AniDB data).
 */
const rank = (type: string) =>
  `CASE ${type} WHEN 'Episode' THEN 1 WHEN 'Credits' THEN 2 WHEN 'Special' THEN 3 WHEN 'Trailer' THEN 4 WHEN 'Parody' THEN 5 WHEN 'Other' THEN 6 ELSE 7 END`;

/** The local files of an AniDB episode, counted from the base tables. */
const filesOfEpisode = (anidbEpisodeId: string) =>
  `(SELECT COUNT(*) FROM file_episode_links l JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size WHERE l.episode_id = ${anidbEpisodeId})`;

/** A link added (+) or removed (-): its episode gains or loses the files of its content. */
const moveByLink = (row: string, sign: '+' | '-') =>
  `UPDATE episodes SET local_file_count = local_file_count ${sign} (SELECT COUNT(*) FROM files f WHERE f.ed2k = ${row}.ed2k AND f.size = ${row}.size)
   WHERE anidb_episode_id = ${row}.episode_id AND EXISTS (SELECT 1 FROM files f WHERE f.ed2k = ${row}.ed2k AND f.size = ${row}.size);`;

/** A file added (+) or removed (-): each episode linked to its content gains or loses one per link. */
const moveByFile = (row: string, sign: '+' | '-') =>
  `UPDATE episodes SET local_file_count = local_file_count ${sign}
     (SELECT COUNT(*) FROM file_episode_links l WHERE l.ed2k = ${row}.ed2k AND l.size = ${row}.size AND l.episode_id = episodes.anidb_episode_id)
   WHERE anidb_episode_id IN (SELECT l.episode_id FROM file_episode_links l WHERE l.ed2k = ${row}.ed2k AND l.size = ${row}.size);`;

const sortFromAnidb = `UPDATE episodes SET sort_type_rank = ${rank('NEW.type')}, sort_number = NEW.number WHERE anidb_episode_id = NEW.id;`;
/** The AniDB episode deleted (or, on an update, given another id): its Shoko episode has no AniDB data now. */
const sortWithoutAnidb = (moved: string) =>
  `UPDATE episodes SET sort_type_rank = NULL, sort_number = 0 WHERE anidb_episode_id = OLD.id${moved};`;

/** What a write to each table does to the file counts: on insert, on delete, on an update of `update`'s columns. */
const MOVES: Array<{ table: string; update: string; insert: string; remove: string; change: string }> = [
  {
    table: 'file_episode_links',
    update: 'ed2k, size, episode_id',
    insert: moveByLink('NEW', '+'),
    remove: moveByLink('OLD', '-'),
    change: `${moveByLink('OLD', '-')} ${moveByLink('NEW', '+')}`,
  },
  {
    table: 'files',
    update: 'ed2k, size',
    insert: moveByFile('NEW', '+'),
    remove: moveByFile('OLD', '-'),
    change: `${moveByFile('OLD', '-')} ${moveByFile('NEW', '+')}`,
  },
];

async function createTriggers(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(db);
  if (ctx.dialect === 'sqlite') {
    for (const move of MOVES) {
      await run(`CREATE TRIGGER ${move.table}_episode_files_insert AFTER INSERT ON ${move.table} BEGIN ${move.insert} END`);
      await run(`CREATE TRIGGER ${move.table}_episode_files_delete AFTER DELETE ON ${move.table} BEGIN ${move.remove} END`);
      await run(
        `CREATE TRIGGER ${move.table}_episode_files_update AFTER UPDATE OF ${move.update} ON ${move.table} BEGIN ${move.change} END`,
      );
    }
    // SQLite cannot assign NEW in a trigger: the new (or re-pointed) row is updated after the write.
    const fill = `UPDATE episodes SET local_file_count = ${filesOfEpisode('NEW.anidb_episode_id')},
        sort_type_rank = (SELECT ${rank('a.type')} FROM anidb_episodes a WHERE a.id = NEW.anidb_episode_id),
        sort_number = COALESCE((SELECT a.number FROM anidb_episodes a WHERE a.id = NEW.anidb_episode_id), 0)
      WHERE id = NEW.id;`;
    await run(`CREATE TRIGGER episodes_list_keys_insert AFTER INSERT ON episodes BEGIN ${fill} END`);
    await run(`CREATE TRIGGER episodes_list_keys_update AFTER UPDATE OF anidb_episode_id ON episodes BEGIN ${fill} END`);
    await run(`CREATE TRIGGER anidb_episodes_list_keys_insert AFTER INSERT ON anidb_episodes BEGIN ${sortFromAnidb} END`);
    await run(
      `CREATE TRIGGER anidb_episodes_list_keys_update AFTER UPDATE OF id, type, number ON anidb_episodes BEGIN ${sortWithoutAnidb(' AND OLD.id <> NEW.id')} ${sortFromAnidb} END`,
    );
    await run(`CREATE TRIGGER anidb_episodes_list_keys_delete AFTER DELETE ON anidb_episodes BEGIN ${sortWithoutAnidb('')} END`);
    return;
  }
  for (const move of MOVES) {
    const name = `${move.table}_episode_files`;
    await run(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN ${move.insert}
  ELSIF TG_OP = 'DELETE' THEN ${move.remove}
  ELSE ${move.change}
  END IF;
  RETURN NULL;
END $$`);
    await run(
      `CREATE TRIGGER ${name} AFTER INSERT OR DELETE OR UPDATE OF ${move.update} ON ${move.table} FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    );
  }
  // PostgreSQL fills the new (or re-pointed) row before it is written.
  await run(`CREATE FUNCTION episodes_list_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.local_file_count := ${filesOfEpisode('NEW.anidb_episode_id')};
  NEW.sort_type_rank := (SELECT ${rank('a.type')} FROM anidb_episodes a WHERE a.id = NEW.anidb_episode_id);
  NEW.sort_number := COALESCE((SELECT a.number FROM anidb_episodes a WHERE a.id = NEW.anidb_episode_id), 0);
  RETURN NEW;
END $$`);
  await run(
    `CREATE TRIGGER episodes_list_keys BEFORE INSERT OR UPDATE OF anidb_episode_id ON episodes FOR EACH ROW EXECUTE FUNCTION episodes_list_keys()`,
  );
  await run(`CREATE FUNCTION anidb_episodes_list_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN ${sortWithoutAnidb('')} RETURN NULL; END IF;
  IF TG_OP = 'UPDATE' THEN ${sortWithoutAnidb(' AND OLD.id <> NEW.id')} END IF;
  ${sortFromAnidb}
  RETURN NULL;
END $$`);
  await run(
    `CREATE TRIGGER anidb_episodes_list_keys AFTER INSERT OR DELETE OR UPDATE OF id, type, number ON anidb_episodes FOR EACH ROW EXECUTE FUNCTION anidb_episodes_list_keys()`,
  );
}

/** Every episode's keys from the base tables: one pass over those with AniDB data, then the (usually no) others. */
export async function fillListKeys(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE episodes SET sort_type_rank = ${sql.raw(rank('a.type'))}, sort_number = a.number, local_file_count = COALESCE(c.n, 0)
    FROM anidb_episodes a
      LEFT JOIN (SELECT l.episode_id, COUNT(*) AS n FROM file_episode_links l JOIN files f ON f.ed2k = l.ed2k AND f.size = l.size GROUP BY l.episode_id) c
        ON c.episode_id = a.id
    WHERE a.id = episodes.anidb_episode_id`.execute(db);
  await sql`UPDATE episodes SET sort_type_rank = NULL, sort_number = 0, local_file_count = ${sql.raw(filesOfEpisode('episodes.anidb_episode_id'))}
    WHERE NOT EXISTS (SELECT 1 FROM anidb_episodes a WHERE a.id = episodes.anidb_episode_id)`.execute(db);
}

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('episodes')
    .addColumn('local_file_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('episodes').addColumn('sort_type_rank', 'integer').execute();
  await db.schema
    .alterTable('episodes')
    .addColumn('sort_number', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await fillListKeys(db);
  // The list's order; it starts with series_id, so it answers every lookup episodes_series did.
  await db.schema.createIndex('episodes_list_order').on('episodes').columns(['series_id', 'sort_type_rank', 'sort_number', 'id']).execute();
  await db.schema.dropIndex('episodes_series').execute();
  // What the Total's conditions read of an episode without AniDB conditions: a covering probe (SQLite) or an
  // index-only scan (PostgreSQL) instead of the table's rows.
  await db.schema
    .createIndex('episodes_list_filter')
    .on('episodes')
    .columns(['id', 'is_hidden', 'local_file_count', 'sort_type_rank'])
    .execute();
  // The viewer's watched or voted episodes, for a Total with `includeWatched=only` or `includeVoted=only`.
  for (const [name, column] of [
    ['user_episode_states_watched', 'watched_at'],
    ['user_episode_states_voted', 'rating'],
  ])
    await db.schema
      .createIndex(name)
      .on('user_episode_states')
      .columns(['user_id', 'episode_id'])
      .where(sql.raw<SqlBool>(`${column} IS NOT NULL`))
      .execute();
  await createTriggers(db, ctx);
}
