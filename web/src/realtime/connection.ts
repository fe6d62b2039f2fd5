import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
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
