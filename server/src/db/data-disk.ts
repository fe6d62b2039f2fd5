import fs from 'node:fs';
import type { DataDiskHealth } from '@shoko-ts/contract';
import { isDiskFullError } from './db-faults.js';

/** Less free than this and the disk counts as full whether or not a write has failed yet. */
const NEARLY_FULL_BYTES = 1024 * 1024;
/** A write that failed for want of space counts for this long, unless space was freed since. */
const REMEMBER_MS = 5 * 60_000;
/** Freed space beyond this since the failure: the disk is no longer full. */
const FREED_BYTES = 4 * 1024 * 1024;

interface Space {
  free: number;
  total: number;
}

/**
 * The data folder's disk as the console shows it: its free space, and whether writes fail for want of it. Whoever
 * meets a disk-full error (a request, the queue) calls `noteFailure`; the space freed since tells when it is over.
 */
export class DataDisk {
  private lastFull: { at: number; free: number | null } | null = null;

  constructor(
    private readonly folder: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Remembers a failed write when `error` is a disk-full error; true when it was one. The free space is read at once
   * (a read that finished after the user freed space would take the freed space for the full disk's), and the lowest
   * reading of the failures still remembered is kept: a failure reported late, after space was freed, does not make
   * the freed space the new mark.
   */
  noteFailure(error: unknown): boolean {
    if (!isDiskFullError(error)) return false;
    const at = this.now();
    const free = this.spaceNow()?.free ?? null;
    const previous = this.lastFull && at - this.lastFull.at < REMEMBER_MS ? this.lastFull.free : null;
    this.lastFull = { at, free: previous !== null && (free === null || previous < free) ? previous : free };
    return true;
  }

  async health(): Promise<DataDiskHealth> {
    const space = await this.space();
    const recent = this.lastFull && this.now() - this.lastFull.at < REMEMBER_MS ? this.lastFull : null;
    const freedSince = recent && space && recent.free !== null && space.free - recent.free > FREED_BYTES;
    const full = (space !== null && space.free < NEARLY_FULL_BYTES) || (recent !== null && !freedSince);
    return {
      FreeBytes: space?.free ?? null,
      TotalBytes: space?.total ?? null,
      Full: full,
      LastFullAt: recent ? new Date(recent.at).toISOString() : null,
    };
  }

  private async space(): Promise<Space | null> {
    return fs.promises.statfs(this.folder).then(spaceOf, () => null);
  }

  private spaceNow(): Space | null {
    try {
      return spaceOf(fs.statfsSync(this.folder));
    } catch {
      return null;
    }
  }
}

function spaceOf(stats: fs.StatsFs): Space {
  return { free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
}
