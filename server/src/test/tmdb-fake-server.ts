import { expect } from 'vitest';
import { startFakeTmdb, type FakeTmdb } from '../../../fakes/src/tmdb/index.js';
import { sampleMovies, sampleShows } from '../../../fakes/src/tmdb/sample-data.js';
import { completeFirstRun, createTestServer, type TestServer } from './harness.js';

export interface TmdbFakeServer {
  server: TestServer;
  fake: FakeTmdb;
  /** The administrator's key. */
  key: string;
  /** Stops the server and the fake and puts the TMDB environment back. */
  close(): Promise<void>;
}

/**
 * A test server whose TMDB client talks to a fresh TMDB fake holding the sample shows and movies, with `settings`
 * (JSON Patch paths of the server settings) applied before the first run.
 */
export async function startServerWithTmdbFake(settings: { path: string; value: unknown }[]): Promise<TmdbFakeServer> {
  const saved = { SHOKO_TMDB_URL: process.env.SHOKO_TMDB_URL, SHOKO_TMDB_IMAGE_URL: process.env.SHOKO_TMDB_IMAGE_URL };
  const fake = await startFakeTmdb({ shows: sampleShows, movies: sampleMovies });
  process.env.SHOKO_TMDB_URL = fake.url;
  process.env.SHOKO_TMDB_IMAGE_URL = fake.imageUrl;
  const server = await createTestServer();
  if (settings.length) {
    const patch = await server.request({
      method: 'PATCH',
      url: '/api/v3/Settings?skipValidation=true',
      body: settings.map((setting) => ({ op: 'replace', ...setting })),
    });
    expect(patch.statusCode).toBeLessThan(300);
  }
  const key = await completeFirstRun(server);
  return {
    server,
    fake,
    key,
    close: async () => {
      await server.close();
      await fake.close();
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}
