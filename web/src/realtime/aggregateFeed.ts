import type { HubConnection } from '@microsoft/signalr';
import { AGGREGATE_HUB_PATH, FILE_EVENT_NAMES, type AggregateHubEvent, type AggregateHubPayload } from '@shoko-ts/contract';
import { serverUrl } from '@/lib/basePath';
import { getApiKey } from '@/lib/session';

/**
 * SignalR's code (about 55 kB) is loaded beside the page's scripts rather than in the entry: the feed asks for it at
 * start-up, so it still connects before the page's data is asked for, and a page that never connects never waits for it.
 */
const loadConnection = () => import('./connection');

export const AGGREGATE_HUB_URL = serverUrl(`${AGGREGATE_HUB_PATH}?feeds=anidb,shoko,queue,network,avdump,revision`);
export const RECONNECT_DELAYS = [5000, 15000, 30000, 60000, 90000];

/** The events the console listens to; those sent before a listener is set are kept and handed to it. */
export const LISTENED_EVENTS = [
  'Queue:OnConnected',
  'Queue:QueueStateChanged',
  'Network:OnConnected',
  'Network:NetworkAvailabilityChanged',
  'AniDB:OnConnected',
  'AniDB:AniDBUDPStateUpdate',
  'AniDB:AniDBHttpStateUpdate',
  'AVDump:OnConnected',
  'AVDump:Event',
  'ShokoEvent:ImportFolderAvailabilityChanged',
  'Revision:OnConnected',
  ...FILE_EVENT_NAMES.map((name) => `ShokoEvent:${name}` as const),
] as const satisfies readonly AggregateHubEvent[];
type ListenedEvent = (typeof LISTENED_EVENTS)[number];

export type AggregateHandlers = { [E in ListenedEvent]?: (payload: AggregateHubPayload<E>) => void };

export interface FeedListener {
  handlers: AggregateHandlers;
  /** Connected; `afterDrop` when it is a reconnection or a first start that only succeeded on a retry. */
  onConnected: (afterDrop: boolean) => void;
  onDisconnected: () => void;
}

/** The aggregate hub's connection: started once, events kept until a listener takes them. */
export interface AggregateFeed {
  /** Sets the one listener; events and a connection it missed so far are handed to it at once. */
  listen: (listener: FeedListener) => () => void;
  stop: () => Promise<void>;
}

/**
 * Opens the live feed: connects at once, first straight to a WebSocket, and when that fails through the negotiate
 * request (which can fall back to long polling), a failed start being retried on the reconnect schedule.
 */
export function openAggregateFeed(
  loadHub: () => Promise<Pick<typeof import('./connection'), 'buildHubConnection'>> = loadConnection,
): AggregateFeed {
  let listener: FeedListener | null = null;
  const kept: Array<[ListenedEvent, unknown]> = [];
  // A connection seen before the listener came: handed to it once it does.
  let connectedState: { afterDrop: boolean } | null = null;

  const connected = (afterDrop: boolean) => {
    if (listener) listener.onConnected(afterDrop);
    else connectedState = { afterDrop: afterDrop || (connectedState?.afterDrop ?? false) };
  };
  const disconnected = () => listener?.onDisconnected();
  const connect = async (webSocketOnly: boolean): Promise<HubConnection> => {
    const { buildHubConnection } = await loadHub();
    const connection = buildHubConnection(AGGREGATE_HUB_URL, { reconnectDelays: RECONNECT_DELAYS, webSocketOnly });
    for (const name of LISTENED_EVENTS)
      connection.on(name, (payload: unknown) => {
        if (!listener) kept.push([name, payload]);
        else (listener.handlers[name] as ((payload: unknown) => void) | undefined)?.(payload);
      });
    connection.onreconnected(() => connected(true));
    connection.onreconnecting(disconnected);
    connection.onclose(disconnected);
    return connection;
  };
  const open = (webSocketOnly: boolean) => {
    const opened = connect(webSocketOnly);
    // A script that failed to load is handled where the connection is started.
    opened.catch(() => undefined);
    return opened;
  };
  let connection = open(true);

  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let started: Promise<void> = Promise.resolve();
  // A first start that failed before anyone listened (e.g. a stale key at start-up) is tried again when one does.
  let failedUnheard = false;
  // Automatic reconnect only covers dropped connections; a failed first start is retried on the same schedule.
  const start = (attempt: number) => {
    const failed = (current: HubConnection | null) => {
      // HubConnectionState.Disconnected, without SignalR's code in the entry.
      if (stopped || (current && current.state !== ('Disconnected' as HubConnection['state']))) return;
      // A script that failed to load is asked for again on the next try.
      if (attempt === 0 || !current) connection = open(attempt === 0 && !current);
      if (!listener) {
        failedUnheard = true;
        return;
      }
      const delay = attempt === 0 ? 0 : RECONNECT_DELAYS[Math.min(attempt - 1, RECONNECT_DELAYS.length - 1)];
      retryTimer = setTimeout(() => start(attempt + 1), delay);
    };
    started = connection.then(
      (current) =>
        current
          .start()
          .then(() => {
            // The negotiate fallback right after a refused WebSocket is still the first connection.
            if (!stopped) connected(attempt > 1);
          })
          .catch(() => failed(current)),
      () => failed(null),
    );
  };
  start(0);

  return {
    listen(next) {
      listener = next;
      for (const [name, payload] of kept.splice(0)) (next.handlers[name] as ((payload: unknown) => void) | undefined)?.(payload);
      if (connectedState) next.onConnected(connectedState.afterDrop);
      connectedState = null;
      if (failedUnheard) {
        failedUnheard = false;
        start(1);
      }
      return () => {
        if (listener === next) listener = null;
      };
    },
    stop() {
      stopped = true;
      clearTimeout(retryTimer);
      return started.finally(() => connection.then((current) => current.stop()).catch(() => undefined));
    },
  };
}

let early: { feed: AggregateFeed; apiKey: string } | null = null;

/** Starts the live feed at start-up, so it is connected before the first page's queries are fetched. */
export function startAggregateFeedEarly() {
  early ??= { feed: openAggregateFeed(), apiKey: getApiKey() };
}

/**
 * The feed started at start-up, handed over once (the shell's provider takes it) if the session is still the one it
 * connected with; otherwise a new one.
 */
export function takeAggregateFeed(): AggregateFeed {
  const taken = early;
  early = null;
  if (taken && taken.apiKey === getApiKey()) return taken.feed;
  if (taken) void taken.feed.stop();
  return openAggregateFeed();
}
