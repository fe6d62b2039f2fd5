import net from 'node:net';
import os from 'node:os';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { dbFaultOf, isPgConnectionLoss } from './db-faults.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A host that takes connections and never answers, as one gone without a word (powered off, its network away). */
async function silentHost(): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return (server.address() as net.AddressInfo).port;
}

describe('a PostgreSQL host that does not answer', () => {
  it('fails a query as a lost connection once the connect timeout is over, instead of holding it for minutes', async () => {
    const port = await silentHost();
    const db = openDatabase({ home: os.tmpdir(), databaseUrl: `postgres://shoko@127.0.0.1:${port}/shoko`, connectTimeoutMs: 300 });
    cleanups.push(() => db.close());
    const error = await sql`SELECT 1`.execute(db.kysely).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/did not answer within 0.3 s/);
    expect(dbFaultOf(error)).toBe('connection-lost');
    expect(isPgConnectionLoss(error)).toBe(true);
  });
});
