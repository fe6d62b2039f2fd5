import type { ComponentVersion } from '@shoko-ts/contract';

/** The oldest Shoko server (API level) this console works with. */
export const MINIMUM_SERVER_VERSION = '5.3.3.0';

export const WEBUI_VERSION: string = __WEBUI_VERSION__;

interface SemVer {
  core: [number, number, number];
  pre: string[];
}

function parseSemVer(text: string): SemVer | null {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+.*)?$/.exec(text.trim());
  if (!match) return null;
  return { core: [Number(match[1]), Number(match[2]), Number(match[3])], pre: match[4] ? match[4].split('.') : [] };
}

function comparePre(a: string[], b: string[]): number {
  if (!a.length || !b.length) return a.length ? -1 : b.length ? 1 : 0;
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    if (a[i] === undefined) return -1;
    if (b[i] === undefined) return 1;
    const an = /^\d+$/.test(a[i]) ? Number(a[i]) : NaN;
    const bn = /^\d+$/.test(b[i]) ? Number(b[i]) : NaN;
    if (!Number.isNaN(an) && !Number.isNaN(bn)) {
      if (an !== bn) return an < bn ? -1 : 1;
    } else if (a[i] !== b[i]) {
      if (!Number.isNaN(an)) return -1;
      if (!Number.isNaN(bn)) return 1;
      return a[i] < b[i] ? -1 : 1;
    }
  }
  return 0;
}

/** Semantic-version order; unparsable input sorts first. */
export function compareSemVer(a: string, b: string): number {
  const left = parseSemVer(a);
  const right = parseSemVer(b);
  if (!left || !right) return left ? 1 : right ? -1 : 0;
  for (let i = 0; i < 3; i += 1) {
    if (left.core[i] !== right.core[i]) return left.core[i] < right.core[i] ? -1 : 1;
  }
  return comparePre(left.pre, right.pre);
}

/** A server's four-part version `a.b.c.d` read the way Shoko's console reads it: semver `a.b.c-dev.d`. */
export function serverVersionAsSemVer(version: string): string {
  const parts = version.trim().split('.');
  if (parts.length === 4 && parts.every((part) => /^\d+$/.test(part))) {
    return `${parts[0]}.${parts[1]}.${parts[2]}-dev.${parts[3]}`;
  }
  return version.trim();
}

/** False only when the server states a version older than we support; Debug builds are always accepted. */
export function isServerSupported(server: ComponentVersion | undefined): boolean {
  if (!server || server.ReleaseChannel === 'Debug') return true;
  if (!server.Version) return false;
  return compareSemVer(serverVersionAsSemVer(server.Version), serverVersionAsSemVer(MINIMUM_SERVER_VERSION)) >= 0;
}

/** `5.3.3.0` on Stable; `5.3.3.0-Dev (abcdef1)` elsewhere. */
export function formatVersion(component: ComponentVersion | undefined): string {
  if (!component?.Version) return 'Unknown';
  const channel = component.ReleaseChannel;
  if (!channel || channel === 'Stable') return component.Version;
  const commit = component.Commit ? ` (${component.Commit.slice(0, 7)})` : '';
  return `${component.Version}-${channel}${commit}`;
}
