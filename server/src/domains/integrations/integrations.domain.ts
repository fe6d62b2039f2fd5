/**
 * DESIGN — integrations domain: Trakt (device-code linking, token refresh: trakt.service.ts; show/movie links and the
 * watched-state sync jobs: trakt.sync.ts; scrobbles and watched toggles as they happen: trakt.scrobble.ts; SQL:
 * trakt.store.ts; Trakt's rate limits: trakt.limiter.ts) and Plex (PIN login,
 * servers, libraries: plex.service.ts; watched-state sync jobs: plex.sync.ts; the webhook that marks scrobbled
 * episodes watched: plex-webhook.ts), contract server.md §8. Routes:
 * integrations.routes.ts; SQL: plex.store.ts (tokens on the user record, file matching, watch state); protocol clients:
 * trakt.client.ts, plex.client.ts. Trakt tokens live in settings; a Plex-watched file is marked through scrobbling.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.js';
import type { EventBus } from '../../events/bus.js';
import type { QueueService } from '../../jobs/queue.service.js';
import type { SettingsService } from '../settings/index.js';
import { plexClientFromEnv } from './plex.client.js';
import { PlexService } from './plex.service.js';
import { PlexWebhook } from './plex-webhook.js';
import { PlexStore } from './plex.store.js';
import { PlexSync } from './plex.sync.js';
import { traktClientFromEnv } from './trakt.client.js';
import { TraktService } from './trakt.service.js';
import { TraktScrobbler } from './trakt.scrobble.js';
import { TraktStore } from './trakt.store.js';
import { TraktSync } from './trakt.sync.js';

export interface IntegrationsDomain {
  trakt: TraktService;
  traktSync: TraktSync;
  traktScrobbler: TraktScrobbler;
  plex: PlexService;
  plexSync: PlexSync;
  /** `POST /plex` (Plex's webhook): scrobbles mark episodes watched. */
  webhook: PlexWebhook;
  /** Stops the Trakt token check, the sync schedule, any device-code polling and the scrobble listeners. */
  stop(): void;
}

/**
 * Trakt and Plex. Base URLs come from `SHOKO_TRAKT_URL`, `SHOKO_PLEXTV_URL` and `SHOKO_PLEX_APP_URL` (the fakes in
 * tests), Trakt's application credentials from `SHOKO_TRAKT_CLIENT_ID` / `SHOKO_TRAKT_CLIENT_SECRET`.
 */
export function createIntegrations(deps: {
  db: Kysely<Database>;
  settings: SettingsService;
  bus: EventBus;
  queue: QueueService;
  logger: Logger;
  serverVersion: string;
  /** Marks a file (and its episodes) watched for a user: what a player's scrobble does. */
  markWatched(userId: number, fileId: number): Promise<void>;
  /** Marks an episode watched for a user, as `Episode/{id}/Watched/true` does for them (403/404 if hidden or gone). */
  setEpisodeWatched(userId: number, episodeId: number): Promise<void>;
  /** Marks episodes watched for a user as Trakt's sync does (announced with source Trakt, so not sent back). */
  markWatchedFromTrakt(userId: number, episodeIds: number[]): Promise<void>;
}): IntegrationsDomain {
  const plexStore = new PlexStore(deps.db);
  const traktStore = new TraktStore(deps.db);
  const trakt = new TraktService({
    client: traktClientFromEnv(),
    settings: deps.settings,
    bus: deps.bus,
    logger: deps.logger.child({ name: 'Trakt' }),
  });
  const traktSync = new TraktSync({
    trakt,
    store: traktStore,
    settings: deps.settings,
    queue: deps.queue,
    logger: deps.logger.child({ name: 'Trakt' }),
    markWatched: deps.markWatchedFromTrakt,
  });
  const traktScrobbler = new TraktScrobbler({
    bus: deps.bus,
    trakt,
    sync: traktSync,
    store: traktStore,
    logger: deps.logger.child({ name: 'Trakt' }),
  });
  const plexClient = plexClientFromEnv(deps.serverVersion);
  const plex = new PlexService({
    client: plexClient,
    tokens: plexStore,
    settings: deps.settings,
    logger: deps.logger.child({ name: 'Plex' }),
  });
  const plexSync = new PlexSync({
    client: plexClient,
    plex,
    store: plexStore,
    settings: deps.settings,
    queue: deps.queue,
    markWatched: deps.markWatched,
  });
  const webhook = new PlexWebhook({
    store: plexStore,
    settings: deps.settings,
    logger: deps.logger.child({ name: 'Plex' }),
    setEpisodeWatched: deps.setEpisodeWatched,
  });
  trakt.start();
  traktSync.start();
  return {
    trakt,
    traktSync,
    traktScrobbler,
    plex,
    plexSync,
    webhook,
    stop: () => {
      trakt.stop();
      traktSync.stop();
      traktScrobbler.stop();
    },
  };
}
