import { useOutletContext } from 'react-router';
import type { Series } from '@shoko-ts/contract';

export interface SeriesContext {
  seriesId: number;
  series: Series;
}

/** The series the tab belongs to, loaded once by the series page frame. */
export const useSeriesContext = () => useOutletContext<SeriesContext>();
