// The offline demo: the server against loopback AniDB fakes and an invented library, set up and importing by itself.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAniDBHttp, type FakeAniDBHttp } from '../anidb-http/index.js';
import { anidbStrictRules, fileCommands, startFakeAniDBUdp, type FakeAniDBUdp } from '../anidb-udp/index.js';
import { startFakeAniDBTitles, type FakeAniDBTitles } from '../anidb-titles/index.js';
import { startFakeAniDBImages } from '../anidb-images/index.js';
import { writeDemoLibrary } from './library.js';
import { addPlayableEpisodes } from './playable-episodes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const DEMO_ADMIN = { Username: 'Default', Password: '' };
const ANIDB_USER = { username: 'kiri-tester', password: 'fog-and-letters' };
/**
 * The demo's AniDB keeps AniDB's rules, 20 times faster: it bans a client that sends too fast or asks for an anime
 * twice a day, and the server paces itself by the same scale (SHOKO_ANIDB_LOOPBACK_PACING).
 */
const ANIDB_TIME_SCALE = 0.05;

export interface DemoOptions {
  /** The demo's folder: the server's data folder (SHOKO_HOME) is `data/` in it, the library `library/`. */
  home: string;
  port: number;
  /** 'inherit' (default) shows the server's log here; 'pipe' keeps it in `output()`. */
  stdio?: 'inherit' | 'pipe';
  /** Serve under this prefix (SHOKO_BASE_PATH, e.g. '/shoko'); `baseUrl` then includes it. */
  basePath?: string;
  /** Also write the playable episodes made with ffmpeg (skipped without ffmpeg); `npm run demo` turns this on. */
  playableMedia?: boolean;
}

export interface RunningDemo {
  baseUrl: string;
  home: string;
  library: string;
  /** True when the ffmpeg-made playable episodes are part of the library. */
  playableMedia: boolean;
  /** The admin's API key. */
  apiKey: string;
  /** Seconds from the server's start until the collection was imported. */
  importSeconds: number;
  udp: FakeAniDBUdp;
  anidbHttp: FakeAniDBHttp;
  titles: FakeAniDBTitles;
  server: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(250);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the fakes and the built server (server/dist), finishes the first run if needed and waits for the import and its queue. */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const home = path.resolve(options.home);
  let port = options.port;
  let baseUrl = `http://127.0.0.1:${port}${options.basePath ?? ''}`;
  // The server refuses an import folder inside its own data folder, so the two sit side by side.
  const library = path.join(home, 'library');
  const dataDirectory = path.join(home, 'data');
  fs.mkdirSync(library, { recursive: true });
  const demo = await writeDemoLibrary(library);
  const playableMedia = options.playableMedia ? await addPlayableEpisodes(library, demo) : false;
  const udp = await startFakeAniDBUdp({
    users: { [ANIDB_USER.username]: ANIDB_USER.password },
    commands: fileCommands(demo.files, demo.groups),
    strict: anidbStrictRules('udp', ANIDB_TIME_SCALE),
  });
  const anidbHttp = await startFakeAniDBHttp({ anime: demo.anime, strict: anidbStrictRules('http', ANIDB_TIME_SCALE) });
  const titles = await startFakeAniDBTitles({ anime: demo.titles });
  const pictures = await startFakeAniDBImages();

