import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../test/harness.js';

interface Operation {
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: unknown;
  responses?: Record<string, { description: string; content?: Record<string, { schema?: unknown }> }>;
}

/** The legacy v2 config stubs answer 400 whatever is sent: the only operations without a success answer. */
const NEVER_SUCCEED = ['GET /api/webui/config', 'POST /api/webui/config'];

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

    // Every operation names its success answers (2xx, or the redirect of WebUI/Install): a schema for each body, or an
    // explicitly empty answer (an operation @fastify/swagger knows nothing about gets a bare 200 "Default Response").
    const operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
    );
    const isDescribed = (response: { description: string; content?: Record<string, { schema?: unknown }> }) =>
      response.content
        ? Object.values(response.content).every((media) => media.schema !== undefined)
        : response.description !== 'Default Response';
    const answers = (operation: Operation, statuses: RegExp) =>
      Object.entries(operation.responses ?? {}).filter(([status]) => statuses.test(status));
    const undescribed = operations
      .filter(({ operation }) => !answers(operation, /^[23]/).every(([, response]) => isDescribed(response)))
      .map(({ key }) => key);
    expect(undescribed, 'a new route without schema.response: describe its answers in server/src/http/swagger-responses.ts').toEqual([]);
    const withoutSuccess = operations.filter(({ operation }) => answers(operation, /^[23]/).length === 0);
    expect(withoutSuccess.map(({ key }) => key).sort()).toEqual([...NEVER_SUCCEED].sort());
    for (const { key, operation } of withoutSuccess) {
      expect(answers(operation, /^4/).length, `${key} documents its answer`).toBeGreaterThan(0);
      expect(
        answers(operation, /^4/).every(([, response]) => isDescribed(response)),
        key,
      ).toBe(true);
    }
    expect(operations.length).toBeGreaterThan(400);

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
