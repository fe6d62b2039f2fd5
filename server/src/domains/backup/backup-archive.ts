import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

/**
 * A backup is a gzip-compressed tar file (open it with `tar xzf`): `backup.json` first, so a listing reads only the
 * start of each file, then the database. Only plain files are written and only names the caller allows are read
 * back, so an archive can never place a file outside the directory it is extracted into.
 */

const BLOCK = 512;

export interface ArchiveEntry {
  name: string;
  /** A file on disk to copy in, or the bytes themselves. */
  file?: string;
  data?: Buffer;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`archive entry name too long: ${name}`);
  if (size >= 8 ** 11) throw new Error(`archive entry too large: ${name}`);
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0);
  block.write(octal(0o644, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136);
  block.write('        ', 148);
  block.write('0', 156);
  block.write('ustar\0' + '00', 257);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

async function* tarStream(entries: ArchiveEntry[], mtime: Date): AsyncGenerator<Buffer> {
  for (const entry of entries) {
    let size = 0;
    if (entry.data) {
      size = entry.data.length;
      yield header(entry.name, size, mtime);
      yield entry.data;
    } else if (entry.file) {
      size = (await stat(entry.file)).size;
      yield header(entry.name, size, mtime);
      let copied = 0;
      for await (const chunk of createReadStream(entry.file)) {
        copied += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
      if (copied !== size) throw new Error(`${entry.file} changed while it was archived`);
    }
    if (size % BLOCK) yield Buffer.alloc(BLOCK - (size % BLOCK));
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** Writes the entries, in order, as a .tar.gz file. */
export async function writeArchive(destination: string, entries: ArchiveEntry[]): Promise<void> {
  await pipeline(Readable.from(tarStream(entries, new Date())), createGzip(), createWriteStream(destination, { flags: 'wx', mode: 0o600 }));
}

type Sink = { kind: 'collect'; chunks: Buffer[] } | { kind: 'file'; stream: WriteStream } | { kind: 'skip' };

/**
 * Reads a .tar.gz entry by entry. `wanted(name)` says what to do with each: collect its bytes, write it to a file,
 * or skip it; after the entry named `stopAfter` the file is not read further. Returns the collected entries.
 */
async function readArchive(
  source: string,
  wanted: (name: string) => { file: string } | 'collect' | 'skip',
  stopAfter?: string,
): Promise<Map<string, Buffer>> {
  const collected = new Map<string, Buffer>();
  let pending: Buffer = Buffer.alloc(0);
  let current: { name: string; remaining: number; padding: number; sink: Sink } | null = null;
  let finished = false;

  const finishEntry = async () => {
    const entry = current!;
    if (entry.sink.kind === 'collect') collected.set(entry.name, Buffer.concat(entry.sink.chunks));
    if (entry.sink.kind === 'file') {
      entry.sink.stream.end();
      await once(entry.sink.stream, 'close');
    }
    if (entry.name === stopAfter) finished = true;
  };

  const raw = createReadStream(source);
  const input = createGunzip();
  // pipe() passes no errors on: a file that goes away (a backup pruned meanwhile) must fail this read, not the process.
  raw.on('error', (error) => input.destroy(error));
  raw.pipe(input);
  try {
    for await (const chunk of input) {
      pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
      while (!finished) {
        if (current && current.remaining > 0) {
          if (!pending.length) break;
          const part = pending.subarray(0, Math.min(current.remaining, pending.length));
          pending = pending.subarray(part.length);
          current.remaining -= part.length;
          if (current.sink.kind === 'collect') current.sink.chunks.push(Buffer.from(part));
          if (current.sink.kind === 'file' && !current.sink.stream.write(part)) await once(current.sink.stream, 'drain');
          if (current.remaining === 0) await finishEntry();
          continue;
        }
        if (current && current.padding > 0) {
          const skip = Math.min(current.padding, pending.length);
          pending = pending.subarray(skip);
          current.padding -= skip;
          if (current.padding > 0) break;
        }
        current = null;
        if (pending.length < BLOCK) break;
        const block = pending.subarray(0, BLOCK);
        pending = pending.subarray(BLOCK);
        if (block.every((b) => b === 0)) {
          finished = true;
          break;
        }
        const name = block.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
        const size = parseInt(block.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim() || '0', 8);
        if (!Number.isFinite(size) || size < 0) throw new Error('not a backup archive (bad entry header)');
        const action = wanted(name);
        const sink: Sink =
          action === 'collect'
            ? { kind: 'collect', chunks: [] }
            : action === 'skip'
              ? { kind: 'skip' }
              : { kind: 'file', stream: createWriteStream(action.file, { flags: 'wx', mode: 0o600 }) };
        current = { name, remaining: size, padding: size % BLOCK ? BLOCK - (size % BLOCK) : 0, sink };
        if (size === 0) await finishEntry();
      }
      if (finished) break;
    }
  } finally {
    raw.destroy();
    input.destroy();
    if (current?.sink.kind === 'file' && !current.sink.stream.closed) current.sink.stream.destroy();
  }
  if (!finished) throw new Error('not a backup archive (it ends early)');
  return collected;
}

export const MANIFEST = 'backup.json';

/** The manifest of a backup, reading only the start of the file. */
export async function readManifest(source: string): Promise<unknown> {
  const entries = await readArchive(source, (name) => (name === MANIFEST ? 'collect' : 'skip'), MANIFEST);
  const manifest = entries.get(MANIFEST);
  if (!manifest) throw new Error(`not a backup archive (no ${MANIFEST})`);
  return JSON.parse(manifest.toString('utf8'));
}

/** Extracts the named entries into `directory`; anything else in the archive is ignored. Returns the manifest. */
export async function extractArchive(source: string, directory: string, names: string[]): Promise<unknown> {
  const entries = await readArchive(source, (name) =>
    name === MANIFEST ? 'collect' : names.includes(name) ? { file: path.join(directory, name) } : 'skip',
  );
  const manifest = entries.get(MANIFEST);
  if (!manifest) throw new Error(`not a backup archive (no ${MANIFEST})`);
  return JSON.parse(manifest.toString('utf8'));
}
