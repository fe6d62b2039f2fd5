import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';

/** A first-run test server with an admin key and a non-admin "viewer" whose restricted tags are `restrictedTags`. */
export async function seriesTestServer(restrictedTags: number[]) {
  const server: TestServer = await createTestServer();
  const key = await completeFirstRun(server);
  const viewer = await createUser(server, key, 'viewer', 'viewer-pass');
  await server.services.db.kysely
    .updateTable('users')
    .set({ restricted_tags: JSON.stringify(restrictedTags) })
    .where('id', '=', viewer.id)
    .execute();
  const api = (method: string, url: string, body?: unknown, apiKey = key) => server.request({ method, url, key: apiKey, body });
  return { server, key, viewer, api };
}
