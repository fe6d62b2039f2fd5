// Shared helpers for the repository scripts (install, build, processes).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options, env: { ...process.env, ...options.env } });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

export function mustRun(command, args, options = {}) {
  const status = run(command, args, options);
  if (status !== 0) {
    console.error(`\n✖ ${command} ${args.join(' ')} failed (exit ${status})`);
    process.exit(status);
  }
}

function newestMtime(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return newest;
  if (!fs.statSync(dir).isDirectory()) return fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Installs dependencies when node_modules is missing or older than the lock file. */
export function ensureInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  const stale = !fs.existsSync(marker) || (fs.existsSync(lock) && fs.statSync(lock).mtimeMs > fs.statSync(marker).mtimeMs);
  if (!stale) return;
  console.log('Installing dependencies (first run compiles better-sqlite3, about a minute)…');
  mustRun('npm', [fs.existsSync(lock) ? 'ci' : 'install', '--no-audit', '--no-fund'], {
    // JOBS: node-gyp compiles better-sqlite3's two sources (SQLite's amalgamation and the binding) side by side.
    env: { PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', JOBS: 'max' },
  });
}

/** Is a program on the PATH (it answers `-version`)? */
export const hasProgram = (program) => spawnSync(program, ['-version'], { stdio: 'ignore' }).status === 0;

/**
 * ffmpeg (Debian's, like chromium) for the console's player: installed where we are root and it is missing;
 * elsewhere the server runs without it (direct play only) and this says so. Answers whether it is there.
 */
export function ensureFfmpeg() {
  if (hasProgram('ffmpeg') && hasProgram('ffprobe')) return true;
  if (process.getuid?.() !== 0) {
    console.warn('ffmpeg is not installed: files the browser cannot decode will not play (as root: apt-get install -y ffmpeg).');
    return false;
  }
  console.log('Installing Debian package ffmpeg…');
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  if (
    run('apt-get', ['update', '-qq'], { env }) !== 0 ||
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'ffmpeg'], { env }) !== 0
  ) {
    console.warn('Installing ffmpeg failed: continuing without it.');
    return false;
  }
  return hasProgram('ffmpeg');
}

/** Whether a workspace's sources are newer than its last build (or it was never built). */
export function isBuildStale(workspace, sourceDirs, outputMarker) {
  const marker = path.join(root, workspace, outputMarker);
  const builtAt = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
  const changedAt = Math.max(...sourceDirs.map((d) => newestMtime(path.join(root, d))));
  return builtAt < changedAt;
}

/** Builds a workspace when its sources are newer than its last build. */
export function buildIfStale(workspace, sourceDirs, outputMarker) {
  if (!isBuildStale(workspace, sourceDirs, outputMarker)) return;
  console.log(`Building ${workspace}…`);
  mustRun('npm', ['run', 'build', '-w', workspace]);
}

export const WEB_BUILD = ['web', ['web/src', 'web/index.html', 'web/public', 'packages/contract/src'], 'dist/index.html'];

export function buildServer() {
  buildIfStale('packages/contract', ['packages/contract/src'], 'dist/index.js');
  buildIfStale('server', ['server/src', 'packages/contract/src'], 'dist/main.js');
}

export function buildAll() {
  buildServer();
  buildIfStale(...WEB_BUILD);
}

/** Runs a child that receives our signals, resolving with its exit code. */
/**
 * Runs a command alongside others: its output lines are printed as they come, each prefixed with `[label]`, so
 * runs that share the terminal stay readable. Resolves with the exit code.
 */
export function runLabelled(label, command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: root,
      ...options,
      env: { ...process.env, ...options.env },
    });
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) out.write(`[${label}] ${line}\n`);
      });
      stream.on('end', () => rest && out.write(`[${label}] ${rest}\n`));
    }
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

export function runForwardingSignals(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: root, ...options, env: { ...process.env, ...options.env } });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 0 : 1)));
  });
}
