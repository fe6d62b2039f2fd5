import fs from 'node:fs/promises';
import { HashError } from './file-hashes.js';

/** How often a long read re-checks that the file still exists, so a deleted file fails early rather than at the end. */
const RECHECK_EVERY_BYTES = 256 * 1024 * 1024;

const reasons: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ELOOP: 'too many symbolic links',
  EIO: 'input/output error',
};

export function toHashError(error: unknown, path: string): HashError {
  if (error instanceof HashError) return error;
  const code = (error as NodeJS.ErrnoException)?.code ?? 'EHASH';
  const reason = reasons[code] ?? (error as Error)?.message ?? String(error);
  return new HashError(`Cannot hash ${path}: ${reason} (${code})`, code, path, { cause: error });
}

/**
 * A file read once, front to back, by whoever hashes it. Reading stops at the size seen when it was opened; the file
 * must keep that size and stay linked until the end, otherwise the digests would describe a file that never existed.
 */
export class FileSource {
  private position = 0;
  private checkedAt = 0;

  private constructor(
    readonly path: string,
    private readonly handle: fs.FileHandle,
    readonly size: number,
  ) {}

  static async open(path: string): Promise<FileSource> {
    try {
      // Checked before opening: opening a FIFO for reading would block until someone writes to it.
      const stat = await fs.stat(path);
      if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      if (!stat.isFile()) throw new HashError(`Cannot hash ${path}: not a regular file (ENOTFILE)`, 'ENOTFILE', path);
      const handle = await fs.open(path, 'r');
      const opened = await handle.stat().catch(async (error: unknown) => {
        await handle.close();
        throw error;
      });
      return new FileSource(path, handle, opened.size);
    } catch (error) {
      throw toHashError(error, path);
    }
  }

  /** Fills `target` with the next bytes of the file; returns how many (0 once the whole file was read). */
  async readInto(target: Uint8Array): Promise<number> {
    const wanted = Math.min(target.length, this.size - this.position);
    let filled = 0;
    try {
      while (filled < wanted) {
        const { bytesRead } = await this.handle.read(target, filled, wanted - filled, this.position + filled);
        if (bytesRead === 0) throw this.changed(`it shrank to ${this.position + filled} bytes`);
        filled += bytesRead;
      }
      this.position += filled;
      if (this.position - this.checkedAt >= RECHECK_EVERY_BYTES) {
        this.checkedAt = this.position;
        await this.checkUnchanged();
      }
    } catch (error) {
      throw toHashError(error, this.path);
    }
    return filled;
  }

  /** Fails when the file was deleted or changed size since it was opened. */
  async checkUnchanged(): Promise<void> {
    const stat = await this.handle.stat().catch((error: unknown) => {
      throw toHashError(error, this.path);
    });
    if (stat.nlink === 0)
      throw new HashError(`Cannot hash ${this.path}: the file was deleted while being hashed (ENOENT)`, 'ENOENT', this.path);
    if (stat.size !== this.size) throw this.changed(`its size went from ${this.size} to ${stat.size} bytes`);
  }

  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }

  private changed(how: string): HashError {
    return new HashError(`Cannot hash ${this.path}: the file changed while being hashed, ${how} (EFILECHANGED)`, 'EFILECHANGED', this.path);
  }
}
