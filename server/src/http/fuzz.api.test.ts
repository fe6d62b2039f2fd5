import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../app.js';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../test/harness.js';

/**
 * Malformed requests against every registered route: wrong types, huge and negative numbers, unknown enum names,
 * invalid JSON and JSON Patch, path traversal in every path-like value, oversized bodies. Nothing may answer 5xx,
 * hang, or touch files outside the test's import folder.
 */

/** Routes whose purpose is to end the session used by the fuzzer; their validation is covered by their own tests. */
const SKIPPED = [
  /^GET \/(webui|index\.html|$)/i,
  /^DELETE \/api\/auth$/i,
  /^DELETE \/api\/v3\/user\//i,
  /ChangePassword$/i,
  /^\w+ \/signalr/i,
  /^\w+ \/swagger/i,
];

const NASTY_SCALARS = [
  '-1',
  '0',
  '1',
  '2',
  '1.5',
  '99999999999999999999',
  '1e309',
  'NaN',
  'true',
  'null',
  '',
  ' ',
  'Bogus',
  'abc',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '/etc/passwd',
  '\u0000',
  'ünïcødé ✓',
  'a'.repeat(5000),
];

const nastyScalar = fc.oneof(fc.constantFrom(...NASTY_SCALARS), fc.string({ maxLength: 40 }), fc.integer().map(String));
const nastyJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...NASTY_SCALARS),
  fc.constantFrom(-1, 0, 1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1.5, true, false, null),
  fc.array(fc.constantFrom(-1, 'x', null, {}), { maxLength: 3 }),
  fc.dictionary(
    fc.constantFrom('ID', 'Name', 'Path', 'op', 'path', 'value', '__proto__', 'constructor'),
    fc.constantFrom(-1, 'x', null, '../..'),
    { maxKeys: 3 },
  ),
);

function propertyNames(schema: TSchema | undefined): string[] {
  if (!schema) return [];
  const variants = (schema.anyOf ?? schema.oneOf ?? []) as TSchema[];
  const own = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  return [...new Set([...own, ...variants.flatMap((v) => propertyNames(v))])];
}

/** A malformed body for a route: wrong-typed fields of its schema, random JSON, broken JSON, bad JSON Patch, or a huge body. */
function bodyFor(route: RegisteredRoute): fc.Arbitrary<{ raw?: string; json?: unknown }> {
  const names = propertyNames(route.schema?.body);
  const fields = names.length
    ? fc.dictionary(fc.constantFrom(...names), nastyJsonValue, { maxKeys: Math.min(names.length, 4) })
    : fc.dictionary(fc.string({ maxLength: 8 }), nastyJsonValue, { maxKeys: 3 });
  return fc.oneof(
    fields.map((json) => ({ json })),
    nastyJsonValue.map((json) => ({ json })),
    fc.constantFrom('{', '[1,', '{"a":}', 'null', '""', '{"__proto__":{"admin":true}}').map((raw) => ({ raw })),
    fc
      .array(
        fc.record({
          op: fc.constantFrom('replace', 'add', 'remove', 'move', 'copy', 'test', 'bogus'),
          path: fc.constantFrom('', '/', '/Name', '/../x', '/AniDb/Password', '/a/b/c/d', '~1'),
          value: nastyJsonValue,
        }),
        { maxLength: 3 },
      )
      .map((json) => ({ json })),
  );
}

function urlFor(route: RegisteredRoute): fc.Arbitrary<string> {
  const params = route.url.match(/:[A-Za-z]+|\*$/g) ?? [];
  const queryNames = propertyNames(route.schema?.querystring);
  const query = fc.dictionary(fc.constantFrom(...(queryNames.length ? queryNames : ['page', 'pageSize', 'x'])), nastyScalar, {
    maxKeys: 4,
  });
  return fc.tuple(fc.array(nastyScalar, { minLength: params.length, maxLength: params.length }), query).map(([values, q]) => {
    let i = 0;
    const pathPart = route.url.replace(/:[A-Za-z]+|\*$/g, () => encodeURIComponent(values[i++] || 'x'));
    const search = new URLSearchParams(q).toString();
    return search ? `${pathPart}?${search}` : pathPart;
  });
}

function snapshot(dir: string): string {
  const entries: string[] = [];
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else entries.push(`${path.relative(dir, full)}:${fs.statSync(full).size}:${fs.statSync(full).mtimeMs}`);
    }
  };
  walk(dir);
  return entries.sort().join('\n');
}

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)),
  ]);

