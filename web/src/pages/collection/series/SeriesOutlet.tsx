import { useEffect } from 'react';
import { Outlet, useNavigate, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { isApiError } from '@/api/client';
import { useSeries } from '@/api/series';
import { Spinner } from '@/components/Spinner';
import { NavTabs } from '@/components/Tabs';
import { SeriesHeader } from '@/components/series/SeriesHeader';
import type { SeriesContext } from './seriesContext';

const tabs = [
  ['overview', 'Overview'],
  ['episodes', 'Episodes'],
  ['credits', 'Credits'],
  ['images', 'Images'],
  ['tags', 'Tags'],
  ['files', 'Files'],
] as const;

/** /collection/series/{seriesId}: the header panels, the tabs and the open tab. */
export default function SeriesOutlet() {
  const seriesId = Number(useParams().seriesId);
  const navigate = useNavigate();
  const series = useSeries(seriesId);

  useEffect(() => {
    // A series that cannot be loaded sends the user up one level, to the collection.
    if (!series.isError) return;
    toast.error(isApiError(series.error, 404) || isApiError(series.error, 400) ? 'Series Not Found' : series.error.message);
    navigate('/collection', { replace: true });
  }, [series.isError, series.error, navigate]);

  useEffect(() => {
    if (series.data) document.title = `${series.data.Name} | Shoko`;
    return () => {
      document.title = 'Shoko';
    };
  }, [series.data]);

  if (!series.data) {
    return (
      <div className="flex flex-1 items-center justify-center p-6">
        <Spinner />
      </div>
    );
  }
  const context: SeriesContext = { seriesId, series: series.data };
  return (
    <div className="flex flex-1 flex-col gap-4 p-3 md:p-6">
      <SeriesHeader series={series.data} />
      <NavTabs
        label="Series tabs"
        tone="hover"
        className="flex flex-wrap gap-2 rounded-lg border border-border bg-panel p-2"
        tabs={tabs.map(([to, label]) => ({ to, label }))}
      />
      <Outlet context={context} />
    </div>
  );
}
