import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ShokoServer {
  baseUrl: string;
  home: string;
  /** An absolute URL on this server, e.g. `url('/webui/log')`. */
  url: (pathname: string) => string;
  /** Everything the server printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

interface FakeAniDB {
  port: number;
  close: () => Promise<void> | void;
}

export const ANIDB_USERS = { Default: 'secret' };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The loopback AniDB UDP fake from fakes/anidb-udp, when that workspace provides it. */
async function startFakeAniDB(): Promise<FakeAniDB | null> {
  const dir = path.join(repoRoot, 'fakes', 'src', 'anidb-udp');
  const entry = ['index.js', 'index.mjs', 'dist/index.js', 'index.ts', 'src/index.ts']
    .map((f) => path.join(dir, f))
    .find((f) => fs.existsSync(f));
  if (!entry) return null;
  const module = (await import(pathToFileURL(entry).href)) as {
    startFakeAniDBUdp: (o: { users: Record<string, string> }) => Promise<FakeAniDB>;
  };
  return module.startFakeAniDBUdp({ users: ANIDB_USERS });
}

async function waitUntilAnswering(baseUrl: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited with code ${child.exitCode}:\n${output()}`);
    try {
      // A process that took the port first may never answer: give up on it and look again.
      const response = await fetch(`${baseUrl}/api/v3/Init/Status`, { signal: AbortSignal.timeout(5_000) });
      if (response.ok && child.exitCode === null) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The server did not answer within 60 s:\n${output()}`);
}

/**
 * Starts the built server (server/dist/main.js) on a fresh data directory and a free port; with `basePath` it serves
 * under that prefix (SHOKO_BASE_PATH) and `baseUrl` includes it.
 */
export async function startShoko(options: { basePath?: string; env?: Record<string, string> } = {}): Promise<ShokoServer> {
  const main = path.join(repoRoot, 'server', 'dist', 'main.js');
  if (!fs.existsSync(main)) throw new Error('server/dist/main.js is missing: run `npm run build` first');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-e2e-'));
  const anidb = await startFakeAniDB();
  let log = '';
  const output = () => log.slice(-8000);
  let child: ChildProcess;
  let baseUrl: string;
  // The free port is released before the server binds it, so another process may take it in between: then the
  // server exits with EADDRINUSE and we try again on a new port.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    log = '';
    child = spawn(process.execPath, ['--openssl-legacy-provider', main], {
      cwd: repoRoot,
      env: {
        ...process.env,
        SHOKO_HOME: home,
        SHOKO_PORT: String(port),
        SHOKO_HOST: '127.0.0.1',
        // E2E_WEBUI_DIR: a console built elsewhere (a helper's own build), instead of web/dist.
        SHOKO_WEBUI_DIR: process.env.E2E_WEBUI_DIR ?? path.join(repoRoot, 'web', 'dist'),
        // Each test server would compile every route's schemas after its start; the suite's servers leave it to first requests.
        SHOKO_WARM_ROUTES: 'off',
        ...(anidb ? { SHOKO_ANIDB_UDP: `127.0.0.1:${anidb.port}` } : {}),
        ...(options.basePath ? { SHOKO_BASE_PATH: options.basePath } : {}),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => (log += chunk));
    child.stderr?.on('data', (chunk) => (log += chunk));
    baseUrl = `http://127.0.0.1:${port}${options.basePath ?? ''}`;
    try {
      await waitUntilAnswering(baseUrl, child, output);
      break;
    } catch (error) {
      child.kill('SIGKILL');
      if (attempt < 3 && log.includes('EADDRINUSE')) continue;
      await anidb?.close();
      throw error;
    }
  }
  return {
    baseUrl,
    home,
    url: (pathname) => `${baseUrl}${pathname}`,
    output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await anidb?.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

export const LOCAL_USER = { username: 'Default', password: 'hunter2' };

/** Takes a fresh server through the first run over HTTP: local account, start, wait until Started. */
export async function completeFirstRunViaApi(server: ShokoServer, user = LOCAL_USER) {
  const post = (pathname: string, body: unknown) =>
    fetch(server.url(pathname), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const created = await post('/api/v3/Init/DefaultUser', { Username: user.username, Password: user.password });
  if (!created.ok) throw new Error(`Init/DefaultUser answered ${created.status}: ${await created.text()}`);
  const started = await fetch(server.url('/api/v3/Init/StartServer'));
  if (!started.ok) throw new Error(`Init/StartServer answered ${started.status}: ${await started.text()}`);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const status = (await (await fetch(server.url('/api/v3/Init/Status'))).json()) as { State: string; StartupMessage: string | null };
    if (status.State === 'Started') return;
    if (status.State === 'Failed') throw new Error(`Server startup failed: ${status.StartupMessage}\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The server did not start within 60 s:\n${server.output()}`);
}

/** Logs the local user in over the API and answers the new API key. */
export async function loginViaApi(server: ShokoServer, user = LOCAL_USER): Promise<string> {
  const auth = await fetch(server.url('/api/auth'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: user.username, pass: user.password, device: 'e2e' }),
  });
  if (!auth.ok) throw new Error(`api/auth answered ${auth.status}: ${await auth.text()}`);
  return ((await auth.json()) as { apikey: string }).apikey;
}

/** Adds an import folder over the API and asks for its scan; answers the folder's id. */
export async function addImportFolderAndScan(
  server: ShokoServer,
  apikey: string,
  folder: { Name: string; Path: string; WatchForNewFiles?: boolean },
): Promise<number> {
  const created = await fetch(server.url('/api/v3/ImportFolder'), {
    method: 'POST',
    headers: { apikey, 'content-type': 'application/json' },
    body: JSON.stringify({ DropFolderType: 'Source', ...folder }),
  });
  if (!created.ok) throw new Error(`POST ImportFolder answered ${created.status}: ${await created.text()}`);
  const { ID } = (await created.json()) as { ID: number };
  const scan = await fetch(server.url(`/api/v3/ImportFolder/${ID}/Scan`), { headers: { apikey } });
  if (!scan.ok) throw new Error(`ImportFolder/${ID}/Scan answered ${scan.status}: ${await scan.text()}`);
  return ID;
}
