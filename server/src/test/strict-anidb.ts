import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inventedEpisodeId, startFakeAniDBHttp, type FakeAniDBHttp } from '../../../fakes/src/anidb-http/index.js';
import { startFakeAniDBImages, type FakeAniDBImages } from '../../../fakes/src/anidb-images/index.js';
import {
  anidbStrictRules,
  fileCommands,
  startFakeAniDBUdp,
  type FakeAniDBFile,
  type FakeAniDBUdp,
} from '../../../fakes/src/anidb-udp/index.js';
import { setEnv } from './harness.js';
import { startFreshServer, type ServerProcess } from './server-process.js';

/** One media file of the collection: random bytes of `size`, an episode of `animeId` that AniDB knows. */
export interface StrictMediaFile {
  name: string;
  size: number;
  animeId: number;
  episode: number;
}

export interface StrictAniDBSetup {
  server: ServerProcess;
  key: string;
  udp: FakeAniDBUdp;
  anidbHttp: FakeAniDBHttp;
  /** AniDB's image server, as strict as the API (an unreachable one would hold the pictures in the queue, backing off). */
  images: FakeAniDBImages;
  /** The import folder, scanned once. */
  folderId: number;
}

const md4 = (data: Buffer) => createHash('md4').update(data).digest('hex').toUpperCase();

/**
 * A real server process against the strict AniDB fakes (AniDB's time rules scaled by `scale` for both sides), with
 * the AniDB login `tester`/`secret1` (and `settings`) saved and a folder of `files` added and scanned. `banSeconds` shortens how long
 * the server waits out a ban, `fakeBanMs` how long the fakes ban. `cleanups` gets what stops and removes everything.
 */
export async function startServerWithStrictAniDB(
  cleanups: Array<() => Promise<void> | void>,
  options: {
    prefix: string;
    scale: number;
    files: StrictMediaFile[];
    anime: Record<number, string>;
    banSeconds?: number;
    fakeBanMs?: number;
    /** Saved with the login: settings JSON-patch path → value. */
    settings?: Record<string, unknown>;
  },
): Promise<StrictAniDBSetup> {
  const media = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `${options.prefix}media-`)));
  cleanups.push(() => fs.rmSync(media, { recursive: true, force: true }));
  const known: FakeAniDBFile[] = options.files.map((file, index) => {
    const data = randomBytes(file.size);
    fs.writeFileSync(path.join(media, file.name), data);
    const episodeId = inventedEpisodeId(file.animeId, String(file.episode));
    return { size: data.length, ed2k: md4(data), fileId: 500_000 + index, animeId: file.animeId, episodeId };
  });
  const udp = await startFakeAniDBUdp({
    users: { tester: 'secret1' },
    commands: fileCommands(known),
    strict: anidbStrictRules('udp', options.scale, options.fakeBanMs),
  });
  cleanups.push(udp.close);
  const anidbHttp = await startFakeAniDBHttp({ anime: options.anime, strict: anidbStrictRules('http', options.scale, options.fakeBanMs) });
  cleanups.push(anidbHttp.close);
  const images = await startFakeAniDBImages({ strict: anidbStrictRules('images', options.scale, options.fakeBanMs) });
  cleanups.push(images.close);
  cleanups.push(
    setEnv({
      SHOKO_ANIDB_UDP: `${udp.host}:${udp.port}`,
      SHOKO_ANIDB_HTTP: anidbHttp.url,
      SHOKO_ANIDB_LOOPBACK_PACING: String(options.scale),
      ...(options.banSeconds ? { SHOKO_ANIDB_LOOPBACK_BAN_SECONDS: String(options.banSeconds) } : {}),
      SHOKO_ANIDB_TITLES_URL: 'http://127.0.0.1:9/anime-titles.xml.gz',
      SHOKO_ANIDB_IMAGE_URL: images.url,
    }),
  );
  const { server, key } = await startFreshServer(cleanups, options.prefix);
  await server.json('PATCH', '/api/v3/Settings', {
    key,
    body: [
      { op: 'replace', path: '/AniDb/Username', value: 'tester' },
      { op: 'replace', path: '/AniDb/Password', value: 'secret1' },
      ...Object.entries(options.settings ?? {}).map(([path, value]) => ({ op: 'replace', path, value })),
    ],
  });
  const folder = await server.json<{ ID: number }>('POST', '/api/v3/ImportFolder', {
    key,
    body: { Name: 'Strict', Path: media, DropFolderType: 'Source', WatchForNewFiles: false },
  });
  await server.json('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`, { key });
  return { server, key, udp, anidbHttp, images, folderId: folder.ID };
}

/** Files AniDB identified, and whether the queue has nothing left. */
export async function importProgress(server: ServerProcess, key: string): Promise<{ recognized: number; queueEmpty: boolean }> {
  const files = await server.json<{ Total: number }>('GET', '/api/v3/File?pageSize=1&exclude=Unrecognized', { key });
  const queue = await server.json<{ TotalCount: number }>('GET', '/api/v3/Queue', { key });
  return { recognized: files.Total, queueEmpty: queue.TotalCount === 0 };
}