/** Routes whose work is asking an outside service (plex.tv, GitHub). */
const REACHES_OUTSIDE = [
  /^\/plex\//i,
  /^\/api\/v3\/WebUI\/(LatestVersion|LatestServerVersion|Update|Install)/i,
  /^\/api\/v3\/WebUI\/Theme\/(AddFromURL|[^/]+\/Update)/i,
];

describe('fuzzing every route with malformed requests', () => {
  let server: TestServer;
  let adminKey: string;
  let userKey: string;
  let outside: string;
  let media: string;
  let before: string;

  beforeAll(async () => {
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    userKey = (await createUser(server, adminKey, 'fuzz-user', 'pw')).key;
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-fuzz-'));
    media = path.join(root, 'media');
    outside = path.join(root, 'outside');
    for (const dir of [media, outside]) fs.mkdirSync(path.join(dir, 'Show'), { recursive: true });
    for (const dir of [media, outside]) {
      fs.writeFileSync(path.join(dir, 'Show', 'a.mkv'), Buffer.alloc(2000, 1));
      fs.writeFileSync(path.join(dir, 'Show', 'b.mkv'), Buffer.alloc(3000, 2));
    }
    const folder = await server.request({
      method: 'POST',
      url: '/api/v3/ImportFolder',
      key: adminKey,
      body: { Name: 'Fuzz', Path: media },
    });
    await server.request({ method: 'GET', url: `/api/v3/ImportFolder/${folder.json().ID}/Scan`, key: adminKey });
    await server.services.queue.idle();
    before = snapshot(outside);
  });

  afterAll(async () => {
    await server.close();
    fs.rmSync(path.dirname(media), { recursive: true, force: true });
  });

  it('answers at least 1,000 malformed requests without a 5xx or a hang, and leaves other folders alone', async () => {
    const routes = server.routes.filter((r) => !SKIPPED.some((pattern) => pattern.test(`${r.method} ${r.url}`)));
    expect(routes.length).toBeGreaterThan(40);
    let sent = 0;
    const statuses: Record<number, number> = {};
    const failures: string[] = [];
    const request = fc.constantFrom(...routes).chain((route) =>
      fc.record({
        route: fc.constant(route),
        url: urlFor(route),
        body: bodyFor(route),
        admin: fc.boolean(),
        huge: fc.integer({ min: 0, max: 200 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ route, url, body, admin, huge }) => {
        const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);
        // A few requests carry a 10 MB body; the server must refuse it cleanly.
        const raw = hasBody && huge === 0 ? JSON.stringify({ Name: 'x'.repeat(10 * 1024 * 1024) }) : body.raw;
        const res = await withTimeout(
          server.app.inject({
            method: route.method as 'GET',
            url,
            headers: { apikey: admin ? adminKey : userKey, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
            ...(hasBody ? { payload: raw ?? JSON.stringify(body.json) } : {}),
          }),
          15_000,
          `${route.method} ${url}`,
        );
        sent += 1;
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        // No machine here reaches plex.tv or GitHub: a 502 that says so is the right answer of routes that ask them.
        const upstreamAway =
          res.statusCode === 502 &&
          REACHES_OUTSIDE.some((pattern) => pattern.test(route.url)) &&
          /could not be reached|Unable to (use|connect)/i.test(res.body);
        if (res.statusCode >= 500 && !upstreamAway)
          failures.push(`${res.statusCode} ${route.method} ${url.slice(0, 200)} → ${res.body.slice(0, 300)}`);
        // Every 400 is a problem body naming what was wrong, plain text, or (legacy v2 routes) a v2 status message.
        if (res.statusCode === 400 && res.headers['content-type']?.toString().includes('json')) {
          const problem = res.json() as { errors?: Record<string, string[]>; title?: string; message?: string };
          expect(
            problem.title ?? problem.errors ?? (/^\/api\/(?!v3\/)/i.test(route.url) ? problem.message : undefined),
            `${route.method} ${url}`,
          ).toBeTruthy();
        }
        return true;
      }),
      { numRuns: 1200, seed: 20261123, endOnFailure: true },
    );
    expect(failures, failures.join('\n')).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(1000);
    // The requests reach the handlers: many are refused as invalid, many succeed.
    expect(statuses[400]).toBeGreaterThan(200);
    expect(statuses[200]).toBeGreaterThan(100);
    expect(snapshot(outside)).toBe(before);
    expect((await server.request({ method: 'GET', url: '/api/v3/Init/Status' })).statusCode).toBe(200);
  }, 300_000);
});
