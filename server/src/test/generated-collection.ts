import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { generateCollection } from '../domains/groups/synthetic.js';
import { completeFirstRun, createTestServer, createUser, type TestServer } from './harness.js';

/**
 * A started test server holding a generated collection watched in part by the admin (user 1) and a second user
 * (`viewer`), for the tests of maintained tables.
 */
export async function serverWithCollection(options: { series: number; files: number; seed: number; placeFiles?: boolean }) {
  const server: TestServer = await createTestServer();
  const admin = await completeFirstRun(server);
  const other = await createUser(server, admin, 'viewer', 'viewer-pass');
  await generateCollection(server.services.db.kysely, { ...options, userIds: [1, other.id] });
  return { server, admin, other };
}

/** Moves the series of `animeId` to a new copy of that anime (id + 900,000), which no file is linked to. */
export async function moveSeriesToNewAnime(db: Kysely<Database>, animeId: number): Promise<void> {
  const { id: _id, ...anime } = await db.selectFrom('anidb_anime').selectAll().where('id', '=', animeId).executeTakeFirstOrThrow();
  await db
    .insertInto('anidb_anime')
    .values({ ...anime, id: animeId + 900_000 })
    .execute();
  await db
    .updateTable('series')
    .set({ anime_id: animeId + 900_000 })
    .where('anime_id', '=', animeId)
    .execute();
}