  const call = async (method: string, url: string, init: { key?: string; body?: unknown; timeoutMs?: number } = {}) =>
    fetch(`${baseUrl}${url}`, {
      method,
      signal: init.timeoutMs ? AbortSignal.timeout(init.timeoutMs) : undefined,
      headers: { ...(init.key ? { apikey: init.key } : {}), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
  const must = async (method: string, url: string, init: { key?: string; body?: unknown } = {}) => {
    const res = await call(method, url, init);
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res;
  };
  const state = async () => {
    try {
      const res = await call('GET', '/api/v3/Init/Status', { timeoutMs: 5_000 });
      return res.ok ? ((await res.json()) as { State: string }).State : null;
    } catch {
      return null;
    }
  };
  const login = async () =>
    (
      (await (
        await must('POST', '/api/auth', { body: { user: DEMO_ADMIN.Username, pass: DEMO_ADMIN.Password, device: 'demo' } })
      ).json()) as { apikey: string }
    ).apikey;

  let output = '';
  const started = Date.now();
  const spawnServer = () => {
    const child = spawn(process.execPath, ['--openssl-legacy-provider', path.join(root, 'server', 'dist', 'main.js')], {
      stdio: options.stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: {
        ...process.env,
        SHOKO_HOME: dataDirectory,
        SHOKO_PORT: String(port),
        SHOKO_HOST: '127.0.0.1',
        SHOKO_WEBUI_DIR: process.env.SHOKO_WEBUI_DIR ?? path.join(root, 'web', 'dist'),
        SHOKO_ANIDB_UDP: `${udp.host}:${udp.port}`,
        SHOKO_ANIDB_HTTP: anidbHttp.url,
        SHOKO_ANIDB_LOOPBACK_PACING: String(ANIDB_TIME_SCALE),
        SHOKO_ANIDB_TITLES_URL: titles.url,
        SHOKO_ANIDB_IMAGE_URL: pictures.url,
        ...(options.basePath ? { SHOKO_BASE_PATH: options.basePath } : {}),
      },
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return child;
  };
  let server = spawnServer();
  /** The server's state once it answers, or 'Exited' if it stopped before. */
  const answered = () =>
    waitFor(
      'the server to answer',
      async () => {
        const answer = server.exitCode === null ? await state() : null;
        return server.exitCode !== null ? 'Exited' : answer;
      },
      60_000,
    );
  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      if (server.exitCode === null && server.signalCode === null) {
        server.kill('SIGINT');
        await new Promise((resolve) => server.once('exit', resolve));
      }
      await udp.close();
      await anidbHttp.close();
      await titles.close();
      await pictures.close();
    })());

  try {
    let initial = await answered();
    // The port was free when chosen, but another process may have bound it before the server did: take another one.
    for (let attempt = 1; initial === 'Exited' && attempt < 3 && output.includes('EADDRINUSE'); attempt++) {
      port = await freePort();
      baseUrl = `http://127.0.0.1:${port}${options.basePath ?? ''}`;
      server = spawnServer();
      initial = await answered();
    }
    if (initial === 'Exited') throw new Error(`The server exited (${server.exitCode})`);
    let apiKey: string;
    if (initial === 'Waiting') {
      await must('PATCH', '/api/v3/Settings?skipValidation=true', {
        body: [
          { op: 'replace', path: '/AniDb/Username', value: ANIDB_USER.username },
          { op: 'replace', path: '/AniDb/Password', value: ANIDB_USER.password },
          { op: 'replace', path: '/AutoGroupSeries', value: true },
        ],
      });
      await must('POST', '/api/v3/Init/DefaultUser', { body: DEMO_ADMIN });
      await must('GET', '/api/v3/Init/StartServer');
      await waitFor('the server to start', async () => (await state()) === 'Started', 60_000);
      apiKey = await login();
      const folder = (await (
        await must('POST', '/api/v3/ImportFolder', {
          key: apiKey,
          body: { Name: 'Demo Library', Path: library, DropFolderType: 'Source', WatchForNewFiles: true },
        })
      ).json()) as { ID: number };
      await must('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`, { key: apiKey });
    } else {
      await waitFor('the server to start', async () => (await state()) === 'Started', 60_000);
      apiKey = await login();
    }

    const expectedSeries = new Set(demo.files.map((f) => f.animeId)).size;
    await waitFor(
      'the demo collection to be imported',
      async () => {
        const res = await call('GET', '/api/v3/File?pageSize=0&exclude=Unrecognized&include=XRefs', { key: apiKey });
        if (!res.ok) return false;
        const files = ((await res.json()) as { List: Array<{ SeriesIDs?: Array<{ SeriesID: { ID: number | null } }> }> }).List;
        const series = new Set(files.flatMap((f) => (f.SeriesIDs ?? []).map((x) => x.SeriesID.ID)).filter((id) => id !== null));
        return files.length >= demo.files.length && series.size >= expectedSeries;
      },
      120_000,
    );
    // And for what the import queued after the links (pictures, media info): a page opened at once shows the posters
    // instead of asking for ones not downloaded yet.
    await waitFor(
      'the queue to be empty',
      async () => {
        const res = await call('GET', '/api/v3/Queue', { key: apiKey });
        return res.ok && ((await res.json()) as { TotalCount: number }).TotalCount === 0;
      },
      120_000,
    );
    return {
      baseUrl,
      home,
      library,
      playableMedia,
      apiKey,
      importSeconds: (Date.now() - started) / 1000,
      udp,
      anidbHttp,
      titles,
      server,
      output: () => output,
      stop,
    };
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output}`);
  }
}
