import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectPg } from './pg-admin.js';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type RegisteredRoute } from '../app.js';
import { openDatabase } from '../db/database.js';
import { EventBus } from '../events/bus.js';
import { LogService } from '../domains/logs/log.service.js';
import { createServices, type ServiceOverrides, type Services } from '../services.js';
import type { App } from '../http/types.js';

/**
 * A real server over a real temporary database: SQLite in a temp dir, or a fresh PostgreSQL database when
 * SHOKO_TEST_DB points at a cluster (the PostgreSQL suite of `npm test`).
 */
export interface TestServer {
  app: App;
  routes: RegisteredRoute[];
  services: Services;
  home: string;
  request(options: {
    method: string;
    url: string;
    key?: string;
    body?: unknown;
    headers?: Record<string, string>;
  }): Promise<LightMyRequestResponse>;
  /** Stops the server; `keepData` leaves the home and database for a restart via `createTestServer({ restartOf })`. */
  close(options?: { keepData?: boolean }): Promise<void>;
  databaseUrl: string | null;
}

async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `shoko_test_${randomBytes(6).toString('hex')}`;
  const admin = await connectPg(baseUrl);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropDatabase(url.toString()) };
}

// Test servers probe these instead of the real internet monitors (port 9 refuses), so results do not depend on the
// machine's network.
process.env.SHOKO_CONNECTIVITY_URLS ??= Array(4).fill('http://127.0.0.1:9/').join(',');
// The same for GitHub (console updates), plex.tv and Trakt: tests that need them start fakes and point these there.
process.env.SHOKO_GITHUB_API_URL ??= 'http://127.0.0.1:9/api';
process.env.SHOKO_PLEXTV_URL ??= 'http://127.0.0.1:9';
process.env.SHOKO_TRAKT_URL ??= 'http://127.0.0.1:9';

async function dropDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = await connectPg(url.toString());
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.end();
}

