import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import type { AggregateHubEvent, AggregateHubPayload, LoggingHubEvent, LoggingHubPayload } from '@shoko-ts/contract';
import { getApiKey } from '@/lib/session';

interface HubOptions {
  reconnectDelays?: number[];
}

/** A hub connection authenticated with the session's API key, over WebSockets with long polling as fallback. */
export function buildHubConnection(url: string, { reconnectDelays }: HubOptions = {}): HubConnection {
  let builder = new HubConnectionBuilder()
    .withUrl(url, {
      accessTokenFactory: () => getApiKey(),
      transport: HttpTransportType.WebSockets | HttpTransportType.LongPolling,
    })
    .configureLogging(import.meta.env.DEV ? LogLevel.Information : LogLevel.Warning);
  if (reconnectDelays) builder = builder.withAutomaticReconnect(reconnectDelays);
  return builder.build();
}

/** Listens to an event of the aggregate hub; the handler gets the argument the contract gives that event. */
export function onAggregateEvent<E extends AggregateHubEvent>(
  connection: HubConnection,
  target: E,
  handler: (payload: AggregateHubPayload<E>) => void,
): void {
  connection.on(target, handler);
}

/** Listens to an event of the logging hub; the handler gets the argument the contract gives that event. */
export function onLoggingEvent<E extends LoggingHubEvent>(
  connection: HubConnection,
  target: E,
  handler: (payload: LoggingHubPayload<E>) => void,
): void {
  connection.on(target, handler);
}
