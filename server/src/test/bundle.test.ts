import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './server-process.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const repoRoot = path.resolve(serverDir, '..');

/**
 * The build replaces dist/main.js with one bundled module (server/build.mjs): code that finds files next to its own
 * module (the worker threads' scripts, the root package.json) must still find them from there.
 */
describe('the bundled server', () => {
  let outdir: string;
  let home: string;
  let child: ChildProcess | null = null;

  beforeAll(() => {
    // Inside server/, so the packages the bundle leaves out (better-sqlite3, swagger-ui) resolve as they do from dist/.
    outdir = fs.mkdtempSync(path.join(serverDir, '.bundle-test-'));
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-bundle-'));
    const build = spawnSync(process.execPath, [path.join(serverDir, 'build.mjs'), '--outdir', outdir], { encoding: 'utf8' });
    expect(build.stderr).toBe('');
    expect(build.status).toBe(0);
  }, 60_000);

  const stop = async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child!.once('exit', resolve));
    }
    child = null;
  };

  afterAll(async () => {
    await stop();
    fs.rmSync(outdir, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  /** Starts dist/main.js of the test build; resolves with the API's base URL once Init/Status answers. */
  const start = async () => {
    const port = await freePort();
    child = spawn(process.execPath, ['--openssl-legacy-provider', path.join(outdir, 'main.js')], {
      env: { ...process.env, SHOKO_HOME: home, SHOKO_PORT: String(port), SHOKO_HOST: '127.0.0.1', SHOKO_DB: '' },
      stdio: 'ignore',
    });
    const base = `http://127.0.0.1:${port}/api/v3`;
    let status: { State?: string } | null = null;
    for (let attempt = 0; attempt < 300 && !status; attempt++) {
      status = await fetch(`${base}/Init/Status`).then(
        (res) => res.json() as Promise<{ State: string }>,
        () => null,
      );
      if (!status) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status?.State).toBe('Waiting');
    return base;
  };

  it('is one module, with the worker threads bundled next to it', () => {
    expect(
      fs
        .readdirSync(outdir)
        .filter((name) => /\.c?js$/.test(name))
        .sort(),
    ).toEqual(['hash-worker.js', 'main.js', 'media-blob-worker.js', 'mediainfo-worker.js', 'server.cjs']);
    const server = fs.readFileSync(path.join(outdir, 'server.cjs'), 'utf8');
    // No require of a sibling module: everything of ours is inside.
    expect(server).not.toMatch(/require\(["']\.{1,2}\//);
    // The pools start their workers from the bundle's folder.
    expect(server).toContain('new URL("./hash-worker.js", __shokoModuleUrl)');
    expect(server).toContain('new URL("./mediainfo-worker.js", __shokoModuleUrl)');
    expect(server).toContain('new URL("./media-blob-worker.js", __shokoModuleUrl)');
  });

  it('starts, reports the version of the root package.json, and starts again from the code cache it left', async () => {
    const base = await start();
    const version = (await (await fetch(`${base}/Init/Version`)).json()) as { Product: { Version: string } };
    const rootVersion = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version;
    expect(rootVersion).not.toBe('0.0.0');
    expect(version.Product.Version).toBe(rootVersion);
    const caches = () => fs.readdirSync(outdir).filter((name) => name.endsWith('.v8cache'));
    expect(caches()).toEqual([]);
    await stop();
    expect(caches()).toHaveLength(1);
    const written = fs.statSync(path.join(outdir, caches()[0])).mtimeMs;
    const again = await start();
    expect(((await (await fetch(`${again}/Init/Version`)).json()) as { Product: { Version: string } }).Product.Version).toBe(rootVersion);
    // V8 accepted the cache: a start that could not use it writes a new one when it exits.
    await stop();
    expect(caches()).toHaveLength(1);
    expect(fs.statSync(path.join(outdir, caches()[0])).mtimeMs).toBe(written);
    // Two starts of the bundled server: past the 30 s default with both cores busy (ci34).
  }, 120_000);
});
