import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileCommands, startFakeAniDBUdp, type FakeAniDBUdp } from '../../../../fakes/src/anidb-udp/index.js';
import { completeFirstRunWithAniDB, createTestServer, createUser, setEnv, type TestServer } from '../../test/harness.js';
import { inventedAnime } from '../../test/invented-anime.js';

const md4 = (data: Buffer) => createHash('md4').update(data).digest('hex').toUpperCase();

/** Import.UseExistingFileWatchedStatus: a new file of an episode someone watched arrives watched for them. */
describe('a new file takes the watched state of the episode’s other files', () => {
  let server: TestServer;
  let fake: FakeAniDBUdp;
  let key: string;
  let otherKey: string;
  let media: string;
  let folderId: number;
  let restoreEnv: () => void;
  // Four releases: three of episode 700, one of episode 701.
  const [watchedCopy, secondCopy, otherEpisode, laterCopy] = [50_000, 51_000, 52_000, 53_000].map((n) => randomBytes(n));

  const api = (method: string, url: string, body?: unknown, as = key) => server.request({ method, url, key: as, body });
  const scan = async () => {
    await api('GET', `/api/v3/ImportFolder/${folderId}/Scan`);
    await server.services.queue.idle();
  };
  const fileOfSize = async (size: number, as = key) => {
    const list = (await api('GET', '/api/v3/File?pageSize=0', undefined, as)).json().List as Array<{ ID: number; Size: number }>;
    const id = list.find((f) => f.Size === size)!.ID;
    return (await api('GET', `/api/v3/File/${id}`, undefined, as)).json() as {
      ID: number;
      Watched: string | null;
      Imported: string | null;
    };
  };

  beforeAll(async () => {
    fake = await startFakeAniDBUdp({
      users: { tester: 'secret1' },
      commands: fileCommands(
        [watchedCopy, secondCopy, otherEpisode, laterCopy].map((data, i) => ({
          size: data.length,
          ed2k: md4(data),
          fileId: i + 1,
          animeId: 70,
          episodeId: data === otherEpisode ? 701 : 700,
        })),
      ),
    });
    restoreEnv = setEnv({ SHOKO_ANIDB_UDP: `${fake.host}:${fake.port}` });
    server = await createTestServer({
      services: { animeSource: { getAnime: async () => inventedAnime(70, 'Kumo no Kanata', [700, 701]) } },
    });
    key = await completeFirstRunWithAniDB(server, { username: 'tester', password: 'secret1' });
    otherKey = (await createUser(server, key, 'viewer', 'viewer-pass')).key;
    media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-watched-'));
    fs.writeFileSync(path.join(media, 'Kumo 01 [A].mkv'), watchedCopy);
    folderId = (await api('POST', '/api/v3/ImportFolder', { Name: 'Anime', Path: media })).json().ID;
    await scan();
  });

  afterAll(async () => {
    await server.close();
    await fake.close();
    fs.rmSync(media, { recursive: true, force: true });
    restoreEnv();
  });

  it('copies the watcher’s record to a new file of the same episode only', async () => {
    const first = await fileOfSize(watchedCopy.length);
    expect(first.Imported).not.toBeNull();
    expect((await api('POST', `/api/v3/File/${first.ID}/Watched/true`)).statusCode).toBe(200);
    const watchedAt = (await fileOfSize(watchedCopy.length)).Watched;
    expect(watchedAt).not.toBeNull();

    fs.writeFileSync(path.join(media, 'Kumo 01 [B].mkv'), secondCopy);
    fs.writeFileSync(path.join(media, 'Kumo 02 [A].mkv'), otherEpisode);
    await scan();
    const second = await fileOfSize(secondCopy.length);
    expect(second.Imported).not.toBeNull();
    expect(second.Watched).toBe(watchedAt);
    expect((await fileOfSize(otherEpisode.length)).Watched).toBeNull();
    // Another user who watched nothing gets nothing.
    expect((await fileOfSize(secondCopy.length, otherKey)).Watched).toBeNull();
  });

  it('leaves new files unwatched when the setting is off', async () => {
    const res = await api('PATCH', '/api/v3/Settings', [{ op: 'replace', path: '/Import/UseExistingFileWatchedStatus', value: false }]);
    expect(res.statusCode).toBe(200);
    fs.writeFileSync(path.join(media, 'Kumo 01 [C].mkv'), laterCopy);
    await scan();
    const later = await fileOfSize(laterCopy.length);
    expect(later.Imported).not.toBeNull();
    expect(later.Watched).toBeNull();
  });
});
