import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, processDatabase } from './server-process.js';

/**
 * The service files of deploy/, Dockerfile and compose.yaml, exercised as far as this machine allows (no systemd, no
 * Docker): the unit's ExecStart and the image's entrypoint run the built server with the environment the unit and the
 * compose file give it, with their paths moved to this checkout and a temporary data directory.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const read = (relative: string) => fs.readFileSync(path.join(repoRoot, relative), 'utf8');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

beforeAll(() => {
  // `npm test` builds first; a targeted run builds what is stale the same way.
  const build = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const lib = await import(${JSON.stringify(path.join(repoRoot, 'scripts', 'lib.mjs'))});
       lib.buildIfStale('packages/contract', ['packages/contract/src'], 'dist/index.js');
       lib.buildIfStale('server', ['server/src', 'packages/contract/src'], 'dist/main.js');`,
    ],
    { cwd: repoRoot, encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`Building the server failed:\n${build.stdout}\n${build.stderr}`);
}, 300_000);

/** Environment a test server needs besides what the service files set: no internet probes, a PATH. */
function baseEnv(): Record<string, string> {
  const keep = ['PATH', 'SHOKO_CONNECTIVITY_URLS', 'SHOKO_GITHUB_API_URL', 'SHOKO_PLEXTV_URL', 'SHOKO_TRAKT_URL'];
  return Object.fromEntries(keep.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]!]));
}

function tempHome(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-service-'));
  cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
  return home;
}

interface Started {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

function launch(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): Started {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, output: () => log, exited };
}

