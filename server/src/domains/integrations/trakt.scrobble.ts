import type { Logger } from 'pino';
import type { EventBus, ServerEvents } from '../../events/bus.js';
import type { TraktScrobbleAction } from './trakt.client.js';
import type { TraktService } from './trakt.service.js';
import type { TraktStore } from './trakt.store.js';
import type { TraktSync } from './trakt.sync.js';

/** Player events (File/{id}/Scrobble `event`) and the Trakt scrobble each one is. */
const ACTIONS: Record<string, TraktScrobbleAction> = {
  play: 'start',
  resume: 'start',
  pause: 'pause',
  stop: 'stop',
  scrobble: 'stop',
};

/**
 * Follows what users who sync with Trakt do: a player's reports become Trakt scrobbles (start, pause, stop at the
 * reported progress; a file the report marks watched stops at 100 %, which Trakt records as a play), and watched
 * toggles are queued for the history (trakt.sync.ts). Trakt's own sync and a player's "watched" (already scrobbled)
 * are not sent back.
 */
export class TraktScrobbler {
  private readonly unsubscribe: Array<() => void>;
  /** The event being handled, so scrobbles reach Trakt in the order players sent them. */
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly deps: { bus: EventBus; trakt: TraktService; sync: TraktSync; store: TraktStore; logger: Logger }) {
    this.unsubscribe = [
      deps.bus.on('watched:changed', (change) => {
        if (change.source === 'Trakt' || (change.source === 'Player' && change.watched)) return;
        this.after(
          () => deps.sync.episodesChanged(change.userId, change.episodeIds, change.watched),
          'Queueing a watched state for Trakt failed',
        );
      }),
      deps.bus.on('playback', (report) => this.after(() => this.scrobble(report), 'Scrobbling to Trakt failed')),
    ];
  }

  /** Handles events one at a time, in the order they came. */
  private after(work: () => Promise<void>, failure: string): void {
    this.pending = this.pending.then(() =>
      work().catch((error) => this.deps.logger.warn(`${failure}: ${error instanceof Error ? error.message : String(error)}`)),
    );
  }

  /** Resolves when the events received so far were handled (scrobbles sent, watched toggles queued). */
  idle(): Promise<void> {
    return this.pending;
  }

  private async scrobble(report: ServerEvents['playback']): Promise<void> {
    const action = report.watched === true ? 'stop' : ACTIONS[report.event];
    if (!action || !this.deps.trakt.linked || !report.episodeIds.length) return;
    // Trakt needs a progress; a stop without one says nothing about how far the user got.
    if (report.progress === null && action === 'stop') return;
    if (!(await this.deps.store.traktUserIds()).includes(report.userId)) return;
    const targets = await this.deps.store.targets({ episodeIds: report.episodeIds });
    const target = targets.find((t) => t.tmdbEpisodeId !== null || t.tmdbMovieId !== null);
    if (!target || !(await this.deps.sync.linkedForScrobble(target.animeId))) return;
    const item =
      target.tmdbMovieId !== null
        ? { movie: { tmdb: target.tmdbMovieId } }
        : { episode: { tmdb: target.tmdbEpisodeId ?? undefined, tvdb: target.tvdbEpisodeId ?? undefined } };
    const done = await this.deps.trakt.withToken((client, token) => client.scrobble(token, action, item, report.progress ?? 0));
    this.deps.logger.debug(`Trakt scrobble ${action} of episode ${target.episodeId}: ${done ?? 'not known to Trakt'}`);
  }

  stop(): void {
    for (const off of this.unsubscribe) off();
  }
}
