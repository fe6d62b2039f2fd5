import { sql, type Kysely } from 'kysely';

/**
 * The files a user is part-way through (a non-zero resume position), per user: Continue Watching and Next Up read
 * them first. Through the primary key they read every file state of the user (each file ever played) to find the few
 * in progress.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX user_file_states_resumed ON user_file_states (user_id, file_id) WHERE resume_position_ms > 0`.execute(db);
}