export async function createTestServer(
  options: {
    webuiDir?: string | null;
    restartOf?: TestServer;
    services?: ServiceOverrides;
    basePath?: string;
    /** Scheduled backups (default: every 24 hours, keep 7). */
    backups?: { intervalHours: number; keep: number };
    /** Compile the routes' schemas in the background as the server does (off in tests unless asked). */
    warmRoutes?: boolean;
  } = {},
): Promise<TestServer> {
  const previous = options.restartOf;
  const home = previous?.home ?? fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-test-'));
  const pgDatabase = previous
    ? previous.databaseUrl
      ? { url: previous.databaseUrl, drop: () => dropDatabase(previous.databaseUrl!) }
      : null
    : process.env.SHOKO_TEST_DB
      ? await createPostgresDatabase(process.env.SHOKO_TEST_DB)
      : null;
  const config = {
    home,
    port: 0,
    host: '127.0.0.1',
    databaseUrl: pgDatabase?.url ?? null,
    webuiDir: options.webuiDir ?? null,
    backups: options.backups,
  };
  if (options.basePath) Object.assign(config, { basePath: options.basePath });
  if (options.warmRoutes) Object.assign(config, { warmRoutes: true });
  const bus = new EventBus();
  const logs = LogService.create({ home, bus, stdout: false });
  const db = openDatabase({ home, databaseUrl: config.databaseUrl });
  const services = await createServices(config, logs, db, bus, options.services);
  const { app, routes, close } = await buildApp(services, logs.logger);
  await app.ready();
  return {
    app,
    routes,
    services,
    home,
    databaseUrl: pgDatabase?.url ?? null,
    request: ({ method, url, key, body, headers }) =>
      app.inject({
        method: method as 'GET',
        url,
        headers: { ...(key ? { apikey: key } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      }),
    close: async ({ keepData = false } = {}) => {
      await close();
      await services.stopBackground();
      await db.close();
      await logs.close();
      if (keepData) return;
      await pgDatabase?.drop();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Runs the first-run flow through the API: default user, start, wait for Started, log in. Returns the admin key. */
export async function completeFirstRun(
  server: TestServer,
  credentials = { Username: 'Default', Password: 'first-run-pass' },
): Promise<string> {
  let res = await server.request({ method: 'POST', url: '/api/v3/Init/DefaultUser', body: credentials });
  if (res.statusCode !== 200) throw new Error(`DefaultUser: ${res.statusCode} ${res.body}`);
  res = await server.request({ method: 'GET', url: '/api/v3/Init/StartServer' });
  if (res.statusCode !== 200) throw new Error(`StartServer: ${res.statusCode} ${res.body}`);
  await server.services.init.waitForStartup();
  if (!server.services.state.isStarted) throw new Error(`Server did not start: ${JSON.stringify(server.services.state.status())}`);
  return login(server, credentials.Username, credentials.Password);
}

export async function login(server: TestServer, user: string, pass: string, device = 'test'): Promise<string> {
  const res = await server.request({ method: 'POST', url: '/api/auth', body: { user, pass, device } });
  if (res.statusCode !== 200) throw new Error(`login ${user}: ${res.statusCode} ${res.body}`);
  return res.json().apikey as string;
}

/** Creates a user through the admin API and returns its id and key. */
export async function createUser(server: TestServer, adminKey: string, username: string, password: string, isAdmin = false) {
  const res = await server.request({
    method: 'POST',
    url: '/api/v3/User',
    key: adminKey,
    body: { Username: username, Password: password, IsAdmin: isAdmin },
  });
  if (res.statusCode !== 200) throw new Error(`create user ${username}: ${res.statusCode} ${res.body}`);
  const id = res.json().ID as number;
  return { id, key: await login(server, username, password) };
}

/** GETs `url` with `key` and resolves to its JSON body, throwing unless it answers 200. */
export async function getJson<T>(server: TestServer, url: string, key?: string): Promise<T> {
  const res = await server.request({ method: 'GET', url, key });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

/**
 * Saves settings as an admin through `PATCH Settings`, throwing unless it answers 200. Settings are only saved with AniDB
 * credentials in them (the server's rules), so a stand-in account goes with the operations of a server that never logged in.
 */
export async function patchSettings(
  server: TestServer,
  adminKey: string,
  operations: Array<{ op: string; path: string; value?: unknown }>,
): Promise<void> {
  const res = await server.request({
    method: 'PATCH',
    url: '/api/v3/Settings',
    key: adminKey,
    body: [
      { op: 'replace', path: '/AniDb/Username', value: 'someone' },
      { op: 'replace', path: '/AniDb/Password', value: 'secret' },
      ...operations,
    ],
  });
  if (res.statusCode !== 200) throw new Error(`PATCH Settings: ${res.statusCode} ${res.body}`);
}

/** First run for tests against the AniDB fakes: the fake's account is stored and AutoGroupSeries turned on first. */
export async function completeFirstRunWithAniDB(server: TestServer, anidb: { username: string; password: string }): Promise<string> {
  const res = await server.request({
    method: 'PATCH',
    url: '/api/v3/Settings?skipValidation=true',
    body: [
      { op: 'replace', path: '/AniDb/Username', value: anidb.username },
      { op: 'replace', path: '/AniDb/Password', value: anidb.password },
      { op: 'replace', path: '/AutoGroupSeries', value: true },
    ],
  });
  if (res.statusCode !== 200) throw new Error(`settings: ${res.statusCode} ${res.body}`);
  return completeFirstRun(server);
}

/** Sets environment variables (e.g. the fakes' addresses) and returns the function that restores the old values. */
export function setEnv(values: Record<string, string>): () => void {
  const previous = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** The environment that points the server at the four AniDB fakes (UDP, HTTP, the titles dump, images). */
export function aniDBFakesEnv(fakes: {
  udp: { host: string; port: number };
  http: { url: string };
  titles: { url: string };
  images: { url: string };
}): Record<string, string> {
  return {
    SHOKO_ANIDB_UDP: `${fakes.udp.host}:${fakes.udp.port}`,
    SHOKO_ANIDB_HTTP: fakes.http.url,
    SHOKO_ANIDB_TITLES_URL: fakes.titles.url,
    SHOKO_ANIDB_IMAGE_URL: fakes.images.url,
  };
}
