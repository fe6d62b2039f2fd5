import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../../fakes/src/anidb-udp/index.js';
import { AniDBUdpClient, updatedAnimePage, updatedAnimeSince } from './index.js';

const logger = pino({ level: 'silent' });
const instantClock = { now: () => Date.now(), sleep: async () => {} };

let fake: FakeAniDBUdp | null = null;
let client: AniDBUdpClient | null = null;

afterEach(async () => {
  await client?.close();
  await fake?.close();
  client = null;
  fake = null;
});

async function setUp() {
  fake = await startFakeAniDBUdp({ users: { alice: 'pw' } });
  client = new AniDBUdpClient({ server: { host: fake.host, port: fake.port, clientPort: 0 }, logger, timeoutMs: 500, clock: instantClock });
  client.setCredentials('alice', 'pw');
  return { fake, client };
}

describe('UPDATED (which anime AniDB changed)', () => {
  it('asks with entity=1 and the time in unix seconds, and reads 343 as nothing changed', async () => {
    const { fake, client } = await setUp();
    expect(await updatedAnimePage(client, 1_700_000_000.7)).toEqual({ total: 0, lastChangeAt: 0, animeIds: [] });
    expect(fake.received.at(-1)).toMatch(/^UPDATED entity=1&time=1700000000&tag=t\d+&s=\w+$/);
  });

  it('lists the anime changed since the time, oldest change first, and follows pages of 200', async () => {
    const { fake, client } = await setUp();
    fake.animeUpdates.push({ animeId: 5, at: 999 });
    for (let i = 0; i < 450; i++) fake.animeUpdates.push({ animeId: 1000 + i, at: 2000 + i });
    const first = await updatedAnimePage(client, 1000);
    expect(first.total).toBe(450);
    expect(first.animeIds).toHaveLength(200);
    expect(first.animeIds[0]).toBe(1000);
    expect(first.lastChangeAt).toBe(2199);

    const sent = fake.received.length;
    const all = await updatedAnimeSince(client, 1000);
    expect(all.complete).toBe(true);
    expect(new Set(all.animeIds).size).toBe(450);
    expect(all.animeIds).not.toContain(5);
    // Three pages, each starting at the newest change of the one before.
    expect(fake.received.slice(sent).map((line) => /time=(\d+)/.exec(line)?.[1])).toEqual(['1000', '2199', '2398']);
  });

  it('stops after the page limit and says where it got to', async () => {
    const { client, fake } = await setUp();
    for (let i = 0; i < 450; i++) fake.animeUpdates.push({ animeId: 1000 + i, at: 2000 + i });
    const cut = await updatedAnimeSince(client, 0, 2);
    expect(cut).toMatchObject({ complete: false, checkedUpTo: 2398 });
    expect(cut.animeIds).toHaveLength(399);
  });
});
