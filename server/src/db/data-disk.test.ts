import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataDisk } from './data-disk.js';

afterEach(() => vi.restoreAllMocks());

/** statfs answering `free` bytes (in 4 KiB blocks) of 1 GiB. */
function freeSpace(free: () => number) {
  vi.spyOn(fs.promises, 'statfs').mockImplementation(
    async () => ({ bsize: 4096, blocks: 262_144, bavail: Math.floor(free() / 4096) }) as never,
  );
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('DataDisk', () => {
  it('reports the free space, full after a write failed for want of it, and no longer once space was freed', async () => {
    let free = 200 * 1024 ** 2;
    freeSpace(() => free);
    const disk = new DataDisk(os.tmpdir());
    expect(await disk.health()).toEqual({ FreeBytes: free, TotalBytes: 1024 ** 3, Full: false, LastFullAt: null });

    free = 3 * 1024 ** 2;
    expect(disk.noteFailure(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(true);
    await settle();
    expect(await disk.health()).toMatchObject({ FreeBytes: free, Full: true, LastFullAt: expect.any(String) });

    free = 500 * 1024 ** 2;
    expect(await disk.health()).toMatchObject({ Full: false });
  });

  it('ignores other errors, and counts an almost full disk as full before any write failed', async () => {
    freeSpace(() => 100 * 1024);
    const disk = new DataDisk(path.join(os.tmpdir()));
    expect(disk.noteFailure(new Error('constraint failed'))).toBe(false);
    expect(await disk.health()).toMatchObject({ Full: true, LastFullAt: null });
  });

  it('reports unknown figures for a folder it cannot look at', async () => {
    vi.spyOn(fs.promises, 'statfs').mockRejectedValue(Object.assign(new Error('gone'), { code: 'ENOENT' }));
    expect(await new DataDisk('/nowhere').health()).toEqual({ FreeBytes: null, TotalBytes: null, Full: false, LastFullAt: null });
  });
});
