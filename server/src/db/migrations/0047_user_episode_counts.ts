import { sql, type Kysely } from 'kysely';
import type { MigrationContext } from './helpers.js';

/**
 * How many listed episodes each user has watched and voted on (issue 22): the Total of `GET /api/v3/Episode` with
 * `includeWatched=only` (or `includeVoted=only`) and the default filters counted every watched episode of the viewer,
 * 128,596 at 400k files (45–70 ms of SQLite, 250–400 ms of PostgreSQL per request on a loaded machine). Listed is what
 * the list shows with its default filters: an episode with AniDB data (a type rank, 0043), a local file and not hidden.
 *
 * Triggers append a +1 / −1 row per (user, watched, voted) combination in the transaction of the change, like 0046:
 * a watch-state row that is added, removed or changes its user, episode, watched or voted state, and an episode that
 * becomes listed or stops being listed (or is deleted: before its state rows go with it, since those see no episode
 * then) moves the rows of every state of it. A state row removed with its user (the cascade runs once the user is gone)
 * appends nothing, and the user's rows go. The reader sums a user's rows and folds them when they pile up
 * (db/user-episode-counts.ts). On PostgreSQL a watch-state change first takes a share lock on its episode, so an
 * episode that changes its listing concurrently either waits for the new state (and moves it) or commits before the
 * state's trigger reads it; otherwise each side could miss the other's uncommitted row. The price: a bulk watch and an
 * import that change the same episodes in opposite orders can deadlock, and PostgreSQL then fails one of the two
 * (the bulk watch, EpisodesStore.setWatched, runs again: db/deadlock-retry.ts).
 */
const listed = (row: string) => `(${row}.sort_type_rank IS NOT NULL AND ${row}.local_file_count > 0 AND ${row}.is_hidden <> 1)`;
const flags = (row: string) => `CASE WHEN ${row}.watched_at IS NULL THEN 0 ELSE 1 END, CASE WHEN ${row}.rating IS NULL THEN 0 ELSE 1 END`;
const COLUMNS = 'user_episode_counts (user_id, is_watched, is_voted, episodes)';

/** A watch-state row counted (+1) or no longer counted (−1), when its episode is listed and it is watched or voted. */
const moveState = (row: 'NEW' | 'OLD', delta: 1 | -1) =>
  `INSERT INTO ${COLUMNS} SELECT ${row}.user_id, ${flags(row)}, ${delta} FROM episodes e
   WHERE e.id = ${row}.episode_id AND ${listed('e')} AND (${row}.watched_at IS NOT NULL OR ${row}.rating IS NOT NULL)
     ${delta < 0 ? `AND EXISTS (SELECT 1 FROM users u WHERE u.id = ${row}.user_id)` : ''};`;

/** Every watched or voted state of an episode counted (+1) or no longer counted (−1). */
const moveEpisode = (row: 'NEW' | 'OLD', delta: string) =>
  `INSERT INTO ${COLUMNS} SELECT s.user_id, ${flags('s')}, ${delta} FROM user_episode_states s
   WHERE s.episode_id = ${row}.id AND (s.watched_at IS NOT NULL OR s.rating IS NOT NULL);`;
/** An episode whose listing changed: listed now (+1) or no more (−1). */
const relisted = moveEpisode('NEW', `CASE WHEN ${listed('NEW')} THEN 1 ELSE -1 END`);

const STATE_COLUMNS = 'user_id, episode_id, watched_at, rating';
const stateChanged = `OLD.user_id <> NEW.user_id OR OLD.episode_id <> NEW.episode_id
  OR (OLD.watched_at IS NULL) <> (NEW.watched_at IS NULL) OR (OLD.rating IS NULL) <> (NEW.rating IS NULL)`;
// anidb_episode_id too: on PostgreSQL 0043's BEFORE trigger sets the keys when it changes, and `UPDATE OF` only sees
// the columns of the statement.
const EPISODE_COLUMNS = 'sort_type_rank, local_file_count, is_hidden, anidb_episode_id';
const listingChanged = `${listed('OLD')} <> ${listed('NEW')}`;
const forgetUser = 'DELETE FROM user_episode_counts WHERE user_id = OLD.id;';

