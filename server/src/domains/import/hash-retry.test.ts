import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ImportService } from './import.service.js';

/**
 * A hash job whose hashes were saved but whose next step could not be queued (a full disk) runs again: the retry
 * queues what follows without reading the file a second time, unless the file changed on disk meanwhile.
 */

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
});

function setUp() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-hash-retry-'));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, 'a.mkv'), Buffer.alloc(4096, 7));
  const location = {
    id: 1,
    file_id: 10,
    import_folder_id: 1,
    relative_path: 'a.mkv',
    folder_path: dir,
    is_accessible: 1,
    folder_available: 1,
  };
  const hashed: string[] = [];
  const queued: Array<{ kind: string; payload: unknown }> = [];
  let failEnqueues = 1;
  const files = {
    location: async () => location,
    applyHashes: async () => ({ fileId: 10, merged: false, otherLocations: 0 }),
    file: async () => ({ id: 10, media_info: null }),
  };
  const queue = {
    register: () => undefined,
    enqueue: async (definition: { kind: string }, payload: unknown) => {
      if (failEnqueues > 0) {
        failEnqueues -= 1;
        throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      }
      queued.push({ kind: definition.kind, payload });
      return true;
    },
  };
  const hasher = {
    hash: async (file: string) => {
      hashed.push(file);
      return { size: 4096, ED2K: 'E'.repeat(32), ED2KAlternate: null, CRC32: 'C'.repeat(8), MD5: 'M'.repeat(32), SHA1: 'S'.repeat(40) };
    },
  };
  const service = new ImportService({
    files,
    queue,
    hasher,
    bus: { emit: () => undefined },
    logger: pino({ level: 'silent' }),
    settings: { current: { Import: {} } },
    folders: {},
    media: {},
    availability: {},
  } as unknown as ConstructorParameters<typeof ImportService>[0]);
  const ctx = { logger: pino({ level: 'silent' }), signal: new AbortController().signal, progress: () => undefined };
  const run = () => service.hashFileJob.run({ locationId: 1 }, ctx);
  return { dir, run, hashed, queued };
}

describe('a hash job run again after its follow-ups failed', () => {
  it('queues the media info read without hashing the file again', async () => {
    const { run, hashed, queued } = setUp();
    await expect(run()).rejects.toThrow(/disk is full/);
    expect(hashed).toHaveLength(1);
    await run();
    expect(hashed).toHaveLength(1);
    expect(queued).toEqual([{ kind: 'MediaInfoJob', payload: { fileId: 10 } }]);
    // Once its follow-ups are queued, a rehash asked for later reads the file again.
    await run();
    expect(hashed).toHaveLength(2);
  });

  it('hashes again when the file changed on disk in between', async () => {
    const { dir, run, hashed, queued } = setUp();
    await expect(run()).rejects.toThrow(/disk is full/);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(dir, 'a.mkv'), later, later);
    await run();
    expect(hashed).toHaveLength(2);
    expect(queued).toHaveLength(1);
  });
});
