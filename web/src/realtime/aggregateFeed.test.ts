import { HubConnectionState } from '@microsoft/signalr';
import { beforeEach, describe, expect, it, vi } from 'vitest';

interface FakeConnection {
  webSocketOnly: boolean;
  handlers: Map<string, (payload: unknown) => void>;
  state: HubConnectionState;
  start: () => Promise<void>;
  stop: () => Promise<void>;
  emit: (name: string, payload: unknown) => void;
}
const built: FakeConnection[] = [];
let refuseWebSocketOnly = false;

vi.mock('./connection', () => ({
  buildHubConnection: (_url: string, options: { webSocketOnly?: boolean }) => {
    const connection: FakeConnection = {
      webSocketOnly: Boolean(options.webSocketOnly),
      handlers: new Map(),
      state: HubConnectionState.Disconnected,
      start: async () => {
        if (connection.webSocketOnly && refuseWebSocketOnly) throw new Error('refused');
        connection.state = HubConnectionState.Connected;
      },
      stop: async () => {
        connection.state = HubConnectionState.Disconnected;
      },
      emit: (name, payload) => connection.handlers.get(name)?.(payload),
    };
    built.push(connection);
    return {
      ...connection,
      get state() {
        return connection.state;
      },
      on: (name: string, handler: (payload: unknown) => void) => connection.handlers.set(name, handler),
      onreconnected: () => undefined,
      onreconnecting: () => undefined,
      onclose: () => undefined,
    };
  },
}));

const { openAggregateFeed } = await import('./aggregateFeed');
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the live feed opened before the shell listens', () => {
  beforeEach(() => {
    built.length = 0;
    refuseWebSocketOnly = false;
  });

  it('connects straight to a WebSocket and hands what came before the listener to it, in order', async () => {
    const feed = openAggregateFeed();
    await settle();
    expect(built.map((c) => c.webSocketOnly)).toEqual([true]);
    expect(built[0].state).toBe(HubConnectionState.Connected);
    built[0].emit('Queue:OnConnected', 'queue-1');
    built[0].emit('Network:OnConnected', 'network');
    built[0].emit('Queue:QueueStateChanged', 'queue-2');

    const seen: string[] = [];
    const connections: boolean[] = [];
    feed.listen({
      handlers: {
        'Queue:OnConnected': (payload) => seen.push(`connected ${String(payload)}`),
        'Queue:QueueStateChanged': (payload) => seen.push(`changed ${String(payload)}`),
      },
      onConnected: (afterDrop) => connections.push(afterDrop),
      onDisconnected: () => undefined,
    });
    expect(seen).toEqual(['connected queue-1', 'changed queue-2']);
    expect(connections).toEqual([false]);
    built[0].emit('Queue:QueueStateChanged', 'queue-3');
    expect(seen.at(-1)).toBe('changed queue-3');
    await feed.stop();
  });

  it('falls back to the negotiated connection at once when the WebSocket is refused, still as the first connection', async () => {
    refuseWebSocketOnly = true;
    const feed = openAggregateFeed();
    await settle();
    // Nobody listens yet: the fallback waits for a listener.
    expect(built.map((c) => c.webSocketOnly)).toEqual([true, false]);
    expect(built.some((c) => c.state === HubConnectionState.Connected)).toBe(false);
    const connections: boolean[] = [];
    feed.listen({ handlers: {}, onConnected: (afterDrop) => connections.push(afterDrop), onDisconnected: () => undefined });
    await settle();
    expect(connections).toEqual([false]);
    expect(built[1].state).toBe(HubConnectionState.Connected);
    await feed.stop();
  });

  it('asks for the SignalR code again when it failed to load, and connects once someone listens', async () => {
    const connection = await import('./connection');
    let loads = 0;
    const feed = openAggregateFeed(async () => {
      loads += 1;
      if (loads === 1) throw new Error('Failed to fetch dynamically imported module');
      return connection;
    });
    await settle();
    expect(loads).toBe(2);
    expect(built).toHaveLength(1);
    expect(built.some((c) => c.state === HubConnectionState.Connected)).toBe(false);
    const connections: boolean[] = [];
    feed.listen({ handlers: {}, onConnected: (afterDrop) => connections.push(afterDrop), onDisconnected: () => undefined });
    await settle();
    expect(connections).toEqual([false]);
    expect(built[0].state).toBe(HubConnectionState.Connected);
    await feed.stop();
  });
});