/** Polls /healthz until it answers 200, failing early when the process exits. */
async function healthy(started: Started, port: number): Promise<{ Status: string; ServerState: string; Database: { Kind: string } }> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (started.child.exitCode !== null)
      throw new Error(`The server exited (${started.child.exitCode}):\n${started.output().slice(-3000)}`);
    const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
    if (res?.status === 200) return (await res.json()) as { Status: string; ServerState: string; Database: { Kind: string } };
    if (Date.now() > deadline) throw new Error(`/healthz did not answer 200:\n${started.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** `[Service]` settings of a systemd unit; keys that repeat (Environment=) keep every value. */
function unitSection(text: string, section: string): Map<string, string[]> {
  const entries = new Map<string, string[]>();
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) current = header[1];
    else if (current === section) {
      const at = line.indexOf('=');
      const key = line.slice(0, at);
      entries.set(key, [...(entries.get(key) ?? []), line.slice(at + 1)]);
    }
  }
  return entries;
}

/** The `environment:` list of one compose service (this file writes it as `- NAME=value` lines). */
function composeEnvironment(text: string, service: string): Map<string, string> {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line === `  ${service}:`);
  expect(start, `service ${service} in compose.yaml`).toBeGreaterThanOrEqual(0);
  const env = new Map<string, string>();
  let inEnvironment = false;
  for (const line of lines.slice(start + 1)) {
    if (/^ {2}\S/.test(line) || /^\S/.test(line)) break; // the next service or top-level key
    if (/^ {4}\S/.test(line)) inEnvironment = line.trim() === 'environment:';
    else if (inEnvironment) {
      const item = /^ {6}- ([A-Z0-9_]+)=(.*)$/.exec(line);
      if (item) env.set(item[1], item[2]);
    }
  }
  return env;
}

/** Dockerfile instructions with line continuations joined. */
function dockerInstructions(text: string): Array<{ op: string; args: string; stage: number }> {
  const joined = text.replace(/\\\n/g, ' ');
  let stage = -1;
  const out: Array<{ op: string; args: string; stage: number }> = [];
  for (const line of joined.split('\n')) {
    const match = /^([A-Z]+)\s+(.*)$/.exec(line.trim());
    if (!match || line.trim().startsWith('#')) continue;
    if (match[1] === 'FROM') stage += 1;
    out.push({ op: match[1], args: match[2].trim(), stage });
  }
  return out;
}

describe('systemd unit (deploy/shoko-ts.service)', () => {
  it("runs its ExecStart with the unit's environment: /healthz answers, and SIGTERM stops it with exit code 0", async () => {
    const service = unitSection(read('deploy/shoko-ts.service'), 'Service');
    const home = tempHome();
    const port = await freePort();
    const moved = (value: string) => value.replaceAll('/opt/shoko-ts', repoRoot).replaceAll('/var/lib/shoko-ts', home);

    // The data directory is the one systemd creates (StateDirectory), and the stop timeout outlasts the server's own.
    expect(service.get('StateDirectory')).toEqual(['shoko-ts']);
    expect(Number(service.get('TimeoutStopSec')?.[0])).toBeGreaterThan(30);
    expect(service.get('KillSignal')).toEqual(['SIGTERM']);

    const env: Record<string, string> = { ...baseEnv() };
    for (const assignment of service.get('Environment') ?? []) {
      const at = assignment.indexOf('=');
      env[assignment.slice(0, at)] = moved(assignment.slice(at + 1));
    }
    expect(env.SHOKO_HOME).toBe(home);
    expect(env.SHOKO_PORT).toBe('8111');
    env.SHOKO_PORT = String(port);
    expect(fs.existsSync(env.SHOKO_WEBUI_DIR ? path.dirname(env.SHOKO_WEBUI_DIR) : '')).toBe(true);

    const [executable, ...args] = moved(service.get('ExecStart')![0]).split(/\s+/);
    expect(path.isAbsolute(executable)).toBe(true);
    expect(path.basename(executable)).toBe('node');
    for (const arg of args.filter((a) => a.startsWith('/'))) expect(fs.existsSync(arg), arg).toBe(true);
    const workingDirectory = moved(service.get('WorkingDirectory')![0]);
    expect(workingDirectory).toBe(repoRoot);

    const started = launch(fs.existsSync(executable) ? executable : process.execPath, args, { cwd: workingDirectory, env });
    const health = await healthy(started, port);
    expect(health).toMatchObject({ Status: 'Healthy', ServerState: 'Waiting' });
    expect(fs.existsSync(path.join(home, 'settings-server.json'))).toBe(true);

    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    expect(started.output()).toContain('Shut down cleanly');
  }, 180_000);
});

describe('Docker image (Dockerfile, compose.yaml, deploy/docker-entrypoint.sh)', () => {
  it('copies only files that exist into the image and builds what its runtime stage runs', () => {
    const instructions = dockerInstructions(read('Dockerfile'));
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const copies = instructions.filter((i) => i.op === 'COPY');
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies.filter((c) => !c.args.startsWith('--from'))) {
      const sources = copy.args.split(/\s+/).slice(0, -1);
      for (const source of sources) {
        expect(fs.existsSync(path.join(repoRoot, source)), `COPY ${source}`).toBe(true);
        expect(ignored, `COPY ${source} is not excluded by .dockerignore`).not.toContain(source);
      }
    }
    // npm ci needs every workspace's package.json: each stage that installs starts from the one that copies them.
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    const stages = instructions.filter((i) => i.op === 'FROM');
    for (const stage of new Set(instructions.filter((i) => i.op === 'RUN' && i.args.includes('npm ci')).map((i) => i.stage))) {
      const base = stages[stage].args.split(/\s+/)[0];
      const baseStage = stages.findIndex((from) => from.args.endsWith(` AS ${base}`));
      const copied = copies.filter((c) => c.stage === stage || c.stage === baseStage).map((c) => c.args);
      for (const workspace of workspaces)
        expect(copied, `${workspace}/package.json in stage ${stage}`).toContain(`${workspace}/package.json ${workspace}/`);
      expect(copied.some((c) => c.startsWith('package.json package-lock.json'))).toBe(true);
    }
    // What the runtime stage takes from the build stage is what the workspaces build.
    const server = JSON.parse(read('server/package.json')) as { main: string };
    expect(server.main).toBe('dist/main.js');
    const fromBuild = copies.filter((c) => c.args.startsWith('--from=build')).map((c) => c.args.split(/\s+/)[1]);
    expect(fromBuild).toEqual(
      expect.arrayContaining(['/app/server/dist', '/app/web/dist', '/app/packages/contract/dist', '/app/package.json']),
    );
    const entrypoint = read('deploy/docker-entrypoint.sh');
    expect(entrypoint).toContain('server/dist/main.js');
    expect(entrypoint.startsWith('#!/bin/sh\n')).toBe(true);
    expect(fs.statSync(path.join(repoRoot, 'deploy/docker-entrypoint.sh')).mode & 0o111).not.toBe(0);

    const copiedEntrypoint = copies.find((c) => c.args.startsWith('deploy/docker-entrypoint.sh'))!.args.split(/\s+/)[1];
    const entry = instructions.find((i) => i.op === 'ENTRYPOINT')!;
    expect(JSON.parse(entry.args)).toEqual([copiedEntrypoint]);
    expect(instructions.find((i) => i.op === 'HEALTHCHECK')!.args).toContain('/healthz');
    expect(instructions.find((i) => i.op === 'STOPSIGNAL')!.args).toBe('SIGTERM');

    const compose = read('compose.yaml');
    expect(compose).toMatch(/healthcheck:\n\s+test: \[.*\/healthz/);
    expect(compose).toContain('condition: service_healthy');
  });

  it('starts the server through the entrypoint with the environment compose gives it; SIGTERM reaches the server', async () => {
    const compose = read('compose.yaml');
    const server = composeEnvironment(compose, 'shoko-ts');
    const db = composeEnvironment(compose, 'db');
    const home = tempHome();
    const port = await freePort();
    // The image's ENV, then compose's environment, with the image's paths moved to this checkout.
    const imageEnv = Object.fromEntries(
      dockerInstructions(read('Dockerfile'))
        .filter((i, _, all) => i.op === 'ENV' && i.stage === Math.max(...all.map((d) => d.stage)))
        .flatMap((i) => i.args.split(/\s+/))
        .map((pair) => pair.split('=') as [string, string]),
    );
    const moved = (value: string) => value.replace(/^\/app(?=\/|$)/, repoRoot).replace(/^\/data$/, home);
    const env: Record<string, string> = { ...baseEnv() };
    for (const [name, value] of [...Object.entries(imageEnv), ...server.entries()]) env[name] = moved(value);
    expect(env.SHOKO_HOME).toBe(home);
    expect(env.SHOKO_APP_DIR).toBe(repoRoot);
    env.SHOKO_PORT = String(port);

    // compose's database URL names the db service's user and database; here it is a test database instead.
    expect(server.get('SHOKO_DB')).toMatch(
      new RegExp(`^postgres://${db.get('POSTGRES_USER')}:\\$\\{POSTGRES_PASSWORD[^}]*\\}@db:5432/${db.get('POSTGRES_DB')}$`),
    );
    const database = await processDatabase();
    cleanups.push(() => database.drop());
    if (database.url) env.SHOKO_DB = database.url;
    else delete env.SHOKO_DB; // the SQLite run: the image without PostgreSQL

    const started = launch('/bin/sh', [path.join(repoRoot, 'deploy', 'docker-entrypoint.sh')], { cwd: os.tmpdir(), env });
    const health = await healthy(started, port);
    expect(health).toMatchObject({ Status: 'Healthy', Database: { Kind: database.url ? 'PostgreSQL' : 'SQLite' } });
    expect(fs.existsSync(path.join(home, 'settings-server.json'))).toBe(true);

    // exec: the shell is gone, the server got the signal itself and shut down cleanly.
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    expect(started.output()).toContain('Shut down cleanly');
  }, 180_000);

  it('gives up with a clear message when the database of SHOKO_DB never answers', async () => {
    const closedPort = await freePort();
    const started = launch('/bin/sh', [path.join(repoRoot, 'deploy', 'docker-entrypoint.sh')], {
      cwd: os.tmpdir(),
      env: {
        ...baseEnv(),
        SHOKO_APP_DIR: repoRoot,
        SHOKO_HOME: tempHome(),
        SHOKO_DB: `postgres://shoko:secret@127.0.0.1:${closedPort}/shoko`,
        SHOKO_DB_WAIT_SECONDS: '1',
      },
    });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('PostgreSQL (SHOKO_DB) does not accept connections');
  }, 60_000);
});
