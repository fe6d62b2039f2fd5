import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectPg } from './pg-admin.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** A fresh database for a server process: a new PostgreSQL database when SHOKO_TEST_DB is set, else SQLite in the home. */
export async function processDatabase(): Promise<{ url: string | null; drop(): Promise<void> }> {
  const base = process.env.SHOKO_TEST_DB;
  if (!base) return { url: null, drop: async () => undefined };
  const name = `shoko_proc_${randomBytes(6).toString('hex')}`;
  const admin = await connectPg(base);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = await connectPg(base);
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** The real server (from source, through tsx) as a child process, so a test can SIGKILL it. */
export class ServerProcess {
  private child: ChildProcess | null = null;
  private log = '';
  private port: number;

  constructor(private readonly options: { home: string; port: number; databaseUrl: string | null }) {
    this.port = options.port;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /**
   * Starts the process on its port. A free port is released before the server binds it, so another process may take
   * it in between: the server then exits with EADDRINUSE and starts again on a new free port.
   */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const logStart = this.log.length;
      try {
        await this.spawnOnce();
        return;
      } catch (error) {
        if (attempt >= 3 || !this.log.slice(logStart).includes('EADDRINUSE')) throw error;
        this.port = await freePort();
      }
    }
  }

  private async spawnOnce(): Promise<void> {
    this.child = spawn(process.execPath, ['--openssl-legacy-provider', '--import', 'tsx', path.join(serverDir, 'src', 'main.ts')], {
      cwd: serverDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        SHOKO_HOME: this.options.home,
        SHOKO_PORT: String(this.port),
        SHOKO_HOST: '127.0.0.1',
        SHOKO_DB: this.options.databaseUrl ?? '',
        SHOKO_WEBUI_DIR: '',
        // Each test server would compile every route's schemas after its start; the suite's servers leave it to first requests.
        SHOKO_WARM_ROUTES: 'off',
      },
    });
    this.child.stdout?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => (this.log += chunk.toString()));
    await this.waitFor(
      'the server to answer',
      async () =>
        (await fetch(`${this.baseUrl}/api/v3/Init/Status`, { signal: AbortSignal.timeout(5_000) }).catch(() => null))?.ok ?? false,
      60_000,
    );
  }

  output(): string {
    return this.log;
  }

  /** SIGKILL: no shutdown code runs, exactly like a power cut for the process. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  /** Sends a signal (SIGTERM, as systemd and Docker do) and resolves with the exit code once the process is gone. */
  async terminate(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    const code = await exited;
    this.child = null;
    return code;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
    this.child = null;
  }

  fetch(method: string, url: string, options: { key?: string; body?: unknown } = {}): Promise<Response> {
    return fetch(`${this.baseUrl}${url}`, {
      method,
      headers: {
        ...(options.key ? { apikey: options.key } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
  }

  async json<T>(method: string, url: string, options: { key?: string; body?: unknown } = {}): Promise<T> {
    const res = await this.fetch(method, url, options);
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (this.child && this.child.exitCode !== null)
        throw new Error(`The server exited while waiting for ${what}:\n${this.log.slice(-3000)}`);
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}:\n${this.log.slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** First run over HTTP: the admin account, start, wait until Started; returns the admin's key. */
  async completeFirstRun(): Promise<string> {
    await this.json('POST', '/api/v3/Init/DefaultUser', { body: { Username: 'Default', Password: 'crash-pass' } });
    await this.json('GET', '/api/v3/Init/StartServer');
    await this.waitForStarted();
    return this.login();
  }

  async waitForStarted(): Promise<void> {
    await this.waitFor(
      'the server to start',
      async () => (await this.json<{ State: string }>('GET', '/api/v3/Init/Status')).State === 'Started',
      60_000,
    );
  }

  async login(): Promise<string> {
    return (
      await this.json<{ apikey: string }>('POST', '/api/auth', { body: { user: 'Default', pass: 'crash-pass', device: 'crash-test' } })
    ).apikey;
  }
}

/** A server process on a fresh home and database with its first run done; `cleanups` gets what kills and removes it. */
export async function startFreshServer(cleanups: Array<() => Promise<void> | void>, prefix: string) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const database = await processDatabase();
  const server = new ServerProcess({ home, port: await freePort(), databaseUrl: database.url });
  cleanups.push(
    () => fs.rmSync(home, { recursive: true, force: true }),
    () => database.drop(),
    () => server.kill(),
  );
  await server.start();
  const key = await server.completeFirstRun();
  return { server, home, key, databaseUrl: database.url };
}
