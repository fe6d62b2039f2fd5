import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, ServerProcess, startFreshServer } from './server-process.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

// The harness itself, once (SQLite): nothing here depends on the database.
describe.skipIf(!!process.env.SHOKO_TEST_DB)('the server-process harness', () => {
  it('moves to another free port when its port was taken before the server could bind it', async () => {
    const taken = await freePort();
    // Whatever took the port hangs up on every connection.
    const squatter = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => squatter.listen(taken, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-harness-'));
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));

    const server = new ServerProcess({ home, port: taken, databaseUrl: null });
    cleanups.push(() => server.kill());
    await server.start();

    expect(server.baseUrl).not.toBe(`http://127.0.0.1:${taken}`);
    expect(server.output()).toContain('EADDRINUSE');
    expect((await server.fetch('GET', '/api/v3/Init/Status')).status).toBe(200);
  }, 120_000);
});

describe.runIf(!!process.env.SHOKO_TEST_DB)('a server on PostgreSQL', () => {
  it('opens five connections once started, before any request needs them', async () => {
    const { databaseUrl } = await startFreshServer(cleanups, 'shoko-connections-');
    const admin = new pg.Client({ connectionString: process.env.SHOKO_TEST_DB });
    await admin.connect();
    cleanups.push(() => admin.end());
    const name = new URL(databaseUrl!).pathname.slice(1);
    const backends = async () =>
      Number((await admin.query<{ n: string }>('SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = $1', [name])).rows[0].n);
    // The connections open in the background after Started: wait for them (the test's own timeout bounds the wait).
    while ((await backends()) < 5) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await backends()).toBeGreaterThanOrEqual(5);
  }, 120_000);
});
