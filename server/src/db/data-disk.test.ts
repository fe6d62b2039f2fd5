import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataDisk } from './data-disk.js';

afterEach(() => vi.restoreAllMocks());

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** statfs answering `free` bytes (in 4 KiB blocks) of 1 GiB. */
function freeSpace(free: () => number) {
  const stats = () => ({ bsize: 4096, blocks: 262_144, bavail: Math.floor(free() / 4096) }) as never;
  vi.spyOn(fs, 'statfsSync').mockImplementation(stats);
  // Like the real one, the asynchronous form reads the disk a moment after it is called.
  vi.spyOn(fs.promises, 'statfs').mockImplementation(async () => {
    await settle();
    return stats();
  });
}

const diskFull = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

describe('DataDisk', () => {
  it('reports the free space, full after a write failed for want of it, and no longer once space was freed', async () => {
    let free = 200 * 1024 ** 2;
    freeSpace(() => free);
    const disk = new DataDisk(os.tmpdir());
    expect(await disk.health()).toEqual({ FreeBytes: free, TotalBytes: 1024 ** 3, Full: false, LastFullAt: null });

    free = 3 * 1024 ** 2;
    expect(disk.noteFailure(diskFull())).toBe(true);
    await settle();
    expect(await disk.health()).toMatchObject({ FreeBytes: free, Full: true, LastFullAt: expect.any(String) });

    free = 500 * 1024 ** 2;
    expect(await disk.health()).toMatchObject({ Full: false });
  });

  it('takes the free space of the moment a write failed, not of a moment later when space was freed', async () => {
    let free = 3 * 1024 ** 2;
    freeSpace(() => free);
    const disk = new DataDisk(os.tmpdir());
    disk.noteFailure(diskFull());
    free = 40 * 1024 ** 2;
    await settle();
    expect(await disk.health()).toMatchObject({ Full: false });
    // A failure reported only now (a job that met the full disk before the space was freed) changes nothing.
    disk.noteFailure(diskFull());
    expect(await disk.health()).toMatchObject({ Full: false, LastFullAt: expect.any(String) });
  });

  it('ignores other errors, and counts an almost full disk as full before any write failed', async () => {
    freeSpace(() => 100 * 1024);
    const disk = new DataDisk(path.join(os.tmpdir()));
    expect(disk.noteFailure(new Error('constraint failed'))).toBe(false);
    expect(await disk.health()).toMatchObject({ Full: true, LastFullAt: null });
  });

  it('reports unknown figures for a folder it cannot look at', async () => {
    const gone = Object.assign(new Error('gone'), { code: 'ENOENT' });
    vi.spyOn(fs.promises, 'statfs').mockRejectedValue(gone);
    vi.spyOn(fs, 'statfsSync').mockImplementation(() => {
      throw gone;
    });
    const disk = new DataDisk('/nowhere');
    expect(await disk.health()).toEqual({ FreeBytes: null, TotalBytes: null, Full: false, LastFullAt: null });
    disk.noteFailure(diskFull());
    expect(await disk.health()).toMatchObject({ FreeBytes: null, Full: true });
    expect(await new DataDisk('/nowhere').health()).toEqual({ FreeBytes: null, TotalBytes: null, Full: false, LastFullAt: null });
  });
});
