import { badRequest } from '../../http/problem.js';
import { JobPriority, type JobContext, type JobDefinition } from '../../jobs/job.js';
import type { QueueService } from '../../jobs/queue.service.js';
import type { SettingsService } from '../settings/index.js';
import type { PlexClient, PlexEpisode } from './plex.client.js';
import type { PlexService } from './plex.service.js';
import type { PlexStore } from './plex.store.js';

interface SyncPayload {
  userId: number;
}

/** The last two segments of a path (folder and file name), whichever separator the machine that wrote it uses. */
export function pathTail(path: string): string[] {
  return path.split(/[\\/]/).filter(Boolean).slice(-2);
}

/**
 * Watched-state sync between Plex and one Shoko user (external-services.md §4.5): every episode of the selected
 * libraries is matched to a local file by its folder and file name; watched here but not in Plex → scrobbled in
 * Plex, watched in Plex but not here → marked watched here.
 */
export class PlexSync {
  readonly job: JobDefinition<SyncPayload>;

  constructor(
    private readonly deps: {
      client: PlexClient;
      plex: PlexService;
      store: PlexStore;
      settings: SettingsService;
      queue: QueueService;
      markWatched(userId: number, fileId: number): Promise<void>;
    },
  ) {
    this.job = {
      kind: 'SyncPlexWatchedStatesJob',
      type: 'Sync Plex States for User',
      title: 'Syncing Plex Watched States',
      group: 'Plex',
      priority: JobPriority.Maintenance,
      key: (p) => String(p.userId),
      details: (p) => ({ UserID: p.userId }),
      run: (p, ctx) => this.run(p.userId, ctx),
    };
    deps.queue.register(this.job);
  }

  /** `GET /plex/sync` (caller) and `GET /plex/sync/{id}` (admin; the user must have linked Plex). */
  async queueFor(userId: number, options: { requireToken: boolean }): Promise<void> {
    if (options.requireToken && !(await this.deps.store.token(userId))) throw badRequest('Invalid User ID');
    await this.deps.queue.enqueue(this.job, { userId });
  }

  /** `GET /plex/sync/all`: every user with a Plex token. */
  async queueAll(): Promise<number> {
    const userIds = await this.deps.store.userIdsWithToken();
    return this.deps.queue.enqueueMany(
      this.job,
      userIds.map((userId) => ({ userId })),
    );
  }

  private async run(userId: number, ctx: JobContext): Promise<void> {
    const libraries = this.deps.settings.current.Plex.Libraries;
    if (!libraries.length || !(await this.deps.store.token(userId))) return;
    const target = await this.deps.plex.selectedServer(userId);
    if (!target) {
      ctx.logger.warn(`Plex sync for user ${userId}: the selected server is not on the account`);
      return;
    }
    const { uri, server } = target;
    let scrobbled = 0;
    let marked = 0;
    for (const [index, section] of libraries.entries()) {
      for (const show of await this.deps.client.shows(uri, server.accessToken, section)) {
        if (ctx.signal.aborted) return;
        for (const episode of await this.deps.client.episodes(uri, server.accessToken, show)) {
          const outcome = await this.syncEpisode(userId, episode, uri, server.accessToken);
          if (outcome === 'scrobbled') scrobbled++;
          if (outcome === 'marked') marked++;
        }
      }
      ctx.progress((index + 1) / libraries.length);
    }
    ctx.logger.info(`Plex sync for user ${userId}: ${scrobbled} marked watched in Plex, ${marked} marked watched here`);
  }

  private async syncEpisode(userId: number, episode: PlexEpisode, uri: string, token: string): Promise<'scrobbled' | 'marked' | null> {
    for (const plexPath of episode.files) {
      const fileId = await this.localFile(plexPath);
      if (fileId === null) continue;
      const watchedHere = await this.deps.store.isWatched(userId, fileId);
      if (watchedHere && episode.viewCount === 0) {
        await this.deps.client.scrobble(uri, token, episode.ratingKey);
        return 'scrobbled';
      }
      if (!watchedHere && episode.viewCount > 0) {
        await this.deps.markWatched(userId, fileId);
        return 'marked';
      }
      return null;
    }
    return null;
  }

  private async localFile(plexPath: string): Promise<number | null> {
    const tail = pathTail(plexPath);
    if (!tail.length) return null;
    const candidates = await this.deps.store.locationsEndingWith(tail[tail.length - 1]);
    const match = candidates.find((c) => {
      const local = pathTail(c.relative_path);
      return local.length === tail.length && local.every((segment, i) => segment === tail[i]);
    });
    return match?.file_id ?? null;
  }
}
