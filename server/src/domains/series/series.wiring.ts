import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { DetailsStore } from './details.store.js';
import { SeriesCatalog } from './series-catalog.service.js';
import { SeriesCatalogStore } from './series-catalog.store.js';
import { SeriesEditing } from './series-editing.service.js';
import { SeriesImagesService } from './series-images.service.js';
import { SeriesImagesStore } from './series-images.store.js';
import type { AccountCache } from '../../db/account-cache.js';
import type { DialectName } from '../../db/database.js';
import { SeriesAccess } from './series-access.js';
import { createSeriesModels, type SeriesModels } from './series-models.js';
import { SeriesService } from './series.service.js';
import { SeriesStore } from './series.store.js';
import { TmdbSeasons } from './tmdb-seasons.service.js';
import { TmdbSeasonsStore } from './tmdb-seasons.store.js';

type SeriesDeps = ConstructorParameters<typeof SeriesService>[0];
type EditingDeps = ConstructorParameters<typeof SeriesEditing>[0];
type CatalogDeps = ConstructorParameters<typeof SeriesCatalog>[0];

export interface SeriesDomain {
  /** Series page: episodes, watch state, votes. */
  service: SeriesService;
  /** Series lists, search, folders, years, seasons and the stored AniDB anime. */
  catalog: SeriesCatalog;
  /** Title override, auto-match settings and the per-series Trakt syncs. */
  editing: SeriesEditing;
  /** Series/{id}/TMDB/Season. */
  tmdbSeasons: TmdbSeasons;
  /** What other domains read of series: viewers, Series models of id pages, the visibility condition. */
  models: SeriesModels;
}

/**
 * Builds the series services over the series store and access rules (made first: tags and episodes use them too),
 * with what they show of other domains: tags, episodes, images, TMDB links, group recounts and Trakt syncs.
 */
export function createSeriesDomain(
  deps: {
    db: Kysely<Database>;
    /** The series read service (createSeriesModels), made first: groups and filters read series through it too. */
    browse: SeriesModels;
    images: ConstructorParameters<typeof SeriesImagesService>[1];
    tmdb: SeriesDeps['tmdb'] & EditingDeps['tmdb'];
  } & Pick<SeriesDeps, 'access' | 'store' | 'tags' | 'episodes'> &
    Pick<EditingDeps, 'groups' | 'settings' | 'bus' | 'queueTraktSync'> &
    Pick<CatalogDeps, 'onCollectionChange'>,
): SeriesDomain {
  const { db, access, store, browse, settings } = deps;
  const details = new DetailsStore(db);
  const service = new SeriesService({
    access,
    browse,
    store,
    details,
    tags: deps.tags,
    images: new SeriesImagesService(new SeriesImagesStore(db), deps.images),
    tmdb: deps.tmdb,
    episodes: deps.episodes,
  });
  const catalogStore = new SeriesCatalogStore(db, browse);
  const editing = new SeriesEditing({
    access,
    store,
    catalog: catalogStore,
    groups: deps.groups,
    tmdb: deps.tmdb,
    settings,
    bus: deps.bus,
    queueTraktSync: deps.queueTraktSync,
  });
  const catalog = new SeriesCatalog({
    store: catalogStore,
    access,
    browse,
    details,
    settings,
    series: service,
    onCollectionChange: deps.onCollectionChange,
  });
  const tmdbSeasons = new TmdbSeasons({ access, series: store, store: new TmdbSeasonsStore(db), images: deps.images });
  return { service, catalog, editing, tmdbSeasons, models: browse };
}

/** What series lend the rest of the server first (groups, filters, tags, episodes and files use them): reads and access. */
export interface SeriesReads {
  models: SeriesModels;
  store: SeriesStore;
  access: SeriesAccess;
}

/** Builds the series' reads and access rules, before the domains that use them and before the series services. */
export function createSeriesReads(deps: { db: Kysely<Database>; dialect: DialectName; accounts: AccountCache }): SeriesReads {
  const models = createSeriesModels(deps);
  const store = new SeriesStore(deps.db);
  return { models, store, access: new SeriesAccess(models, store) };
}
