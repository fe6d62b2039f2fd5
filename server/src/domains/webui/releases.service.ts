import type { ComponentVersion, ComponentVersionSet, ReleaseChannel } from '@shoko-ts/contract';
import { download, DownloadError } from './download.js';
import { compareVersions } from './theme-definition.js';

export const GITHUB_UNREACHABLE = 'Unable to use the GitHub API to check for an update. Check your connection.';
const CACHE_MS = 60 * 60_000;
const MAX_API_BYTES = 8 * 1024 * 1024;
const MINIMUM_SERVER_VERSION = /Minimum Server Version:\s*\*\*v?([\d.]+)\*\*/i;
const SERVER_TAG = /^v(\d+)\.(\d+)\.(\d+)(?:-dev\.(\d+))?$/;

interface GitHubRelease {
  tag_name: string;
  target_commitish?: string;
  body?: string | null;
  published_at?: string | null;
  created_at?: string | null;
  prerelease?: boolean;
  draft?: boolean;
  assets?: Array<{ name: string; browser_download_url: string }>;
}

/** GitHub could not be asked (offline, rate limited, unexpected answer): the routes answer 502. */
export class GitHubUnavailableError extends Error {}
/** GitHub answered, but no release fits (e.g. no dev tag). */
export class NoReleaseError extends Error {}

/** A console release that may be installed: its version and the zip to download. */
export interface WebUIRelease {
  version: ComponentVersion;
  zipUrl: string | null;
}

export interface ReleasesConfig {
  apiUrl: string;
  clientRepo: string;
  serverRepo: string;
  token?: string;
}

export function releasesConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ReleasesConfig {
  return {
    apiUrl: (env.SHOKO_GITHUB_API_URL?.trim() || 'https://api.github.com').replace(/\/+$/, ''),
    clientRepo: env.SHOKO_CLIENT_REPO?.trim() || 'ShokoAnime/Shoko-WebUI',
    serverRepo: env.SHOKO_SERVER_REPO?.trim() || 'ShokoAnime/ShokoServer',
    ...(env.GITHUB_TOKEN ? { token: env.GITHUB_TOKEN } : {}),
  };
}

const stripV = (tag: string) => tag.replace(/^v/i, '');
const isDevTag = (tag: string) => /-dev/i.test(tag);
const isCommit = (value: string | undefined): value is string => !!value && /^[0-9a-f]{7,40}$/i.test(value);

/**
 * Release look-ups for the console (WebUI/LatestVersion) and the server (WebUI/LatestServerVersion) on GitHub's API,
 * cached an hour per resolved channel. The configuration is read per call so tests can point it at a loopback fake.
 */
export class ReleasesService {
  private readonly cache = new Map<string, { at: number; value: WebUIRelease | ComponentVersion }>();

  constructor(
    private readonly versions: () => ComponentVersionSet,
    private readonly config: () => ReleasesConfig = releasesConfigFromEnv,
  ) {}

  /** Auto → the channel of the installed console, else the server's, else Stable. */
  resolveWebUIChannel(channel: ReleaseChannel): ReleaseChannel {
    if (channel !== 'Auto') return channel;
    const installed = this.versions().WebUI?.ReleaseChannel ?? this.versions().Server.ReleaseChannel;
    return installed && installed !== 'Auto' ? installed : 'Stable';
  }

  async latestWebUI(channel: ReleaseChannel, options: { force?: boolean; allowIncompatible?: boolean } = {}): Promise<WebUIRelease> {
    const resolved = this.resolveWebUIChannel(channel);
    const key = `webui:${this.config().clientRepo}:${resolved}:${options.allowIncompatible ? 'any' : 'compatible'}`;
    return this.cached(key, options.force, async () => {
      if (resolved === 'Dev' || resolved === 'Debug') {
        const dev = this.firstCompatible(await this.releases(this.config().clientRepo), true, options.allowIncompatible);
        if (dev) return dev;
      }
      return this.stableWebUI(options.allowIncompatible);
    });
  }

