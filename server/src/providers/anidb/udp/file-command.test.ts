import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { fileCommands, startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../../fakes/src/anidb-udp/index.js';
import { AniDBUdpClient } from './client.js';
import { addFileToMyList, lookupFile, removeFileFromMyList } from './file-command.js';

const logger = pino({ level: 'silent' });
const instantClock = { now: () => Date.now(), sleep: async () => undefined };
let fake: FakeAniDBUdp | null = null;
let client: AniDBUdpClient | null = null;

afterEach(async () => {
  await client?.close();
  await fake?.close();
  fake = null;
  client = null;
});

describe('AniDB FILE and MyList commands against the fake', () => {
  it('identifies a known file, reports an unknown one, and adds it to MyList once', async () => {
    const ed2k = 'A'.repeat(32);
    fake = await startFakeAniDBUdp({
      users: { alice: 'pw1' },
      commands: fileCommands([
        {
          size: 1234,
          ed2k,
          fileId: 7,
          animeId: 70,
          episodeId: 700,
          groupId: 5,
          otherEpisodes: [{ episodeId: 701, percentage: 50 }],
          state: 1 | 4 | 128 | 4096,
          audio: ['japanese', 'english'],
        },
      ]),
    });
    client = new AniDBUdpClient({
      server: { host: fake.host, port: fake.port, clientPort: 0 },
      logger,
      timeoutMs: 500,
      clock: instantClock,
    });
    client.setCredentials('alice', 'pw1');
    const info = await lookupFile(client, 1234, ed2k);
    expect(info).toMatchObject({
      fileId: 7,
      animeId: 70,
      episodeId: 700,
      groupId: 5,
      otherEpisodes: [{ episodeId: 701, percentage: 50 }],
      version: 2,
      isCensored: true,
      isChaptered: true,
      crc: 'ok',
      audioLanguages: ['japanese', 'english'],
      myList: null,
    });
    expect(fake.received.find((line) => line.startsWith('FILE'))).toMatch(/^FILE size=1234&ed2k=a{32}&fmask=7F00C0D1F0&amask=00000000/);
    expect(await lookupFile(client, 99, ed2k)).toBeNull();
    expect(await addFileToMyList(client, { size: 1234, ed2k }, { state: 1 })).toEqual({ added: true, myListId: 1000 });
    expect(await addFileToMyList(client, { size: 1234, ed2k }, { state: 1 })).toEqual({ added: false, alreadyThere: true });
    expect((await lookupFile(client, 1234, ed2k))?.myListId).toBe(1000);
    expect(await removeFileFromMyList(client, { size: 1234, ed2k })).toBe(true);
  });
});
