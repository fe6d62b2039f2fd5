import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel as ClientLogLevel, type HubConnection } from '@microsoft/signalr';
import type { AniDBState, LogEvent, NetworkState, QueueState, SeriesUpdatedEvent } from '@shoko-ts/contract';
import { EventBus } from '../../events/bus.js';
import { LogService } from '../../domains/logs/index.js';
import type { Principal } from '../principal.js';
import type { App } from '../types.js';
import { registerSignalRHubs, type HubTiming } from './index.js';

const ADMIN_KEY = 'admin-key-0123456789';
const USER_KEY = 'user-key-0123456789';

const principals: Record<string, Principal> = {
  [ADMIN_KEY]: { kind: 'user', userId: 1, username: 'admin', isAdmin: true },
  [USER_KEY]: { kind: 'user', userId: 2, username: 'viewer', isAdmin: false },
};

const queueState = (waiting: number): QueueState => ({
  Running: true,
  WaitingCount: waiting,
  BlockedCount: 0,
  TotalCount: waiting,
  ThreadCount: 2,
  CurrentlyExecuting: [],
});

const anidbState = (type: number): AniDBState => ({
  Value: false,
  Message: null,
  UpdateType: type,
  UpdateTime: '2025-01-01T00:00:00.000Z',
  PauseTimeSecs: 0,
});

const network: NetworkState = { NetworkAvailability: 'Internet', LastChangedAt: '2025-01-01T00:00:00.000Z' };

const logEntry = (n: number): LogEvent => ({
  Level: 'Info',
  TimeStamp: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
  LoggerName: 'Test',
  Caller: '::',
  Message: `entry ${n}`,
});

interface TestServer {
  base: string;
  bus: EventBus;
  logs: LogService;
  queueCalls: string[];
  close(): Promise<void>;
}

