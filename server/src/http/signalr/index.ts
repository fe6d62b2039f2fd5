import websocket from '@fastify/websocket';
import type { LogEvent } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import type { Principal } from '../principal.js';
import type { App } from '../types.js';
import { DEFAULT_TIMING, type HubTiming } from './connection.js';
import { HubEndpoint } from './hub-server.js';
import { aggregateHub, loggingHub, type AggregateSources, type QueueControl } from './hubs.js';

/** Clients only send handshakes, pings and small invocations. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

export type { AggregateSources, QueueControl } from './hubs.js';
export type { HubTiming } from './connection.js';

export interface SignalRDeps {
  bus: EventBus;
  authenticate: (apiKey: string) => Promise<Principal | null>;
  /** True while a fresh install waits for its first run: callers without a key then act as the first-run principal. */
  firstRun?: () => Promise<boolean>;
  logBacklog: () => LogEvent[];
  aggregate: AggregateSources;
  queueControl: QueueControl;
  /** Protocol timings; the defaults are ASP.NET Core's (tests shorten them). */
  timing?: Partial<HubTiming>;
}

/**
 * Mounts `/signalr/logging` and `/signalr/aggregate` (SignalR JSON hub protocol v1 over WebSockets and long polling).
 * Call on the root instance before it is ready. Each hub checks the API key itself, so its routes are `auth: 'none'`.
 */
export async function registerSignalRHubs(app: App, deps: SignalRDeps): Promise<{ close(): Promise<void> }> {
  const timing = { ...DEFAULT_TIMING, ...deps.timing };
  const log = app.log.child({ name: 'SignalR' });
  const endpoints = [loggingHub(deps.bus, deps.logBacklog), aggregateHub(deps.bus, deps.aggregate, deps.queueControl)].map(
    (hub) => new HubEndpoint(hub, deps.authenticate, timing, log, deps.firstRun),
  );

  if (!app.hasDecorator('websocketServer')) await app.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES } });
  await app.register(async (scope: App) => {
    // Long-poll bodies are raw frames (JSON + 0x1E), not JSON documents: read every body as text in this scope.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    for (const endpoint of endpoints) endpoint.register(scope);
  });

  return {
    async close() {
      for (const endpoint of endpoints) endpoint.closeAll();
    },
  };
}
