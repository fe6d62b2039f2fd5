import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ED2K_CHUNK_SIZE, hashFile } from './index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const serverDir = fileURLToPath(new URL('../../..', import.meta.url));
const repoNodeModules = fileURLToPath(new URL('../../../../node_modules', import.meta.url));

let out: string;
let files: string[];

/**
 * The server runs from tsc's output, where the pool starts hash-worker.js instead of the .ts source that vitest sees.
 * This folder is compiled on its own (the rest of the server may be mid-edit) and driven from child processes.
 */
beforeAll(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-hashing-build-'));
  const sources = fs.readdirSync(here).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const args = [
    '--outDir',
    out,
    '--rootDir',
    here,
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--target',
    'es2022',
    '--types',
    'node',
    '--skipLibCheck',
  ];
  const build = spawnSync(process.execPath, [tsc, ...args, ...sources.map((name) => path.join(here, name))], {
    cwd: serverDir,
    encoding: 'utf8',
  });
  expect(build.stdout + build.stderr).toBe('');
  fs.writeFileSync(path.join(out, 'package.json'), '{ "type": "module" }');
  fs.symlinkSync(repoNodeModules, path.join(out, 'node_modules'));
  files = [ED2K_CHUNK_SIZE, 2 * ED2K_CHUNK_SIZE + 777].map((size, i) => {
    const file = path.join(out, `data-${i}.bin`);
    fs.writeFileSync(file, randomBytes(size));
    return file;
  });
}, 120_000);

afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

function runCompiled(nodeArgs: string[]): { engine: { md4: string }; hashes: unknown[] } {
  const script = path.join(out, 'hash-files.mjs');
  fs.writeFileSync(
    script,
    `import { HashPool, hashEngineInfo } from './index.js';
    const pool = new HashPool({ size: 2 });
    const hashes = await Promise.all(process.argv.slice(2).map((file) => pool.hash(file)));
    hashes.push(await pool.hash(process.argv[2]));
    await pool.close();
    console.log(JSON.stringify({ engine: hashEngineInfo(), hashes }));`,
  );
  const env = { ...process.env, NODE_OPTIONS: '' };
  const result = spawnSync(process.execPath, [...nodeArgs, script, ...files], { encoding: 'utf8', env });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout);
}

describe('the compiled hashing module', () => {
  it('hashes on compiled workers with OpenSSL MD4 under --openssl-legacy-provider', async () => {
    const { engine, hashes } = runCompiled(['--openssl-legacy-provider']);
    expect(engine.md4).toBe('openssl');
    const expected = [await hashFile(files[0]), await hashFile(files[1])];
    expect(hashes).toEqual([...expected, expected[0]]);
  });

  it('falls back to hash-wasm MD4 without the legacy provider, with the same digests', async () => {
    const { engine, hashes } = runCompiled([]);
    expect(engine.md4).toBe('hash-wasm');
    const expected = [await hashFile(files[0]), await hashFile(files[1])];
    expect(hashes).toEqual([...expected, expected[0]]);
    expect(expected[0].ED2KAlternate).not.toBeNull();
  });
});
