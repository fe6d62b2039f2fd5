import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../config.js';
import { createLazySchemaCompilers } from './lazy-schema-compilers.js';

/** The lazy compilers: a route's schemas compile on its first request, or all at once when warmed after the start. */
describe('lazy schema compilers', () => {
  const compilers = createLazySchemaCompilers();
  const build = async () => {
    const app = Fastify({ schemaController: { compilersFactory: compilers.compilersFactory } });
    const response = { 200: { type: 'object', properties: { Name: { anyOf: [{ type: 'string' }, { type: 'null' }] } } } };
    app.get('/a', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } }, response } }, () => ({ Name: 'x' }));
    app.post('/b', { schema: { body: { type: 'object', required: ['Id'], properties: { Id: { type: 'integer' } } }, response } }, () => ({
      Name: null,
    }));
    await app.ready();
    return app;
  };

  it('leaves every compile to the first request until warmed, then has none pending and checks as before', async () => {
    const app = await build();
    const before = compilers.pendingCount();
    // A validator and a serializer per route at least.
    expect(before).toBeGreaterThanOrEqual(4);
    expect((await app.inject({ method: 'GET', url: '/a?n=2' })).json()).toEqual({ Name: 'x' });
    expect(compilers.pendingCount()).toBeLessThan(before);
    expect(await compilers.warm()).toBeGreaterThan(0);
    expect(compilers.pendingCount()).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/a?n=x' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/b', payload: {} })).statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/b', payload: { Id: 1 } })).json()).toEqual({ Name: null });
    await app.close();
  });

  it('are warmed after the start unless SHOKO_WARM_ROUTES=off, and other values are refused', () => {
    expect(readConfig({}).warmRoutes).toBe(true);
    expect(readConfig({ SHOKO_WARM_ROUTES: 'Off' }).warmRoutes).toBe(false);
    expect(() => readConfig({ SHOKO_WARM_ROUTES: '0' })).toThrow(/SHOKO_WARM_ROUTES must be/);
  });
});
