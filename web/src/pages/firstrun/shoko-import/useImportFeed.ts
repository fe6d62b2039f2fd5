import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { SHOKO_IMPORT_PROGRESS_EVENT } from '@shoko-ts/contract';
import { setShokoImportStatus } from '@/api/shokoImport';
import { serverUrl } from '@/lib/basePath';
import { buildHubConnection, onAggregateEvent } from '@/realtime/connection';

const FEED_URL = serverUrl('/signalr/aggregate?feeds=shoko');
const RECONNECT_DELAYS = [1000, 2000, 5000];

/**
 * Import progress live from the aggregate hub's `shoko` feed, into the status query's cache. During the first run the
 * hub takes a connection without a key; once the import has written its accounts it no longer does, so a dropped
 * connection may not come back: the caller polls while this says it is not connected.
 */
export function useImportFeed(enabled: boolean): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    const connection = buildHubConnection(FEED_URL, { reconnectDelays: RECONNECT_DELAYS });
    let stopped = false;
    onAggregateEvent(connection, `ShokoEvent:${SHOKO_IMPORT_PROGRESS_EVENT}`, (status) => setShokoImportStatus(queryClient, status));
    connection.onreconnected(() => setConnected(true));
    connection.onreconnecting(() => setConnected(false));
    connection.onclose(() => setConnected(false));
    const started = connection
      .start()
      .then(() => {
        if (!stopped) setConnected(true);
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
      setConnected(false);
      void started.finally(() => connection.stop());
    };
  }, [enabled, queryClient]);

  return connected;
}
