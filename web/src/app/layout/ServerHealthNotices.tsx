import { useEffect, useState } from 'react';
import dayjs from 'dayjs';
import { mdiDatabaseOffOutline, mdiHarddisk, mdiPauseCircleOutline } from '@mdi/js';
import { useQueryClient } from '@tanstack/react-query';
import { healthKeys, useServerHealth } from '@/api/health';
import { formatFileSize } from '@/lib/format';
import { useAggregateState } from '@/realtime/AggregateHub';
import { Banner } from './Banner';

/**
 * The first health check waits this long after the layout draws: asked at once, it took one of the browser's six
 * connections from the page's own code and data, and its answer was often the last one the page waited for.
 */
const FIRST_CHECK_DELAY_MS = 2_000;

/**
 * What keeps the server from saving or working through its queue: a database that does not answer (PostgreSQL stopped
 * or unreachable), a full data disk (with the space left) and a queue that waits out a fault of the database (a full
 * disk, a lost connection) and resumes by itself.
 */
export function ServerHealthNotices() {
  const [started, setStarted] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setStarted(true), FIRST_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const { data: health } = useServerHealth(started);
  const { queue } = useAggregateState();
  const fault = queue?.Fault ?? null;
  const queryClient = useQueryClient();
  // A fault the queue meets (a full disk) is news for the disk's figures too.
  useEffect(() => {
    if (fault) void queryClient.invalidateQueries({ queryKey: healthKeys.report });
  }, [fault?.Reason, queryClient]); // eslint-disable-line react-hooks/exhaustive-deps
  const disk = health?.DataDisk;
  return (
    <>
      {health?.Database.Reachable === false && (
        <Banner tone="danger" icon={mdiDatabaseOffOutline} testId="database-unreachable">
          The {health.Database.Kind} database does not answer. Nothing can be read or saved until it is back; the server reconnects by
          itself and the queue carries on where it stopped.
        </Banner>
      )}
      {disk?.Full && (
        <Banner tone="danger" icon={mdiHarddisk} testId="data-disk-full">
          Data disk full{disk.FreeBytes !== null ? ` (${formatFileSize(disk.FreeBytes)} free)` : ''}. The server cannot save anything (new
          logins, imports, settings, watched states) until space is freed on its data disk; browsing still works.
        </Banner>
      )}
      {fault && (
        <Banner tone="warning" icon={mdiPauseCircleOutline} testId="queue-fault">
          The queue is paused: {fault.Reason}. It resumes by itself once that is over
          {fault.RetryAt ? ` (next try at ${dayjs(fault.RetryAt).format('HH:mm:ss')})` : ''}.
        </Banner>
      )}
    </>
  );
}
