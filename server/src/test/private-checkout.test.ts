import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectPg } from './pg-admin.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm test` must pass wherever the project is cloned, also in a folder only its owner may enter (`mktemp -d`, anything
 * under /root), where a child run as `nobody` can read nothing of the checkout. Running the whole suite from such a
 * folder takes as long as the suite, so this runs only the parts that start something as another user, from a private
 * copy of the checkout: the hashing test that needs a real EACCES, and the throwaway PostgreSQL cluster (initdb refuses
 * root). As another user only when run as root, as `npm test` is in CI; otherwise they simply run from the copy.
 */
const repo = fileURLToPath(new URL('../../..', import.meta.url));
let privateDir: string;
let checkout: string;

beforeAll(() => {
  privateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-private-checkout-'));
  fs.chmodSync(privateDir, 0o700);
  checkout = path.join(privateDir, 'shoko');
  // What the server's tests need of the checkout; node_modules is linked, so it too is reached only through the
  // private folder, as in a real clone (a child resolving packages from its working directory cannot reach them).
  for (const part of [
    'package.json',
    'tsconfig.base.json',
    'server/src',
    'server/package.json',
    'server/tsconfig.json',
    'server/vitest.config.ts',
  ])
    fs.cpSync(path.join(repo, part), path.join(checkout, part), { recursive: true });
  fs.cpSync(path.join(repo, 'packages/contract'), path.join(checkout, 'packages/contract'), {
    recursive: true,
    filter: (source) => !source.includes('node_modules') && !source.includes(`${path.sep}dist`),
  });
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(checkout, 'node_modules'));
});

afterAll(() => fs.rmSync(privateDir, { recursive: true, force: true }));

describe('from a checkout in a private (mode 700) folder', () => {
  it('the hashing test gets its EACCES from a child run as nobody', () => {
    const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
    const report = path.join(privateDir, 'report.json');
    // The outer run's VITEST_* variables would make the inner one think it is one of its workers.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^VITEST|^TEST$/.test(name)));
    const result = spawnSync(
      process.execPath,
      [vitest, 'run', 'src/media/hashing/hashing.test.ts', '-t', 'EACCES', '--reporter=json', `--outputFile=${report}`],
      {
        cwd: path.join(checkout, 'server'),
        env: { ...env, NODE_OPTIONS: '--openssl-legacy-provider' },
        encoding: 'utf8',
        timeout: 150_000,
      },
    );
    const output = `${result.stdout}\n${result.stderr}`.trim().slice(-4000);
    expect(fs.existsSync(report), output).toBe(true);
    const tests = (
      JSON.parse(fs.readFileSync(report, 'utf8')) as {
        testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
      }
    ).testResults.flatMap((file) => file.assertionResults.filter((test) => test.status !== 'skipped'));
    expect(
      tests.map(({ title, status, failureMessages }) => ({ title, status, failure: failureMessages.join('\n').slice(0, 2000) })),
      output,
    ).toEqual([{ title: 'rejects a file it may not read (EACCES)', status: 'passed', failure: '' }]);
    expect(result.status, output).toBe(0);
  }, 180_000);

  it('a throwaway PostgreSQL cluster starts with a private working and temporary folder', async (context) => {
    const cluster = (await import(path.join(repo, 'scripts', 'pg-cluster.mjs'))) as {
      findPostgresBin(): string | null;
      startPostgres(): Promise<{ url: string; stop(): void }>;
    };
    if (!cluster.findPostgresBin()) context.skip('the PostgreSQL binaries are not installed (Debian package: postgresql)');
    const tmp = path.join(privateDir, 'tmp');
    fs.mkdirSync(tmp, { mode: 0o700 });
    const previous = { cwd: process.cwd(), tmpdir: process.env.TMPDIR };
    let started: { url: string; stop(): void } | undefined;
    try {
      process.chdir(checkout);
      process.env.TMPDIR = tmp;
      started = await cluster.startPostgres();
      const client = await connectPg(started.url);
      try {
        expect((await client.query<{ answer: number }>('SELECT 42 AS answer')).rows).toEqual([{ answer: 42 }]);
      } finally {
        await client.end();
      }
    } finally {
      started?.stop();
      process.chdir(previous.cwd);
      if (previous.tmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous.tmpdir;
    }
  }, 60_000);
});
