import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../test/harness.js';

interface Operation {
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: unknown;
  responses?: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
}

/** Operations whose answers swagger-responses.ts does not describe yet. */
const NOT_YET_DESCRIBED = [
  'GET /api/v3/Settings',
  'GET /api/v3/Queue/Types',
  'GET /api/trakt/sync',
  'GET /plex/loginurl',
  'POST /plex/server',
  'POST /plex/libraries',
  'GET /plex/sync',
  'GET /plex/sync/all',
  'GET /plex/sync/{id}',
  'GET /api/v3/WebUI/Theme.css',
  'GET /api/v3/WebUI/Theme/{themeID}',
  'DELETE /api/v3/WebUI/Theme/{themeID}',
  'POST /api/v3/WebUI/Install',
  'GET /api/v3/WebUI/Install',
  'POST /api/v3/WebUI/Update',
  'GET /api/v3/WebUI/Update',
  'GET /api/webui/config',
  'POST /api/webui/config',
  'GET /api/v3/Tmdb/Movie/{movieID}/Collection',
  'GET /api/v3/Tmdb/Movie/{movieID}/AniDB/Anime',
  'GET /api/v3/Tmdb/Movie/{movieID}/AniDB/Episode',
  'GET /api/v3/Tmdb/Movie/{movieID}/Shoko/Series',
  'GET /api/v3/Tmdb/Movie/{movieID}/Shoko/Episode',
  'GET /api/v3/Tmdb/Movie/Collection/{collectionID}',
  'GET /api/v3/Tmdb/Movie/Collection/{collectionID}/Titles',
  'GET /api/v3/Tmdb/Movie/Collection/{collectionID}/Overviews',
  'GET /api/v3/Tmdb/Movie/Collection/{collectionID}/Images',
  'GET /api/v3/Tmdb/Movie/Collection/{collectionID}/Movie',
  'GET /api/v3/Tmdb/Show/{showID}/AniDB/Anime',
  'GET /api/v3/Tmdb/Show/{showID}/AniDB/Episode',
  'GET /api/v3/Tmdb/Show/{showID}/Shoko/Series',
  'GET /api/v3/Tmdb/Show/{showID}/Shoko/Episode',
  'GET /api/v3/Tmdb/Season/{seasonID}/AniDB/Anime',
  'GET /api/v3/Tmdb/Season/{seasonID}/AniDB/Episode',
  'GET /api/v3/Tmdb/Season/{seasonID}/Shoko/Series',
  'GET /api/v3/Tmdb/Season/{seasonID}/Shoko/Episode',
  'GET /api/v3/Tmdb/Episode/{episodeID}/AniDB/Anime',
  'GET /api/v3/Tmdb/Episode/{episodeID}/Anidb/Episode',
  'GET /api/v3/Tmdb/Episode/{episodeID}/Shoko/Series',
  'GET /api/v3/Tmdb/Episode/{episodeID}/Shoko/Episode',
  'POST /api/v3/Series/{seriesID}/Trakt/SendWatchStates',
  'POST /api/v3/Series/{seriesID}/Trakt/GetWatchStates',
  'POST /plex',
  'POST /plex.json',
];

/** The API description is public at Shoko's paths and covers every route we serve. */
describe('OpenAPI description', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it('serves the UI at /swagger/index.html without a key', async () => {
    const index = await server.request({ method: 'GET', url: '/swagger/index.html' });
    expect(index.statusCode).toBe(302);
    expect(index.headers.location).toBe('/swagger/');
    const ui = await server.request({ method: 'GET', url: '/swagger/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
    expect(ui.body).toContain('swagger-ui');
  });

  it('serves an OpenAPI 3 document at /swagger/v3/swagger.json that lists every API route with its parameters', async () => {
    const res = await server.request({ method: 'GET', url: '/swagger/v3/swagger.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json() as { openapi: string; paths: Record<string, Record<string, Operation>> };
    expect(document.openapi).toMatch(/^3\./);
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const apiRoutes = server.routes.filter((route) => route.url.startsWith('/api/') || route.url.startsWith('/plex'));
    const openApiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}').replace(/\*$/, '{*}');
    const undocumented = apiRoutes.map((route) => `${route.method} ${openApiPath(route.url)}`).filter((route) => !documented.has(route));
    expect(undocumented).toEqual([]);

    // Every operation names its success answers: a schema for each body, or an explicitly empty answer (an
    // operation @fastify/swagger knows nothing about gets a bare 200 "Default Response").
    const operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    );
    const undescribed = operations
      .filter(({ operation }) => {
        const success = Object.entries(operation.responses ?? {}).filter(([status]) => /^2/.test(status));
        const described = success.every(([, response]) =>
          response.content
            ? Object.values(response.content).every((media) => media.schema !== undefined)
            : response.description !== 'Default Response',
        );
        return success.length === 0 || !described;
      })
      .map(({ key }) => key);
    expect(undescribed.sort(), 'a new route without schema.response: describe its answers in server/src/http/swagger-responses.ts').toEqual(
      [...NOT_YET_DESCRIBED].sort(),
    );

    const fileRoute = document.paths['/api/v3/Filter/{filterID}'].get;
    expect(fileRoute.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'filterID', in: 'path', required: true }),
        // Defaulted query parameters may be left out.
        expect.objectContaining({ name: 'withConditions', in: 'query', required: false }),
      ]),
    );
  });
});
