import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import type { AggregateHubEvents, HubEventPayload, HubEventTable, LoggingHubEvents } from '@shoko-ts/contract';
import { getApiKey } from '@/lib/session';

interface HubOptions {
  reconnectDelays?: number[];
  /** Straight to a WebSocket, without the negotiate request (which waits for one of the browser's six connections). */
  webSocketOnly?: boolean;
}

/** A hub connection authenticated with the session's API key, over WebSockets with long polling as fallback. */
export function buildHubConnection(url: string, { reconnectDelays, webSocketOnly }: HubOptions = {}): HubConnection {
  let builder = new HubConnectionBuilder()
    .withUrl(url, {
      accessTokenFactory: () => getApiKey(),
      ...(webSocketOnly
        ? { transport: HttpTransportType.WebSockets, skipNegotiation: true }
        : { transport: HttpTransportType.WebSockets | HttpTransportType.LongPolling }),
    })
    .configureLogging(import.meta.env.DEV ? LogLevel.Information : LogLevel.Warning);
  if (reconnectDelays) builder = builder.withAutomaticReconnect(reconnectDelays);
  return builder.build();
}

/** A typed `connection.on` for one hub: the handler gets the argument the contract gives the event. */
function hubListener<Events extends HubEventTable>() {
  return <E extends keyof Events & string>(connection: HubConnection, target: E, handler: (payload: HubEventPayload<Events, E>) => void) =>
    connection.on(target, handler);
}

export const onAggregateEvent = hubListener<typeof AggregateHubEvents>();
export const onLoggingEvent = hubListener<typeof LoggingHubEvents>();
