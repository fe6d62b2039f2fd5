import { textError } from '../../http/problem.js';
import type { Viewer } from '../../http/viewer.js';
import type { SeriesBrowseStore } from './series-browse.store.js';
import type { SeriesStore } from './series.store.js';

export const SERIES_NOT_FOUND = 'No Series entry for the given seriesID';
export const SERIES_FORBIDDEN = 'Accessing Series is not allowed for the current user';

/** Who may see which series: the 404 and restricted-tag (403) checks every series route makes first. */
export class SeriesAccess {
  constructor(
    private readonly browse: Pick<SeriesBrowseStore, 'viewer' | 'isSeriesAllowed'>,
    private readonly store: Pick<SeriesStore, 'series'>,
  ) {}

  viewer(userId: number | null): Promise<Viewer> {
    return this.browse.viewer(userId);
  }

  isAnimeAllowed(viewer: Viewer, animeId: number): Promise<boolean> {
    return this.browse.isSeriesAllowed(viewer, animeId);
  }

  /** True when the series exists and the viewer may see it (the same checks, answered instead of thrown). */
  async isVisible(viewer: Viewer, seriesId: number): Promise<boolean> {
    const series = await this.store.series(seriesId);
    return !!series && (await this.browse.isSeriesAllowed(viewer, series.anime_id));
  }

  /** The series row, after the 404 and restricted-tag (403) checks. */
  async allowedSeries(viewer: Viewer, seriesId: number) {
    const series = await this.store.series(seriesId);
    if (!series) throw textError(404, SERIES_NOT_FOUND);
    if (!(await this.browse.isSeriesAllowed(viewer, series.anime_id))) throw textError(403, SERIES_FORBIDDEN);
    return series;
  }
}