export async function up(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  await db.schema
    .createTable('user_episode_counts')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('is_watched', 'integer', (c) => c.notNull())
    .addColumn('is_voted', 'integer', (c) => c.notNull())
    .addColumn('episodes', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_episode_counts_user').on('user_episode_counts').column('user_id').execute();
  await sql
    .raw(
      `INSERT INTO ${COLUMNS} SELECT s.user_id, ${flags('s')}, COUNT(*) FROM user_episode_states s JOIN episodes e ON e.id = s.episode_id
       WHERE ${listed('e')} AND (s.watched_at IS NOT NULL OR s.rating IS NOT NULL)
       GROUP BY s.user_id, ${flags('s')}`,
    )
    .execute(db);

  const run = (text: string) => sql.raw(text).execute(db);
  if (ctx.dialect === 'sqlite') {
    await run(`CREATE TRIGGER user_episode_states_counts_insert AFTER INSERT ON user_episode_states BEGIN ${moveState('NEW', 1)} END`);
    await run(`CREATE TRIGGER user_episode_states_counts_delete AFTER DELETE ON user_episode_states BEGIN ${moveState('OLD', -1)} END`);
    await run(
      `CREATE TRIGGER user_episode_states_counts_update AFTER UPDATE OF ${STATE_COLUMNS} ON user_episode_states WHEN ${stateChanged}
       BEGIN ${moveState('OLD', -1)} ${moveState('NEW', 1)} END`,
    );
    await run(
      `CREATE TRIGGER episodes_user_counts_update AFTER UPDATE OF ${EPISODE_COLUMNS} ON episodes WHEN ${listingChanged}
       BEGIN ${relisted} END`,
    );
    await run(
      `CREATE TRIGGER episodes_user_counts_delete BEFORE DELETE ON episodes WHEN ${listed('OLD')} BEGIN ${moveEpisode('OLD', '-1')} END`,
    );
    await run(`CREATE TRIGGER users_episode_counts_delete AFTER DELETE ON users BEGIN ${forgetUser} END`);
    return;
  }
  const share = (row: string) => `PERFORM 1 FROM episodes WHERE id = ${row}.episode_id FOR SHARE;`;
  await run(`CREATE FUNCTION user_episode_states_counts() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    IF TG_OP = 'UPDATE' AND NOT (${stateChanged}) THEN RETURN NULL; END IF;
    IF TG_OP <> 'INSERT' THEN ${share('OLD')} ${moveState('OLD', -1)} END IF;
    IF TG_OP <> 'DELETE' THEN ${share('NEW')} ${moveState('NEW', 1)} END IF;
    RETURN NULL; END $$`);
  await run(
    `CREATE TRIGGER user_episode_states_counts AFTER INSERT OR DELETE OR UPDATE OF ${STATE_COLUMNS} ON user_episode_states
     FOR EACH ROW EXECUTE FUNCTION user_episode_states_counts()`,
  );
  await run(`CREATE FUNCTION episodes_user_counts() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
    IF TG_OP = 'DELETE' THEN
      IF ${listed('OLD')} THEN ${moveEpisode('OLD', '-1')} END IF;
      RETURN OLD;
    END IF;
    IF ${listingChanged} THEN ${relisted} END IF;
    RETURN NULL; END $$`);
  await run(
    `CREATE TRIGGER episodes_user_counts AFTER UPDATE OF ${EPISODE_COLUMNS} ON episodes FOR EACH ROW EXECUTE FUNCTION episodes_user_counts()`,
  );
  await run(`CREATE TRIGGER episodes_user_counts_delete BEFORE DELETE ON episodes FOR EACH ROW EXECUTE FUNCTION episodes_user_counts()`);
  await run(`CREATE FUNCTION users_episode_counts() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${forgetUser} RETURN NULL; END $$`);
  await run(`CREATE TRIGGER users_episode_counts AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION users_episode_counts()`);
}