/** A real Fastify server on a loopback port, shaped like the app: case-insensitive routes, a JSON text/plain parser, and a deny-by-default hook. */
async function startHubServer(timing: Partial<HubTiming> = {}): Promise<TestServer> {
  const home = mkdtempSync(path.join(tmpdir(), 'shoko-signalr-'));
  const bus = new EventBus();
  const logs = LogService.create({ home, bus });
  logs.applySettings({ TraceLog: true, LogRotator: { Enabled: false, Zip: false, Delete: false, Delete_Days: '' } });
  const app = Fastify({
    loggerInstance: logs.logger.child({ name: 'HTTP' }),
    // As in the app: per-request lines would feed the log hub's own long polls back into the log.
    disableRequestLogging: true,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
  }) as unknown as App;
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, JSON.parse(String(body)));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // The app's auth hook refuses any route that does not declare its level; the hubs must declare `none`.
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url && request.routeOptions.config?.auth !== 'none') return reply.code(401).send();
  });

  const backlog = [logEntry(1), logEntry(2), logEntry(3)];
  const queueCalls: string[] = [];
  const hubs = await registerSignalRHubs(app, {
    bus,
    authenticate: async (key) => principals[key] ?? null,
    logBacklog: () => backlog,
    aggregate: {
      queueState: () => queueState(0),
      anidbStates: () => [anidbState(1), anidbState(2)],
      networkState: () => network,
      avdumpSessions: () => [],
    },
    queueControl: {
      pause: async () => void queueCalls.push('pause'),
      resume: async () => void queueCalls.push('resume'),
    },
    timing: { pollWaitMs: 2_000, ...timing },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    base: `http://127.0.0.1:${address.port}`,
    bus,
    logs,
    queueCalls,
    async close() {
      await hubs.close();
      await app.close();
      await logs.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Records every invocation of the given targets and lets a test wait for the n-th one. */
function record(connection: HubConnection, targets: string[]) {
  const seen: Array<{ target: string; args: unknown[] }> = [];
  const waiters: Array<() => void> = [];
  for (const target of targets) {
    connection.on(target, (...args: unknown[]) => {
      seen.push({ target, args });
      waiters.splice(0).forEach((wake) => wake());
    });
  }
  const until = async (predicate: () => boolean) => {
    while (!predicate()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { seen, until, count: (target: string) => seen.filter((s) => s.target === target).length };
}

function connect(url: string, transport: HttpTransportType, key: string) {
  return new HubConnectionBuilder()
    .withUrl(url, { transport, accessTokenFactory: () => key })
    .configureLogging(ClientLogLevel.None)
    .build();
}

const transports: Array<[string, HttpTransportType]> = [
  ['WebSockets', HttpTransportType.WebSockets],
  ['LongPolling', HttpTransportType.LongPolling],
];

describe('SignalR hubs with the official client', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startHubServer();
  });
  afterAll(async () => {
    await server.close();
  });

  describe.each(transports)('over %s', (_name, transport) => {
    it('logging hub sends the backlog oldest first, then each new entry', async () => {
      const connection = connect(`${server.base}/signalr/logging`, transport, ADMIN_KEY);
      const events = record(connection, ['GetBacklog', 'Log']);
      await connection.start();
      await events.until(() => events.count('GetBacklog') >= 1);
      const [backlog] = events.seen[0].args as [LogEvent[]];
      expect(backlog.map((e) => e.Message)).toEqual(['entry 1', 'entry 2', 'entry 3']);

      server.bus.emit('log', logEntry(4));
      const isEntry4 = (e: { args: unknown[] }) => (e.args[0] as LogEvent).Message === 'entry 4';
      await events.until(() => events.seen.some(isEntry4));
      expect(events.seen.find(isEntry4)).toEqual({ target: 'Log', args: [logEntry(4)] });
      await connection.stop();
    });

    it('aggregate hub honours the feeds filter (comma-separated, repeated, any case, unknown ignored)', async () => {
      const connection = connect(`${server.base}/SignalR/Aggregate?feeds=Queue,bogus&feeds=ANIDB`, transport, USER_KEY);
      const targets = [
        'Queue:OnConnected',
        'Queue:QueueStateChanged',
        'AniDB:OnConnected',
        'AniDB:AniDBUDPStateUpdate',
        'Network:OnConnected',
        'Network:NetworkAvailabilityChanged',
        'ShokoEvent:OnConnected',
        'ShokoEvent:FileHashed',
        'AVDump:OnConnected',
      ];
      const events = record(connection, targets);
      await connection.start();
      await events.until(() => events.seen.length >= 2);
      expect(events.seen).toEqual([
        { target: 'Queue:OnConnected', args: [queueState(0)] },
        { target: 'AniDB:OnConnected', args: [[anidbState(1), anidbState(2)]] },
      ]);

      // Events of unsubscribed feeds are emitted first; had they been forwarded they would arrive before the queue one.
      server.bus.emit('network:changed', { ...network, NetworkAvailability: 'LocalOnly' });
      server.bus.emit('shoko', {
        event: 'FileHashed',
        payload: { FileID: 1, FileLocationID: 1, ImportFolderID: 1, RelativePath: 'a.mkv', CrossReferences: [] },
      });
      server.bus.emit('anidb:udp', { ...anidbState(1), Value: true, PauseTimeSecs: 5400 });
      server.bus.emit('queue:state', queueState(7));
      await events.until(() => events.count('Queue:QueueStateChanged') >= 1);
      expect(events.seen.slice(2)).toEqual([
        { target: 'AniDB:AniDBUDPStateUpdate', args: [{ ...anidbState(1), Value: true, PauseTimeSecs: 5400 }] },
        { target: 'Queue:QueueStateChanged', args: [queueState(7)] },
      ]);
      await connection.stop();
    });

    it('ChangeQueueProcessingState is refused to non-admins and works for admins', async () => {
      const viewer = connect(`${server.base}/signalr/aggregate`, transport, USER_KEY);
      await viewer.start();
      await expect(viewer.invoke('ChangeQueueProcessingState', 'default', true)).rejects.toThrow(/administrators/);
      await viewer.stop();

      const admin = connect(`${server.base}/signalr/aggregate`, transport, ADMIN_KEY);
      await admin.start();
      server.queueCalls.length = 0;
      await admin.invoke('ChangeQueueProcessingState', 'default', true);
      await admin.invoke('changequeueprocessingstate', 'default', false);
      expect(server.queueCalls).toEqual(['pause', 'resume']);
      await expect(admin.invoke('NoSuchMethod')).rejects.toThrow(/Unknown hub method/);
      await admin.stop();
    });

    it('refuses a client without a valid key', async () => {
      const connection = connect(`${server.base}/signalr/logging`, transport, 'wrong-key');
      await expect(connection.start()).rejects.toThrow();
    });
  });

  it('lets the shoko and avdump feeds through with their own targets', async () => {
    const connection = connect(`${server.base}/signalr/aggregate?feeds=shoko,avdump,network`, HttpTransportType.WebSockets, USER_KEY);
    const events = record(connection, [
      'ShokoEvent:OnConnected',
      'ShokoEvent:SeriesUpdated',
      'AVDump:OnConnected',
      'AVDump:Event',
      'Network:OnConnected',
      'Network:NetworkAvailabilityChanged',
    ]);
    await connection.start();
    await events.until(() => events.seen.length >= 3);
    expect(events.seen.map((e) => e.target)).toEqual(['ShokoEvent:OnConnected', 'AVDump:OnConnected', 'Network:OnConnected']);
    expect(events.seen[0].args).toEqual([null]);

    const seriesUpdated: SeriesUpdatedEvent = { Source: 'User', Reason: 'Updated', SeriesID: 5, ShokoSeriesIDs: [5], Episodes: [] };
    server.bus.emit('shoko', { event: 'SeriesUpdated', payload: seriesUpdated });
    server.bus.emit('avdump', { Type: 'Started', SessionID: 3 });
    server.bus.emit('network:changed', network);
    await events.until(() => events.seen.length >= 6);
    expect(events.seen.slice(3)).toEqual([
      { target: 'ShokoEvent:SeriesUpdated', args: [seriesUpdated] },
      { target: 'AVDump:Event', args: [{ Type: 'Started', SessionID: 3 }] },
      { target: 'Network:NetworkAvailabilityChanged', args: [network] },
    ]);
    await connection.stop();
  });

  it('gives the event revision on the revision feed only, counting every shoko event raised before the connection', async () => {
    const before = server.bus.revision;
    server.bus.emit('shoko', {
      event: 'SeriesUpdated',
      payload: { Source: 'User', Reason: 'Updated', SeriesID: 1, ShokoSeriesIDs: [1], Episodes: [] },
    });
    server.bus.emit('queue:state', queueState(1));
    expect(server.bus.revision).toBe(before + 1);

    const connection = connect(`${server.base}/signalr/aggregate?feeds=shoko,revision`, HttpTransportType.WebSockets, USER_KEY);
    const events = record(connection, ['ShokoEvent:OnConnected', 'Revision:OnConnected']);
    await connection.start();
    await events.until(() => events.seen.length >= 2);
    expect(events.seen).toEqual([
      { target: 'ShokoEvent:OnConnected', args: [null] },
      { target: 'Revision:OnConnected', args: [before + 1] },
    ]);
    await connection.stop();

    // Shoko's clients do not ask for it and never get it.
    const plain = connect(`${server.base}/signalr/aggregate?feeds=shoko`, HttpTransportType.WebSockets, USER_KEY);
    const plainEvents = record(plain, ['ShokoEvent:OnConnected', 'Revision:OnConnected']);
    await plain.start();
    await plainEvents.until(() => plainEvents.seen.length >= 1);
    await plain.invoke('NoSuchMethod').catch(() => undefined);
    expect(plainEvents.seen.map((e) => e.target)).toEqual(['ShokoEvent:OnConnected']);
    await plain.stop();
  });

  it('keeps API keys out of the log', () => {
    expect(server.logs.backlog().some((e) => e.LoggerName === 'SignalR')).toBe(true);
    const text = JSON.stringify(server.logs.backlog());
    expect(text).not.toContain(ADMIN_KEY);
    expect(text).not.toContain(USER_KEY);
  });
});

const RS = '\u001e';

/** A bare WebSocket client that splits what it receives into records. */
function openRaw(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers });
  const records: string[] = [];
  let pending = '';
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  let closed = false;
  socket.on('message', (data) => {
    const parts = (pending + data.toString()).split(RS);
    pending = parts.pop() ?? '';
    records.push(...parts);
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  const until = async (predicate: () => boolean) => {
    while (!predicate()) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.once('error', reject);
  });
  return {
    socket,
    records,
    opened,
    until,
    get closed() {
      return closed;
    },
    parsed: () => records.map((r) => JSON.parse(r) as Record<string, unknown>),
  };
}

async function negotiate(base: string, hub: string, headers: Record<string, string>) {
  return fetch(`${base}${hub}/negotiate?negotiateVersion=1`, { method: 'POST', headers });
}

describe('SignalR protocol framing', () => {
  let server: TestServer;
  const wsBase = () => server.base.replace(/^http/, 'ws');
  beforeAll(async () => {
    server = await startHubServer({ keepAliveMs: 100, handshakeTimeoutMs: 500, clientTimeoutMs: 1_500, pollWaitMs: 500 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('negotiate answers version 1 with a token and WebSockets + LongPolling in text format', async () => {
    const response = await negotiate(server.base, '/signalr/logging', { authorization: `Bearer ${ADMIN_KEY}` });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.negotiateVersion).toBe(1);
    expect(typeof body.connectionId).toBe('string');
    expect(typeof body.connectionToken).toBe('string');
    expect(body.connectionToken).not.toBe(body.connectionId);
    expect(body.availableTransports).toEqual([
      { transport: 'WebSockets', transferFormats: ['Text'] },
      { transport: 'LongPolling', transferFormats: ['Text'] },
    ]);
  });

  it('keeps the log hub for admins: negotiate and a WebSocket without negotiation answer a non-admin 403', async () => {
    const refused = await negotiate(server.base, '/signalr/logging', { authorization: `Bearer ${USER_KEY}` });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/logs/);
    const upgrade = await fetch(`${server.base}/signalr/logging?access_token=${USER_KEY}`);
    expect(upgrade.status).toBe(403);
    expect((await negotiate(server.base, '/signalr/aggregate', { authorization: `Bearer ${USER_KEY}` })).status).toBe(200);
  });

  it('negotiate accepts the apikey header and refuses a missing or wrong key with 401', async () => {
    expect((await negotiate(server.base, '/signalr/aggregate', { apikey: USER_KEY })).status).toBe(200);
    expect((await negotiate(server.base, '/signalr/aggregate', {})).status).toBe(401);
    expect((await negotiate(server.base, '/signalr/aggregate', { authorization: 'Bearer nope' })).status).toBe(401);
  });

  it('refuses a WebSocket upgrade without a valid key', async () => {
    const raw = openRaw(`${wsBase()}/signalr/logging?access_token=nope`);
    await expect(raw.opened).rejects.toThrow('HTTP 401');
  });

  it('runs handshake, invocations, completions, pings and close over a WebSocket', async () => {
    const { connectionToken } = (await (
      await negotiate(server.base, '/signalr/logging', { authorization: `Bearer ${ADMIN_KEY}` })
    ).json()) as { connectionToken: string };
    const raw = openRaw(`${wsBase()}/signalr/logging?id=${connectionToken}&access_token=${ADMIN_KEY}`);
    await raw.opened;
    raw.socket.send(`{"protocol":"json","version":1}${RS}`);
    await raw.until(() => raw.records.length >= 2);
    expect(raw.records[0]).toBe('{}');
    expect(raw.parsed()[1]).toMatchObject({ type: 1, target: 'GetBacklog' });

    await raw.until(() => raw.parsed().some((m) => m.type === 6));
    expect(raw.records).toContain('{"type":6}');

    raw.socket.send(`{"type":6}${RS}{"type":1,"invocationId":"7","target":"Missing","arguments":[]}${RS}`);
    await raw.until(() => raw.parsed().some((m) => m.type === 3));
    expect(raw.parsed().find((m) => m.type === 3)).toEqual({ type: 3, invocationId: '7', error: "Unknown hub method 'Missing'" });

    raw.socket.send(`{"type":7}${RS}`);
    await raw.until(() => raw.closed);
    expect(raw.closed).toBe(true);
  });

  it('accepts a WebSocket that skips negotiation', async () => {
    const raw = openRaw(`${wsBase()}/signalr/logging`, { authorization: `Bearer ${ADMIN_KEY}` });
    await raw.opened;
    raw.socket.send(`{"protocol":"json","version":1}${RS}`);
    await raw.until(() => raw.records.length >= 2);
    expect(raw.records[0]).toBe('{}');
    raw.socket.close();
  });

  it('answers another protocol with an error handshake response and closes', async () => {
    const raw = openRaw(`${wsBase()}/signalr/logging?access_token=${ADMIN_KEY}`);
    await raw.opened;
    raw.socket.send(`{"protocol":"messagepack","version":1}${RS}`);
    await raw.until(() => raw.closed);
    expect(raw.parsed()).toEqual([{ error: "The protocol 'messagepack' is not supported." }]);
  });

  it('closes a connection that never completes the handshake', async () => {
    const raw = openRaw(`${wsBase()}/signalr/logging?access_token=${ADMIN_KEY}`);
    await raw.opened;
    await raw.until(() => raw.closed);
    expect(raw.records).toEqual([]);
  });

  it('drops a client that stays silent, with a close message', async () => {
    const raw = openRaw(`${wsBase()}/signalr/logging?access_token=${ADMIN_KEY}`);
    await raw.opened;
    raw.socket.send(`{"protocol":"json","version":1}${RS}`);
    await raw.until(() => raw.closed);
    const close = raw.parsed().find((m) => m.type === 7);
    expect(close?.error).toMatch(/timeout/i);
  });

  it('serves long polling: empty first poll, POSTed handshake, queued frames, DELETE, then 204', async () => {
    const headers = { authorization: `Bearer ${ADMIN_KEY}` };
    const { connectionToken } = (await (await negotiate(server.base, '/signalr/logging', headers)).json()) as {
      connectionToken: string;
    };
    const url = `${server.base}/signalr/logging?id=${encodeURIComponent(connectionToken)}`;
    const first = await fetch(url, { headers });
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('');

    const sent = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'text/plain;charset=UTF-8' },
      body: `{"protocol":"json","version":1}${RS}`,
    });
    expect(sent.status).toBe(200);
    const poll = await fetch(url, { headers });
    expect(poll.status).toBe(200);
    const records = (await poll.text()).split(RS).filter(Boolean);
    expect(records[0]).toBe('{}');
    expect(JSON.parse(records[1])).toMatchObject({ type: 1, target: 'GetBacklog' });

    expect((await fetch(url, { method: 'POST', body: `{"type":6}${RS}` })).status).toBe(401);
    expect((await fetch(url, { method: 'DELETE', headers })).status).toBe(202);
    expect((await fetch(url, { headers })).status).toBe(404);
    expect((await fetch(`${server.base}/signalr/logging?id=unknown`, { headers })).status).toBe(404);
  });

  it('ends a silent long-polling client with a close frame, then 204', async () => {
    const headers = { authorization: `Bearer ${ADMIN_KEY}` };
    const { connectionToken } = (await (await negotiate(server.base, '/signalr/logging', headers)).json()) as {
      connectionToken: string;
    };
    const url = `${server.base}/signalr/logging?id=${encodeURIComponent(connectionToken)}`;
    await fetch(url, { headers });
    await fetch(url, { method: 'POST', headers, body: `{"protocol":"json","version":1}${RS}` });
    const records: string[] = [];
    let status = 200;
    while (status === 200) {
      const response = await fetch(url, { headers });
      status = response.status;
      records.push(...(await response.text()).split(RS).filter(Boolean));
    }
    expect(status).toBe(204);
    expect(JSON.parse(records.at(-1) ?? '{}')).toMatchObject({ type: 7 });
  });

  it('tells connected clients on shutdown that they may reconnect', async () => {
    const own = await startHubServer();
    const raw = openRaw(`${own.base.replace(/^http/, 'ws')}/signalr/aggregate?feeds=queue&access_token=${USER_KEY}`);
    await raw.opened;
    raw.socket.send(`{"protocol":"json","version":1}${RS}`);
    await raw.until(() => raw.records.length >= 2);
    expect(raw.parsed()[1]).toMatchObject({ type: 1, target: 'Queue:OnConnected' });
    await own.close();
    await raw.until(() => raw.closed);
    expect(raw.parsed().at(-1)).toEqual({ type: 7, error: 'Server is shutting down.', allowReconnect: true });
  });
});
