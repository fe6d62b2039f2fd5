import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ImageDeps } from './tmdb-local-models.js';
import { TmdbLocalSeasons } from './tmdb-local-seasons.service.js';
import { TmdbLocalService, type TmdbLocalDeps } from './tmdb-local.service.js';
import { TmdbLocalStore } from './tmdb-local.store.js';
import type { TmdbDomain } from './tmdb.domain.js';

/** Builds the local-data TMDB readers (tmdb-local.routes.ts) over the TMDB domain and their own store. */
export function createTmdbLocal(
  db: Kysely<Database>,
  tmdb: TmdbDomain,
  images: ImageDeps,
  fileCrossReferences: TmdbLocalDeps['fileCrossReferences'],
) {
  const deps = { service: tmdb.service, store: tmdb.store, local: new TmdbLocalStore(db), sync: tmdb.sync, images, fileCrossReferences };
  const local = new TmdbLocalService(deps);
  return { local, seasons: new TmdbLocalSeasons(deps, local) };
}
