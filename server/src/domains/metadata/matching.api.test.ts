import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileCommands, startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../fakes/src/anidb-udp/index.js';
import { completeFirstRunWithAniDB, createTestServer, setEnv, type TestServer } from '../../test/harness.js';
import type { AnimeMetadata } from './anime.store.js';
import { inventedAnime } from '../../test/invented-anime.js';

const md4 = (data: Buffer) => createHash('md4').update(data).digest('hex').toUpperCase();

describe('matching hashed files with AniDB', () => {
  let server: TestServer;
  let fake: FakeAniDBUdp;
  let key: string;
  let media: string;
  const known1 = randomBytes(40_000);
  const known2 = randomBytes(41_000);
  const unknown = randomBytes(42_000);
  const animeRequests: number[] = [];
  let restoreEnv: () => void;

  const api = (method: string, url: string, body?: unknown) => server.request({ method, url, key, body });
  const fileIds = async (query: string) =>
    (await api('GET', `/api/v3/File?pageSize=0&${query}`))
      .json()
      .List.map((f: { Size: number }) => f.Size)
      .sort();

  beforeAll(async () => {
    fake = await startFakeAniDBUdp({
      users: { tester: 'secret1' },
      commands: fileCommands([
        { size: known1.length, ed2k: md4(known1), fileId: 1, animeId: 70, episodeId: 700 },
        { size: known2.length, ed2k: md4(known2), fileId: 2, animeId: 80, episodeId: 800 },
      ]),
    });
    restoreEnv = setEnv({ SHOKO_ANIDB_UDP: `${fake.host}:${fake.port}` });
    const anime: Record<number, AnimeMetadata> = {
      70: inventedAnime(70, 'Kumo no Kanata', [700, 701]),
      80: inventedAnime(80, 'Kumo no Kanata II', [800, 801], [{ animeId: 70, type: 'Prequel' }]),
    };
    server = await createTestServer({
      services: {
        animeSource: {
          getAnime: async (id) => {
            animeRequests.push(id);
            if (!anime[id]) throw new Error(`unknown anime ${id}`);
            return anime[id];
          },
        },
      },
    });
    key = await completeFirstRunWithAniDB(server, { username: 'tester', password: 'secret1' });
    media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-match-'));
    fs.writeFileSync(path.join(media, 'Kumo 01.mkv'), known1);
    fs.writeFileSync(path.join(media, 'Kumo II 01.mkv'), known2);
    fs.writeFileSync(path.join(media, 'mystery.mkv'), unknown);
  });

  afterAll(async () => {
    await server.close();
    await fake.close();
    fs.rmSync(media, { recursive: true, force: true });
    restoreEnv();
  });

  it('identifies known files, creates series and groups, and leaves unknown ones unrecognized', async () => {
    const folder = (await api('POST', '/api/v3/ImportFolder', { Name: 'Anime', Path: media })).json();
    await api('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`);
    await server.services.queue.idle();

    expect(await fileIds('include_only=Unrecognized')).toEqual([unknown.length]);
    expect(await fileIds('exclude=Unrecognized')).toEqual([known1.length, known2.length]);
    const matched = (await api('GET', '/api/v3/File?pageSize=0&exclude=Unrecognized')).json().List;
    expect(matched.every((f: { Imported: string | null }) => f.Imported !== null)).toBe(true);

    const db = server.services.db.kysely;
    const series = await db.selectFrom('series').selectAll().orderBy('anime_id').execute();
    expect(series.map((s) => s.anime_id)).toEqual([70, 80]);
    // The sequel joined its prequel's group (AutoGroupSeries with relations).
    expect(series[1].group_id).toBe(series[0].group_id);
    expect(await db.selectFrom('episodes').select('anidb_episode_id').orderBy('anidb_episode_id').execute()).toEqual(
      [700, 701, 800, 801].map((anidb_episode_id) => ({ anidb_episode_id })),
    );
    expect(fake.received.filter((line) => line.startsWith('FILE ')).length).toBe(3);
  });

  it('does not ask AniDB again for content it already identified', async () => {
    const before = fake.received.filter((line) => line.startsWith('FILE ')).length;
    await server.services.importer.queueImport();
    await server.services.queue.idle();
    const file = (await api('GET', '/api/v3/File?pageSize=0&exclude=Unrecognized')).json().List[0];
    expect((await api('POST', `/api/v3/File/${file.ID}/Rehash`)).statusCode).toBe(200);
    await server.services.queue.idle();
    expect(fake.received.filter((line) => line.startsWith('FILE ')).length).toBe(before);
  });

  it('reports a ban and stops sending', async () => {
    fake.scenario.banned = true;
    const mystery = (await api('GET', '/api/v3/File?pageSize=0&include_only=Unrecognized')).json().List[0];
    expect((await api('POST', `/api/v3/File/${mystery.ID}/Rescan`)).statusCode).toBe(200);
    await server.services.queue.idle();
    expect(server.services.aggregateSources.anidbStates()[0].Value).toBe(true);
    const sent = fake.received.length;
    await api('POST', `/api/v3/File/${mystery.ID}/Rescan`);
    await server.services.queue.idle();
    expect(fake.received.length).toBe(sent);
    const lines = server.services.logs.backlog().map((e) => e.Message);
    expect(lines.some((line) => /banned/i.test(line))).toBe(true);
  });
});
