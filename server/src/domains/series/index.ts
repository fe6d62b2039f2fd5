// The series domain's public face: what other domains and the wiring may use of it.
export { relationType } from './details.store.js';
export type { SeriesRelation } from './details.store.js';
export { SERIES_FORBIDDEN, SERIES_NOT_FOUND, SeriesAccess, callerId } from './series-access.js';
export {
  COUNT_KEY_BY_EPISODE_TYPE,
  SeriesBrowseStore,
  anidbImage,
  animeType,
  byAirDate,
  emptyImages,
  emptySizes,
  fileSourceOf,
  iso,
  posterOf,
} from './series-browse.store.js';
export type { SeriesRow, Viewer } from './series-browse.store.js';
export { bestMatch, compareMatches } from './series-search.js';
export { SeriesService } from './series.service.js';
export { SeriesStore } from './series.store.js';
