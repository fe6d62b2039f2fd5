// Series: their models, access rules, pages, catalog, search, editing and TMDB seasons.
// This is its public face: what other domains and the wiring may use of it.
export { anidbTitleModel, relationType } from './details.store.js';
export type { SeriesRelation } from './details.store.js';
export { SERIES_FORBIDDEN, SERIES_NOT_FOUND, SeriesAccess } from './series-access.js';
export {
  COUNT_KEY_BY_EPISODE_TYPE,
  anidbImage,
  animeType,
  byAirDate,
  emptyImages,
  emptySizes,
  fileSourceOf,
  iso,
  posterOf,
} from './series-browse.store.js';
export type { SeriesRow } from './series-browse.store.js';
export { createSeriesModels } from './series-models.js';
export type { SeriesModels } from './series-models.js';
export { SeriesService } from './series.service.js';
export { SeriesStore } from './series.store.js';
export { eventOutdatesSearch, jobOutdatesSearch } from './series-search.js';
export { createSeriesDomain, createSeriesReads } from './series.wiring.js';
export type { SeriesDomain, SeriesReads } from './series.wiring.js';
export { registerSeriesCatalogRoutes } from './series-catalog.routes.js';
export { registerSeriesEditingRoutes } from './series-editing.routes.js';
export { registerSeriesTmdbRoutes } from './series-tmdb.routes.js';
export { registerSeriesRoutes } from './series.routes.js';
