import {
  AGGREGATE_FEEDS,
  AGGREGATE_HUB_PATH,
  LOGGING_HUB_PATH,
  type AggregateFeed,
  type AggregateHubEvents,
  type AniDBState,
  type AVDumpEvent,
  type FileEvent,
  type FileEventCrossReference,
  type HubEventPayload,
  type HubEventTable,
  type LogEvent,
  type LoggingHubEvents,
  type NetworkState,
  type QueueState,
  type RaisedShokoEvent,
} from '@shoko-ts/contract';
import type { EventBus, ServerEvents } from '../../events/bus.js';
import { isAdminPrincipal } from '../principal.js';
import { HubError, type HubClient, type HubDefinition } from './connection.js';

export interface AggregateSources {
  queueState(): QueueState;
  anidbStates(): [AniDBState, AniDBState];
  networkState(): NetworkState;
  avdumpSessions(): AVDumpEvent[];
  /** The links of a file, for the `CrossReferences` of file events that arrive without them. */
  fileCrossReferences?(fileId: number): Promise<FileEventCrossReference[]>;
}

export interface QueueControl {
  pause(): Promise<void>;
  resume(): Promise<void>;
}

/** A typed `client.send` for one hub: each event goes with the one argument the contract gives it. */
function hubSender<Events extends HubEventTable>() {
  return <E extends keyof Events & string>(client: HubClient, target: E, payload: HubEventPayload<Events, E>) =>
    client.send(target, payload);
}
const sendLog = hubSender<typeof LoggingHubEvents>();
const sendAggregate = hubSender<typeof AggregateHubEvents>();

/** Subscribes for the lifetime of one client. */
function follow<K extends keyof ServerEvents>(bus: EventBus, client: HubClient, name: K, listener: (payload: ServerEvents[K]) => void) {
  client.onClose(bus.on(name, listener));
}

export function loggingHub(bus: EventBus, backlog: () => LogEvent[]): HubDefinition {
  return {
    path: LOGGING_HUB_PATH,
    onConnected(client) {
      sendLog(client, 'GetBacklog', backlog());
      follow(bus, client, 'log', (entry) => sendLog(client, 'Log', entry));
    },
  };
}

/** `feeds` may be comma-separated, repeated, or both; names are case-insensitive and unknown ones are ignored. */
export function parseFeeds(raw: unknown): AggregateFeed[] {
  const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === 'string');
  const feeds: AggregateFeed[] = [];
  for (const name of values.flatMap((v) => v.split(','))) {
    const feed = AGGREGATE_FEEDS.find((known) => known === name.trim().toLowerCase());
    if (feed && !feeds.includes(feed)) feeds.push(feed);
  }
  return feeds;
}

/**
 * File events are raised where the work happens, without the file's links; they are looked up here, once per event and
 * in the order the events were raised, before every `shoko` client hears them.
 */
function shokoFeed(bus: EventBus, sources: AggregateSources) {
  const clients = new Set<HubClient>();
  const send = ({ event, payload }: RaisedShokoEvent) => {
    for (const client of clients) sendAggregate(client, `ShokoEvent:${event}`, payload);
  };
  const needsLinks = (payload: RaisedShokoEvent['payload']): payload is FileEvent => {
    const fileEvent = payload as Partial<FileEvent> | null;
    return !!sources.fileCrossReferences && typeof fileEvent?.FileID === 'number' && fileEvent.CrossReferences?.length === 0;
  };
  let pending: Promise<void> | null = null;
  bus.on('shoko', (raised) => {
    // Nothing waiting and nothing to look up: send now, so the feed keeps its place among the other feeds.
    if (!pending && !needsLinks(raised.payload)) return send(raised);
    const previous = pending ?? Promise.resolve();
    const current: Promise<void> = previous
      .then(async () => {
        const { payload } = raised;
        if (!needsLinks(payload)) return send(raised);
        const links = await sources.fileCrossReferences!(payload.FileID).catch(() => []);
        send({ event: raised.event, payload: { ...payload, CrossReferences: links } } as RaisedShokoEvent);
      })
      .catch(() => undefined)
      .finally(() => {
        if (pending === current) pending = null;
      });
    pending = current;
  });
  return {
    add(client: HubClient) {
      clients.add(client);
      client.onClose(() => clients.delete(client));
    },
  };
}

export function aggregateHub(bus: EventBus, sources: AggregateSources, queueControl: QueueControl): HubDefinition {
  const shokoClients = shokoFeed(bus, sources);
  const feedSetup: Record<AggregateFeed, (client: HubClient) => void> = {
    queue(client) {
      sendAggregate(client, 'Queue:OnConnected', sources.queueState());
      follow(bus, client, 'queue:state', (state) => sendAggregate(client, 'Queue:QueueStateChanged', state));
    },
    anidb(client) {
      sendAggregate(client, 'AniDB:OnConnected', sources.anidbStates());
      follow(bus, client, 'anidb:udp', (state) => sendAggregate(client, 'AniDB:AniDBUDPStateUpdate', state));
      follow(bus, client, 'anidb:http', (state) => sendAggregate(client, 'AniDB:AniDBHttpStateUpdate', state));
    },
    network(client) {
      sendAggregate(client, 'Network:OnConnected', sources.networkState());
      follow(bus, client, 'network:changed', (state) => sendAggregate(client, 'Network:NetworkAvailabilityChanged', state));
    },
    avdump(client) {
      sendAggregate(client, 'AVDump:OnConnected', sources.avdumpSessions());
      follow(bus, client, 'avdump', (event) => sendAggregate(client, 'AVDump:Event', event));
    },
    shoko(client) {
      sendAggregate(client, 'ShokoEvent:OnConnected', null);
      shokoClients.add(client);
    },
    // Read in the same turn as the other feeds join, so every event after it reaches this client.
    revision(client) {
      sendAggregate(client, 'Revision:OnConnected', bus.revision);
    },
  };

  return {
    path: AGGREGATE_HUB_PATH,
    onConnected(client) {
      for (const feed of parseFeeds(client.query.feeds)) feedSetup[feed](client);
    },
    methods: {
      // Shoko leaves this method anonymous; pausing the queue is an admin action everywhere else, so it is here too.
      async ChangeQueueProcessingState(client, args) {
        if (!isAdminPrincipal(client.principal)) throw new HubError('Only administrators can pause or resume the queue.');
        const paused = args[1];
        if (typeof paused !== 'boolean') throw new HubError("Argument 'paused' must be a boolean.");
        if (paused) await queueControl.pause();
        else await queueControl.resume();
      },
    },
  };
}
