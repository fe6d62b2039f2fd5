// `npm run demo`: the server against loopback AniDB fakes and an invented library, set up and importing by itself.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAniDBHttp } from '../anidb-http/index.js';
import { fileCommands, startFakeAniDBUdp } from '../anidb-udp/index.js';
import { writeDemoLibrary } from './library.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const home = path.resolve(process.env.SHOKO_HOME ?? path.join(root, 'demo-data'));
const port = Number(process.env.SHOKO_PORT ?? 8111);
const base = `http://127.0.0.1:${port}`;
const ADMIN = { Username: 'Default', Password: '' };
const ANIDB_USER = { username: 'kiri-tester', password: 'fog-and-letters' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(method: string, url: string, options: { key?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${base}${url}`, {
    method,
    headers: { ...(options.key ? { apikey: options.key } : {}), ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
}

async function must(method: string, url: string, options: { key?: string; body?: unknown } = {}): Promise<Response> {
  const res = await call(method, url, options);
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res;
}

async function status(): Promise<{ State: string } | null> {
  try {
    const res = await call('GET', '/api/v3/Init/Status');
    return res.ok ? ((await res.json()) as { State: string }) : null;
  } catch {
    return null;
  }
}

async function waitFor<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(250);
  }
}

async function firstRun(library: string): Promise<string> {
  await must('PATCH', '/api/v3/Settings?skipValidation=true', {
    body: [
      { op: 'replace', path: '/AniDb/Username', value: ANIDB_USER.username },
      { op: 'replace', path: '/AniDb/Password', value: ANIDB_USER.password },
      // The fakes are on loopback: no need for AniDB's real pacing.
      { op: 'replace', path: '/AniDb/HTTPRateLimit/BaseRateInSeconds', value: 0 },
      { op: 'replace', path: '/AniDb/UDPRateLimit/BaseRateInSeconds', value: 0 },
      { op: 'replace', path: '/AutoGroupSeries', value: true },
    ],
  });
  await must('POST', '/api/v3/Init/DefaultUser', { body: ADMIN });
  await must('GET', '/api/v3/Init/StartServer');
  await waitFor('the server to start', async () => (await status())?.State === 'Started');
  const key = await login();
  const folder = (await (await must('POST', '/api/v3/ImportFolder', { key, body: { Name: 'Demo Library', Path: library, DropFolderType: 'Source', WatchForNewFiles: true } })).json()) as { ID: number };
  await must('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`, { key });
  return key;
}

async function login(): Promise<string> {
  const res = await must('POST', '/api/auth', { body: { user: ADMIN.Username, pass: ADMIN.Password, device: 'demo' } });
  return ((await res.json()) as { apikey: string }).apikey;
}

async function main() {
  const library = path.join(home, 'library');
  fs.mkdirSync(library, { recursive: true });
  const demo = writeDemoLibrary(library);
  const udp = await startFakeAniDBUdp({ users: { [ANIDB_USER.username]: ANIDB_USER.password }, commands: fileCommands(demo.files) });
  const anidbHttp = await startFakeAniDBHttp({ anime: demo.anime });

  const started = Date.now();
  const server = spawn(process.execPath, ['--openssl-legacy-provider', path.join(root, 'server', 'dist', 'main.js')], {
    stdio: 'inherit',
    env: {
      ...process.env,
      SHOKO_HOME: home,
      SHOKO_PORT: String(port),
      SHOKO_WEBUI_DIR: process.env.SHOKO_WEBUI_DIR ?? path.join(root, 'web', 'dist'),
      SHOKO_ANIDB_UDP: `${udp.host}:${udp.port}`,
      SHOKO_ANIDB_HTTP: anidbHttp.url,
    },
  });
  const stop = async (code: number) => {
    server.kill('SIGINT');
    await new Promise((resolve) => server.once('exit', resolve));
    await udp.close();
    await anidbHttp.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  server.on('exit', (code) => {
    void udp.close();
    void anidbHttp.close();
    process.exit(code ?? 1);
  });

  const initial = await waitFor('the server to answer', status);
  const key = initial.State === 'Waiting' ? await firstRun(library) : await waitFor('the server to start', async () => (await status())?.State === 'Started').then(login);

  const expectedSeries = Object.keys(demo.anime).length;
  await waitFor(
    'the demo collection',
    async () => {
      const res = await call('GET', '/api/v3/File?pageSize=0&exclude=Unrecognized', { key });
      if (!res.ok) return false;
      const matched = ((await res.json()) as { Total: number }).Total;
      return matched >= demo.files.length && (await seriesCount()) >= expectedSeries;
    },
    180_000,
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    [
      '',
      `  shoko-ts demo is ready (collection imported ${seconds} s after start): ${base}/webui`,
      `  Log in as "${ADMIN.Username}" with an empty password.`,
      `  Data: ${home} — library: ${library}. Ctrl-C stops the server and the fakes.`,
      '',
    ].join('\n'),
  );

  async function seriesCount(): Promise<number> {
    // Counted through the collection once its API exists; until then, through the files' series links.
    const res = await call('GET', '/api/v3/File?pageSize=0&include=XRefs', { key });
    if (!res.ok) return 0;
    const list = ((await res.json()) as { List: Array<{ SeriesIDs?: Array<{ SeriesID?: { ID: number } }> }> }).List;
    return new Set(list.flatMap((f) => (f.SeriesIDs ?? []).map((x) => x.SeriesID?.ID)).filter(Boolean)).size;
  }
}

main().catch((error) => {
  console.error(`Demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
