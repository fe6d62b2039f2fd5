import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, ServerProcess } from './server-process.js';

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
