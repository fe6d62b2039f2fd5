import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../db/schema.js';
import { TmdbApi } from './tmdb-api.js';
import { TmdbLinking } from './tmdb-linking.service.js';
import { TmdbSync, type TmdbSyncDeps } from './tmdb-sync.service.js';
import { TmdbService } from './tmdb.service.js';
import { TmdbStore } from './tmdb.store.js';
import { TmdbXrefTransfer } from './tmdb-xref-transfer.service.js';
import { TmdbXrefTransferStore } from './tmdb-xref-transfer.store.js';

export interface TmdbDomain {
  api: TmdbApi;
  store: TmdbStore;
  sync: TmdbSync;
  /** `linking.queueAutoMatch(animeId)` after an AniDB anime is stored. */
  linking: TmdbLinking;
  service: TmdbService;
}

/** Builds the TMDB domain over its store: client holder, sync (refresh jobs), auto-linking and the read service. */
export function createTmdbDomain(deps: Omit<TmdbSyncDeps, 'api' | 'store'> & { db: Kysely<Database> }): TmdbDomain {
  const api = new TmdbApi(deps.settings, deps.logger);
  const store = new TmdbStore(deps.db);
  const sync = new TmdbSync({
    api,
    store,
    settings: deps.settings,
    queue: deps.queue,
    bus: deps.bus,
    logger: deps.logger,
    queueImageDownloads: deps.queueImageDownloads,
  });
  const linking = new TmdbLinking({ api, store, sync, settings: deps.settings, queue: deps.queue, logger: deps.logger });
  return { api, store, sync, linking, service: new TmdbService({ api, store }) };
}

/** `Tmdb/Export` and `Tmdb/Import` over their own store; imports queue missing shows and movies through the domain's sync. */
export function createTmdbXrefTransfer(db: Kysely<Database>, tmdb: TmdbDomain, logger: Logger): TmdbXrefTransfer {
  return new TmdbXrefTransfer({ store: new TmdbXrefTransferStore(db), sync: tmdb.sync, logger });
}
