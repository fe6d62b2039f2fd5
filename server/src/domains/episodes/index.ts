// Episodes: their models, files, images, TMDB links, watch state, votes and hiding.
// This is its public face: what other domains and the wiring may use of it.
export { anidbEpisodeModel, timeSpan } from './episode-models.js';
export { dataFrom, episodeTypes, listOf, voteValue } from './episode-query.js';
export { EpisodesService } from './episodes.service.js';
export { createEpisodesDomain } from './episodes.wiring.js';
export { registerEpisodeTmdbRoutes } from './episode-tmdb.routes.js';
export { registerEpisodeRoutes } from './episodes.routes.js';
