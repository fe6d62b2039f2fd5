const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** A byte count for people: 1024-based, one decimal from KB up (`1.5 GB`), whole bytes below. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${value} B`;
  // 1023.96 KB would round up to "1024.0 KB": show the next unit instead.
  if (Number(value.toFixed(1)) >= 1024 && unit < SIZE_UNITS.length - 1) return `1.0 ${SIZE_UNITS[unit + 1]}`;
  return `${value.toFixed(1)} ${SIZE_UNITS[unit]}`;
}

/** A server path split at either separator (the server may run on Windows or POSIX). */
function segments(path: string): string[] {
  return path.split(/[\\/]+/).filter(Boolean);
}

/** `Show/Season 1/Ep 01.mkv` → `{ name: 'Ep 01.mkv', directory: 'Show/Season 1' }`, keeping the path's own separator. */
export function splitRelativePath(relativePath: string): { name: string; directory: string } {
  const index = Math.max(relativePath.lastIndexOf('/'), relativePath.lastIndexOf('\\'));
  if (index < 0) return { name: relativePath, directory: '' };
  return { name: relativePath.slice(index + 1), directory: relativePath.slice(0, index) };
}

/** The last folder name of a path (`/mnt/anime/` → `anime`, `D:\\Anime` → `Anime`); `/` stays `/`. */
export function folderName(path: string): string {
  const parts = segments(path);
  return parts.length ? parts[parts.length - 1] : path;
}
