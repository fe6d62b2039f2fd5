import fs from 'node:fs/promises';
import path from 'node:path';

export interface WalkFilter {
  /** Upper-case extensions without the dot. */
  extensions: Set<string>;
  exclude: RegExp[];
}

export interface FoundFile {
  relativePath: string;
  size: number;
  mtimeMs: number;
}

/** Builds the filter from the Import settings; invalid exclusion patterns are reported and skipped. */
export function walkFilter(
  settings: { VideoExtensions: string[]; Exclude: string[] },
  onBadPattern?: (pattern: string) => void,
): WalkFilter {
  const exclude: RegExp[] = [];
  for (const pattern of settings.Exclude) {
    try {
      exclude.push(new RegExp(pattern, 'i'));
    } catch {
      onBadPattern?.(pattern);
    }
  }
  const extensions = new Set(settings.VideoExtensions.map((ext) => ext.trim().replace(/^\./, '').toUpperCase()).filter(Boolean));
  return { extensions, exclude };
}

export function isWantedFile(absolutePath: string, filter: WalkFilter): boolean {
  const ext = path.extname(absolutePath).slice(1).toUpperCase();
  return filter.extensions.has(ext) && !filter.exclude.some((pattern) => pattern.test(absolutePath));
}

/**
 * Every wanted video file under `root`, depth first. Unreadable folders are reported and skipped, symlinked folders
 * are not followed (they could loop or leave the import folder), and nothing is read but directory entries and sizes.
 */
export async function* walkFolder(
  root: string,
  filter: WalkFilter,
  onError?: (dir: string, error: Error) => void,
): AsyncGenerator<FoundFile> {
  const pending = [root];
  while (pending.length) {
    const dir = pending.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      onError?.(dir, error as Error);
      continue;
    }
    const files: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!filter.exclude.some((pattern) => pattern.test(full + path.sep))) pending.push(full);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && isWantedFile(full, filter)) {
        files.push(full);
      }
    }
    const stats = await Promise.all(files.map((file) => fs.stat(file).catch(() => null)));
    for (let i = 0; i < files.length; i++) {
      const stat = stats[i];
      if (!stat?.isFile()) continue;
      yield { relativePath: path.relative(root, files[i]), size: stat.size, mtimeMs: stat.mtimeMs };
    }
  }
}
