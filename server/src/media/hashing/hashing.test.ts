import { spawnSync } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ALGORITHMS, ED2K_CHUNK_SIZE, Ed2kHasher, hashFile, HashPool, type FileHashes } from './index.js';
import { asNobodyWhenRoot, nodeForNobody, reachableTempDir, transpileForNobody, writeReadable } from '../../test/other-user.js';
import { threadNiceValues } from '../../test/thread-priority.js';
import { planLanes } from './lane-plan.js';

const CHUNK = ED2K_CHUNK_SIZE;
const md4 = (...parts: Uint8Array[]) => parts.reduce((hash, part) => hash.update(part), createHash('md4')).digest();
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex').toUpperCase();

let dir: string;
const file = (name: string) => path.join(dir, name);

/** Deterministic pseudo-random bytes (an AES-CTR keystream), so a failure can be reproduced byte for byte. */
function writePseudoRandom(name: string, size: number, seed: number): string {
  const cipher = createCipheriv('aes-128-ctr', Buffer.alloc(16, seed), Buffer.alloc(16));
  const fd = fs.openSync(file(name), 'w');
  const zeros = Buffer.alloc(4 * 1024 * 1024);
  for (let written = 0; written < size; written += zeros.length)
    fs.writeSync(fd, cipher.update(zeros.subarray(0, Math.min(zeros.length, size - written))));
  fs.closeSync(fd);
  return file(name);
}

interface RhashDigests {
  CRC32: string;
  MD5: string;
  SHA1: string;
  ED2K: string;
}

/** rhash is the independent reference; without it these tests must fail, not quietly pass. */
function rhash(filePath: string): RhashDigests {
  const result = spawnSync('rhash', ['--ed2k', '--crc32', '--md5', '--sha1', '--printf', '%C %M %H %E\\n', filePath], { encoding: 'utf8' });
  if (result.error)
    throw new Error(
      `rhash is needed as the reference for the hashing tests but could not run (${result.error.message}). Install it: apt-get install -y rhash`,
    );
  if (result.status !== 0) throw new Error(`rhash failed on ${filePath}: ${result.stderr}`);
  const [CRC32, MD5, SHA1, ED2K] = result.stdout.trim().split(' ');
  return { CRC32, MD5, SHA1, ED2K };
}

const EMPTY: FileHashes = {
  size: 0,
  ED2K: '31D6CFE0D16AE931B73C59D7E0C089C0',
  ED2KAlternate: null,
  CRC32: '00000000',
  MD5: 'D41D8CD98F00B204E9800998ECF8427E',
  SHA1: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709',
};

const cases = [
  { name: 'empty', size: 0 },
  { name: 'one byte', size: 1 },
  { name: 'exactly one chunk', size: CHUNK },
  { name: 'one chunk and a byte', size: CHUNK + 1 },
  { name: 'exactly two chunks', size: 2 * CHUNK },
  { name: 'about 25 MB, three chunks', size: 25_000_007 },
  { name: '64 KiB, less than one read', size: 65_536 },
  { name: 'a read and a few bytes', size: 2 * 1024 * 1024 + 3 },
];

let pool: HashPool;

beforeAll(() => {
  dir = reachableTempDir('shoko-hashing-'); // the permission test reads it as another user
  cases.forEach(({ name, size }, seed) => writePseudoRandom(`${name}.bin`, size, seed + 1));
  pool = new HashPool({ size: 2 });
});

