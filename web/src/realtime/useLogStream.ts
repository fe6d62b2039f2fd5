import { useEffect, useState } from 'react';
import { LOGGING_HUB_PATH, type LogEvent } from '@shoko-ts/contract';
import { serverUrl } from '@/lib/basePath';
import { buildHubConnection, onLoggingEvent } from './connection';

export const LOGGING_HUB_URL = serverUrl(LOGGING_HUB_PATH);
/** Keep the page responsive on long sessions: the oldest lines beyond this are dropped. */
const MAX_LINES = 20_000;

export type LogStreamStatus = 'connecting' | 'live' | 'closed';

/** The server log: the backlog on connect, then every new line. */
export function useLogStream() {
  const [lines, setLines] = useState<LogEvent[]>([]);
  const [status, setStatus] = useState<LogStreamStatus>('connecting');
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const connection = buildHubConnection(LOGGING_HUB_URL);
    onLoggingEvent(connection, 'GetBacklog', (backlog) => setLines(Array.isArray(backlog) ? backlog.slice(-MAX_LINES) : []));
    onLoggingEvent(connection, 'Log', (line) =>
      setLines((previous) => (previous.length >= MAX_LINES ? [...previous.slice(1 - MAX_LINES), line] : [...previous, line])),
    );
    connection.onclose(() => setStatus('closed'));
    let stopped = false;
    const started = connection
      .start()
      .then(() => !stopped && setStatus('live'))
      .catch(() => !stopped && setStatus('closed'));
    return () => {
      stopped = true;
      void started.finally(() => connection.stop());
    };
  }, [attempt]);

  /** Connects again after the stream closed (the backlog replaces what is shown). */
  const reconnect = () => {
    setStatus('connecting');
    setAttempt((n) => n + 1);
  };
  return { lines, status, reconnect };
}
