import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHOKO_API_VERSION, type ComponentVersion, type ComponentVersionSet, type ReleaseChannel } from '@shoko-ts/contract';

/**
 * The checkout (or image) root: the nearest folder above this module with the workspace manifest. Searched, not
 * counted, because this module runs from src/domains/init, from tsc's dist/domains/init and from the dist/main.js bundle.
 */
function findRepoRoot(): string {
  const start = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = path.dirname(dir)) {
    try {
      if (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).workspaces) return dir;
    } catch {
      // No manifest here, or not ours: look further up.
    }
    if (path.dirname(dir) === dir) return path.resolve(start, '../../../..');
  }
}

const repoRoot = findRepoRoot();

/** Our product version (root package.json). */
export function productVersion(): string {
  try {
    return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The commit of the checkout we run from, read from .git without spawning git; SHOKO_COMMIT overrides. */
export function currentCommit(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.SHOKO_COMMIT) return env.SHOKO_COMMIT;
  try {
    const gitDir = path.join(repoRoot, '.git');
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    const ref = head.slice(5);
    const loose = path.join(gitDir, ref);
    if (fs.existsSync(loose)) return fs.readFileSync(loose, 'utf8').trim();
    const packed = fs.readFileSync(path.join(gitDir, 'packed-refs'), 'utf8');
    return packed
      .split('\n')
      .find((l) => l.endsWith(` ${ref}`))
      ?.split(' ')[0];
  } catch {
    return undefined;
  }
}

function readWebUIVersion(webuiDir: string | null): ComponentVersion | undefined {
  if (!webuiDir) return undefined;
  try {
    const info = JSON.parse(fs.readFileSync(path.join(webuiDir, 'version.json'), 'utf8'));
    return {
      Version: String(info.package),
      ...(info.tag ? { Tag: String(info.tag) } : {}),
      ...(info.channel ? { ReleaseChannel: info.channel as ReleaseChannel } : {}),
      ...(info.git ? { Commit: String(info.git) } : {}),
      ...(info.date ? { ReleaseDate: String(info.date) } : {}),
    };
  } catch {
    return undefined;
  }
}

export function versionSet(webuiDir: string | null, env: NodeJS.ProcessEnv = process.env): ComponentVersionSet {
  const commit = currentCommit(env);
  const channel: ReleaseChannel = (env.SHOKO_RELEASE_CHANNEL as ReleaseChannel | undefined) ?? 'Dev';
  // Server.Version is the Shoko API level we implement, so Shoko's own clients accept us; Product is ours.
  const server: ComponentVersion = { Version: SHOKO_API_VERSION, ReleaseChannel: channel, ...(commit ? { Commit: commit } : {}) };
  const webui = readWebUIVersion(webuiDir);
  return {
    Server: server,
    Commons: { Version: SHOKO_API_VERSION },
    Models: { Version: SHOKO_API_VERSION },
    MediaInfo: { Version: null },
    ...(webui ? { WebUI: webui } : {}),
    Product: { Version: productVersion(), ReleaseChannel: channel, ...(commit ? { Commit: commit } : {}) },
  };
}
