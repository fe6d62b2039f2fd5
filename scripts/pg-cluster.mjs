// A throwaway PostgreSQL cluster on a loopback port, from the Debian binaries (initdb refuses root: run as nobody).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export function findPostgresBin() {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], 'bin') : null;
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Whether every folder from / down to `dir` may be searched by other users (as nobody, which runs the cluster). */
function othersCanEnter(dir) {
  for (let folder = fs.realpathSync(dir); ; folder = path.dirname(folder)) {
    if ((fs.statSync(folder).mode & 0o001) === 0) return false;
    if (folder === path.dirname(folder)) return true;
  }
}

/**
 * Where the cluster's folder goes: the temporary folder, unless nobody may enter it (TMPDIR inside a private folder,
 * as a mode-700 checkout or CI workspace may set it); then /tmp or /var/tmp. The cluster needs nothing of the checkout.
 */
function clusterParent(isRoot) {
  if (!isRoot) return os.tmpdir();
  const candidates = [os.tmpdir(), '/tmp', '/var/tmp'];
  const parent = candidates.find((dir) => fs.existsSync(dir) && othersCanEnter(dir));
  if (!parent) throw new Error(`initdb runs as nobody, who may enter none of ${candidates.join(', ')}`);
  return parent;
}

/** Starts a cluster and returns its URL and a stop function. */
export async function startPostgres() {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL binaries not found (Debian package: postgresql)');
  const isRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(clusterParent(isRoot), 'shoko-pg-'));
  const dataDir = path.join(dir, 'data');
  const runAs = (args) => (isRoot ? ['runuser', ['-u', 'nobody', '--', ...args]] : [args[0], args.slice(1)]);
  if (isRoot) execFileSync('chown', ['nobody', dir]);
  fs.chmodSync(dir, 0o755);

  const [initCmd, initArgs] = runAs([path.join(bin, 'initdb'), '-D', dataDir, '-U', 'shoko', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  // Its complaint (stderr) goes into the error thrown when it fails.
  execFileSync(initCmd, initArgs, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const [startCmd, startArgs] = runAs([path.join(bin, 'pg_ctl'), '-D', dataDir, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  execFileSync(startCmd, startArgs, { stdio: 'ignore', cwd: dir });
  /** Runs pg_ctl with `args` without blocking the caller's event loop (a server in the same process keeps answering). */
  const pgCtl = (args) => {
    const [cmd, cmdArgs] = runAs([path.join(bin, 'pg_ctl'), '-D', dataDir, ...args]);
    return new Promise((resolve, reject) => {
      const child = spawn(cmd, cmdArgs, { stdio: 'ignore', cwd: dir });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`pg_ctl ${args.at(-1)} exited with ${code}`))));
    });
  };
  const url = `postgres://shoko@127.0.0.1:${port}/postgres`;
  return {
    url,
    /** Restarts the cluster as an administrator would (`pg_ctl restart -m fast`): every connection is ended (57P01). */
    restart() {
      return pgCtl(['-m', 'fast', '-l', path.join(dir, 'log'), '-w', 'restart']);
    },
    /** Stops the cluster as an administrator would (`pg_ctl stop -m fast`), keeping its data: `startAgain` brings it back. */
    shutDown() {
      return pgCtl(['-m', 'fast', '-w', 'stop']);
    },
    /** Starts a cluster stopped by `shutDown` again, on the same port. */
    startAgain() {
      return pgCtl(['-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
    },
    stop() {
      const [stopCmd, stopArgs] = runAs([path.join(bin, 'pg_ctl'), '-D', dataDir, '-m', 'immediate', 'stop']);
      spawnSync(stopCmd, stopArgs, { stdio: 'ignore', cwd: dir });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