  async latestServer(channel: ReleaseChannel, options: { force?: boolean } = {}): Promise<ComponentVersion> {
    const own = this.versions().Server.ReleaseChannel;
    const resolved = channel === 'Auto' ? (own === 'Dev' ? 'Dev' : 'Stable') : channel === 'Dev' ? 'Dev' : 'Stable';
    const repo = this.config().serverRepo;
    return this.cached(`server:${repo}:${resolved}`, options.force, async () => {
      if (resolved === 'Stable') {
        const release = await this.api<GitHubRelease>(`/repos/${repo}/releases/latest`);
        return {
          Version: `${stripV(release.tag_name)}.0`,
          ReleaseChannel: 'Stable',
          Tag: release.tag_name,
          ...(isCommit(release.target_commitish) ? { Commit: release.target_commitish } : {}),
          ...(release.published_at ? { ReleaseDate: release.published_at } : {}),
          ...(release.body ? { Description: release.body } : {}),
        };
      }
      const tags = await this.api<Array<{ name: string; commit?: { sha?: string } }>>(`/repos/${repo}/tags?per_page=100`);
      let best: { version: string; tag: string; commit?: string } | null = null;
      for (const tag of tags) {
        const match = SERVER_TAG.exec(tag.name);
        if (!match) continue;
        const version = `${match[1]}.${match[2]}.${match[3]}.${match[4] ?? 0}`;
        if (!best || compareVersions(version, best.version) > 0)
          best = { version, tag: tag.name, ...(tag.commit?.sha ? { commit: tag.commit.sha } : {}) };
      }
      if (!best) throw new NoReleaseError('Unable to locate the latest release to use.');
      // Shoko describes how far the tag is ahead of the running build; this server is a separate code base, so the
      // description names the tag instead.
      return {
        Version: best.version,
        ReleaseChannel: 'Dev',
        Tag: best.tag,
        ...(best.commit ? { Commit: best.commit } : {}),
        Description: `Latest development tag ${best.tag}.`,
      };
    });
  }

  private async stableWebUI(allowIncompatible = false): Promise<WebUIRelease> {
    const repo = this.config().clientRepo;
    const latest = await this.api<GitHubRelease>(`/repos/${repo}/releases/latest`);
    if (allowIncompatible || this.isCompatible(latest)) return this.toRelease(latest, 'Stable');
    const compatible = this.firstCompatible(await this.releases(repo), false, false);
    if (compatible) return compatible;
    // Nothing compatible is published: the installed console is the latest one can use.
    const installed = this.versions().WebUI;
    return { version: { ...(installed ?? {}), Version: installed?.Version ?? '1.0.0' }, zipUrl: null };
  }

  private firstCompatible(releases: GitHubRelease[], includeDev: boolean, allowIncompatible: boolean | undefined): WebUIRelease | null {
    for (const release of releases) {
      if (release.draft) continue;
      const dev = isDevTag(release.tag_name);
      if (dev && !includeDev) continue;
      if (!release.assets?.some((asset) => asset.name.toLowerCase().endsWith('.zip'))) continue;
      if (!allowIncompatible && !this.isCompatible(release)) continue;
      return this.toRelease(release, dev ? 'Dev' : 'Stable');
    }
    return null;
  }

  private isCompatible(release: GitHubRelease): boolean {
    const minimum = MINIMUM_SERVER_VERSION.exec(release.body ?? '')?.[1];
    const server = this.versions().Server.Version;
    return !!minimum && !!server && compareVersions(minimum, server) <= 0;
  }

  private toRelease(release: GitHubRelease, channel: ReleaseChannel): WebUIRelease {
    const minimum = MINIMUM_SERVER_VERSION.exec(release.body ?? '')?.[1];
    const zip = release.assets?.find((asset) => asset.name.toLowerCase().endsWith('.zip'));
    return {
      version: {
        Version: stripV(release.tag_name),
        ...(minimum ? { MinimumServerVersion: minimum } : {}),
        ...(isCommit(release.target_commitish) ? { Commit: release.target_commitish } : {}),
        ReleaseChannel: channel,
        ...((release.published_at ?? release.created_at) ? { ReleaseDate: (release.published_at ?? release.created_at)! } : {}),
        Tag: release.tag_name,
        ...(release.body ? { Description: release.body } : {}),
      },
      zipUrl: zip?.browser_download_url ?? null,
    };
  }

  private releases(repo: string): Promise<GitHubRelease[]> {
    return this.api<GitHubRelease[]>(`/repos/${repo}/releases?per_page=100`);
  }

  private async cached<T extends WebUIRelease | ComponentVersion>(
    key: string,
    force: boolean | undefined,
    load: () => Promise<T>,
  ): Promise<T> {
    const hit = this.cache.get(key);
    if (!force && hit && Date.now() - hit.at < CACHE_MS) return hit.value as T;
    const value = await load();
    this.cache.set(key, { at: Date.now(), value });
    return value;
  }

  private async api<T>(pathAndQuery: string): Promise<T> {
    const config = this.config();
    try {
      const { body } = await download(`${config.apiUrl}${pathAndQuery}`, {
        maxBytes: MAX_API_BYTES,
        timeoutMs: 10_000,
        headers: {
          accept: 'application/vnd.github+json',
          'user-agent': 'shoko-ts',
          ...(config.token ? { authorization: `Bearer ${config.token}` } : {}),
        },
      });
      return JSON.parse(body.toString('utf8')) as T;
    } catch (error) {
      if (error instanceof DownloadError || error instanceof SyntaxError)
        throw new GitHubUnavailableError(GITHUB_UNREACHABLE, { cause: error });
      throw error;
    }
  }
}