afterAll(async () => {
  await pool?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('known vectors (independent of rhash)', () => {
  it('an empty file has MD4("") as ED2K and CRC32 00000000', async () => {
    expect(hex(md4())).toBe('31D6CFE0D16AE931B73C59D7E0C089C0');
    expect(await hashFile(file('empty.bin'))).toEqual(EMPTY);
    expect(await pool.hash(file('empty.bin'))).toEqual(EMPTY);
  });

  it('one chunk of zeros: ED2K is the MD4 of the data, the alternate appends the empty chunk', async () => {
    const zeros = Buffer.alloc(CHUNK);
    fs.writeFileSync(file('zeros-1.bin'), zeros);
    const expected = { ED2K: hex(md4(zeros)), ED2KAlternate: hex(md4(md4(zeros), md4())) };
    expect(await hashFile(file('zeros-1.bin'))).toMatchObject(expected);
    expect(await pool.hash(file('zeros-1.bin'))).toMatchObject(expected);
  });

  it('two chunks of zeros: MD4 of the chunk digests, with and without the empty chunk', async () => {
    const zeros = Buffer.alloc(CHUNK);
    fs.writeFileSync(file('zeros-2.bin'), Buffer.concat([zeros, zeros]));
    const chunk = md4(zeros);
    const expected = { size: 2 * CHUNK, ED2K: hex(md4(chunk, chunk)), ED2KAlternate: hex(md4(chunk, chunk, md4())) };
    expect(await hashFile(file('zeros-2.bin'))).toMatchObject(expected);
    expect(await pool.hash(file('zeros-2.bin'))).toMatchObject(expected);
  });

  it('ED2K does not depend on how the data is cut into updates', () => {
    const data = Buffer.alloc(CHUNK + 12_345, 7);
    const whole = new Ed2kHasher(md4Resettable());
    whole.update(data);
    const pieces = new Ed2kHasher(md4Resettable());
    for (let offset = 0; offset < data.length; offset += 999_983) pieces.update(data.subarray(offset, offset + 999_983));
    const expected = hex(md4(md4(data.subarray(0, CHUNK)), md4(data.subarray(CHUNK))));
    expect(hex(whole.digest().ED2K)).toBe(expected);
    expect(hex(pieces.digest().ED2K)).toBe(expected);
  });
});

function md4Resettable() {
  let hash = createHash('md4');
  return {
    update: (data: Uint8Array) => void hash.update(data),
    digest: () => {
      const digest = hash.digest();
      hash = createHash('md4');
      return digest;
    },
  };
}

describe('the same digests as rhash', () => {
  it.each(cases)('$name ($size bytes), in-process and through the pool', async ({ name, size }) => {
    const reference = rhash(file(`${name}.bin`));
    const exactMultiple = size > 0 && size % CHUNK === 0;
    for (const hashes of [await hashFile(file(`${name}.bin`)), await pool.hash(file(`${name}.bin`))]) {
      expect(hashes.size).toBe(size);
      expect({ CRC32: hashes.CRC32, MD5: hashes.MD5, SHA1: hashes.SHA1 }).toEqual({
        CRC32: reference.CRC32,
        MD5: reference.MD5,
        SHA1: reference.SHA1,
      });
      // rhash appends the empty chunk on exact multiples: its ED2K is our alternate there, our ED2K elsewhere.
      if (exactMultiple) {
        expect(hashes.ED2KAlternate).toBe(reference.ED2K);
        expect(hashes.ED2K).not.toBe(reference.ED2K);
      } else {
        expect(hashes.ED2K).toBe(reference.ED2K);
        expect(hashes.ED2KAlternate).toBeNull();
      }
    }
  });
});

describe('HashPool', () => {
  it('hashes four files at once, each reporting progress up to 1', async () => {
    const names = ['one byte', 'exactly one chunk', 'one chunk and a byte', 'about 25 MB, three chunks'];
    const progress = names.map(() => [] as number[]);
    const results = await Promise.all(names.map((name, i) => pool.hash(file(`${name}.bin`), { onProgress: (f) => progress[i].push(f) })));
    for (const [i, name] of names.entries()) {
      expect(results[i]).toEqual(await hashFile(file(`${name}.bin`)));
      expect(progress[i].at(-1)).toBe(1);
      expect(progress[i]).toEqual([...progress[i]].sort((a, b) => a - b));
      expect(progress[i].every((f) => f > 0 && f <= 1)).toBe(true);
    }
    const big = progress[3];
    expect(big.length).toBeGreaterThan(2); // intermediate steps, not just the final 1
  });

  // (A test process already at nice 10 or more has nothing to show.)
  it.runIf(process.platform === 'linux' && os.getPriority() < 10)('hashes in threads that give way to the rest of the server', async () => {
    const atTen = () => threadNiceValues().filter((nice) => nice === 10).length;
    const before = atTen();
    const own = new HashPool({ size: 2 });
    try {
      await Promise.all([own.hash(file('one byte.bin')), own.hash(file('exactly one chunk.bin'))]);
      expect(atTen()).toBe(before + 2);
      expect(os.getPriority()).not.toBe(10);
    } finally {
      await own.close();
    }
  });

  it('splits one file over two workers with MD5, the slowest hash, alone; more lanes only while they help', () => {
    expect(planLanes(ALL_ALGORITHMS, 1)).toEqual([['MD5', 'ED2K', 'SHA1', 'CRC32']]);
    expect(planLanes(ALL_ALGORITHMS, 2)).toEqual([['MD5'], ['ED2K', 'SHA1', 'CRC32']]);
    expect(planLanes(ALL_ALGORITHMS, 8)).toEqual([['MD5'], ['ED2K'], ['SHA1', 'CRC32']]);
  });

  it('fails the file of a worker that dies, and replaces the worker', async () => {
    const threads = () => (pool as unknown as { workers: { thread: { terminate(): Promise<number> } }[] }).workers.map((w) => w.thread);
    let killed = false;
    const kill = () => {
      if (!killed) void threads()[0].terminate();
      killed = true;
    };
    await expect(pool.hash(file('about 25 MB, three chunks.bin'), { onProgress: kill })).rejects.toMatchObject({ code: 'EWORKER' });
    const [a, b] = await Promise.all([pool.hash(file('one byte.bin')), pool.hash(file('exactly one chunk.bin'))]);
    expect(a).toEqual(await hashFile(file('one byte.bin')));
    expect(b).toEqual(await hashFile(file('exactly one chunk.bin')));
    expect(threads()).toHaveLength(2);
  });

  it('rejects a missing file and a directory with a code, and keeps working', async () => {
    for (const hash of [hashFile, (p: string) => pool.hash(p)]) {
      await expect(hash(file('missing.bin'))).rejects.toMatchObject({ code: 'ENOENT', message: expect.stringContaining('missing.bin') });
      await expect(hash(dir)).rejects.toMatchObject({ code: 'EISDIR', message: expect.stringContaining('directory') });
    }
    expect(await pool.hash(file('empty.bin'))).toEqual(EMPTY);
  });

  it('rejects a file it may not read (EACCES)', () => {
    const secret = writePseudoRandom('secret.bin', 1000, 99);
    fs.chmodSync(secret, 0o000);
    fs.chmodSync(file('one byte.bin'), 0o644); // whatever the umask
    // root reads everything, so the check runs in a child process as nobody, from a copy of this folder as JavaScript:
    // nobody may not be able to enter the checkout (a private folder), nor load tsx from its node_modules.
    const code = reachableTempDir('shoko-hashing-js-');
    try {
      transpileForNobody(fileURLToPath(new URL('.', import.meta.url)), code);
      writeReadable(
        path.join(code, 'check.js'),
        `import { hashFile, HashPool } from './index.js';
        const codes = {};
        await hashFile(process.argv[2]).catch((e) => (codes.inline = e.code));
        const pool = new HashPool({ size: 1 });
        await pool.hash(process.argv[2]).catch((e) => (codes.pool = e.code));
        codes.after = (await pool.hash(process.argv[3])).MD5;
        await pool.close();
        console.log(JSON.stringify(codes));`,
      );
      const result = spawnSync(nodeForNobody(), ['--openssl-legacy-provider', 'check.js', secret, file('one byte.bin')], {
        cwd: code,
        encoding: 'utf8',
        ...asNobodyWhenRoot(),
      });
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({ inline: 'EACCES', pool: 'EACCES', after: rhash(file('one byte.bin')).MD5 });
    } finally {
      fs.rmSync(code, { recursive: true, force: true });
    }
  });

  it('rejects a file deleted or truncated while it is hashed', async () => {
    const size = 64 * 1024 * 1024;
    writePseudoRandom('deleted.bin', size, 42);
    await expect(
      pool.hash(file('deleted.bin'), { onProgress: () => fs.rmSync(file('deleted.bin'), { force: true }) }),
    ).rejects.toMatchObject({
      code: 'ENOENT',
      message: expect.stringContaining('deleted while being hashed'),
    });
    for (const hash of [hashFile, pool.hash.bind(pool)]) {
      writePseudoRandom('truncated.bin', size, 43);
      await expect(hash(file('truncated.bin'), { onProgress: () => fs.truncateSync(file('truncated.bin'), 1024) })).rejects.toMatchObject({
        code: 'EFILECHANGED',
      });
    }
    expect(await pool.hash(file('one byte.bin'))).toEqual(await hashFile(file('one byte.bin')));
  });

  it('stops when aborted: before, while queued and while running', async () => {
    const big = file('about 25 MB, three chunks.bin');
    await expect(pool.hash(big, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ABORT_ERR', name: 'AbortError' });
    const running = new AbortController();
    await expect(pool.hash(big, { signal: running.signal, onProgress: () => running.abort() })).rejects.toMatchObject({
      code: 'ABORT_ERR',
    });
    const inProcess = new AbortController();
    await expect(hashFile(big, { signal: inProcess.signal, onProgress: () => inProcess.abort() })).rejects.toMatchObject({
      code: 'ABORT_ERR',
    });

    const single = new HashPool({ size: 1 });
    const queued = new AbortController();
    const first = single.hash(big);
    const second = single.hash(big, { signal: queued.signal });
    queued.abort();
    await expect(second).rejects.toMatchObject({ code: 'ABORT_ERR' });
    expect((await first).MD5).toBe(rhash(big).MD5);
    await single.close();
    await expect(single.hash(big)).rejects.toMatchObject({ code: 'ECLOSED' });
    expect((await pool.hash(big)).SHA1).toBe(rhash(big).SHA1);
  });
});
