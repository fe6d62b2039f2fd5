import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type SQLite from 'better-sqlite3';

/** A folder on a small file system of its own that a test fills up for real, and frees again. */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the file system refuses (ENOSPC): every later write that needs space fails. */
  fill(): void;
  /** Removes the filler: the space is back. */
  free(): void;
  unmount(): void;
}

/**
 * Mounts a size-limited tmpfs (`sizeMb`) on a new temporary folder. Mounting needs root and a system that allows it
 * (CI runs as root on such a machine): otherwise the answer says why not, for the test to skip with that reason.
 */
export function mountSmallDisk(sizeMb: number): SmallDisk | { unavailable: string } {
  if (process.platform !== 'linux') return { unavailable: 'a tmpfs mount needs Linux' };
  if (process.getuid?.() !== 0) return { unavailable: 'mounting a tmpfs needs root' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() || String(error);
    return { unavailable: `mount -t tmpfs is not permitted here (${detail})` };
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const chunk = Buffer.alloc(64 * 1024, 1);
      const fd = fs.openSync(filler, 'a');
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        fs.closeSync(fd);
      }
      // The last partial blocks too: a write of a few bytes must fail as well.
      const fd2 = fs.openSync(filler, 'a');
      try {
        for (;;) fs.writeSync(fd2, Buffer.alloc(512, 1));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        fs.closeSync(fd2);
      }
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The stand-in that runs everywhere: SQLite's `max_page_count` caps the database at its size now (plus `spare`
 * pages), so any write that needs a new page fails with SQLITE_FULL, exactly SQLite's answer on a full disk.
 * `uncap` lifts the limit again.
 */
export function capSqlitePages(connection: SQLite.Database, spare = 0): { uncap(): void } {
  const pages = connection.pragma('page_count', { simple: true }) as number;
  connection.pragma(`max_page_count = ${pages + spare}`);
  return { uncap: () => void connection.pragma('max_page_count = 4294967294') };
}
