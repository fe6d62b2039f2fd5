import { SeriesParams, SeriesTmdbSeasonQuery } from '@shoko-ts/contract';
import type { App } from '../../http/types.js';
import { callerId } from '../../http/viewer.js';
import type { TmdbSeasons } from './tmdb-seasons.service.js';

/** GET Series/{id}/TMDB/Season (contract §5.9); the other Series/{id}/TMDB routes are the tmdb domain's. */
export function registerSeriesTmdbRoutes(app: App, deps: { seasons: TmdbSeasons }) {
  app.get(
    '/api/v3/Series/:seriesID/TMDB/Season',
    { schema: { tags: ['Series'], params: SeriesParams, querystring: SeriesTmdbSeasonQuery } },
    (request) => deps.seasons.ofSeries(callerId(request.principal), request.params.seriesID, request.query),
  );
}
