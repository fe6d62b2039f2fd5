import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { WebSocket } from 'ws';
import { ROUTE_CLASSES, routeClass } from '../access-policy.js';
import { isAdminPrincipal, type Principal } from '../principal.js';
import { problemBody } from '../problem.js';
import type { App } from '../types.js';
import { HubConnection, type HubDefinition, type HubTiming } from './connection.js';
import { LongPollingTransport, WebSocketTransport } from './transports.js';

export type Authenticate = (apiKey: string) => Promise<Principal | null>;

const newId = () => randomBytes(16).toString('base64url');

/** The browser client sends the key as `access_token` (WebSocket URL) or a Bearer header; Shoko's own name is `apikey`. */
function candidateKeys(request: FastifyRequest): string[] {
  const keys: string[] = [];
  const push = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(push);
    else if (typeof value === 'string' && value.trim()) keys.push(value.trim());
  };
  const query = (request.query ?? {}) as Record<string, unknown>;
  push(query.access_token);
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && /^bearer\s+/i.test(authorization)) {
    push(authorization.replace(/^bearer\s+/i, ''));
  }
  push(request.headers.apikey);
  push(query.apikey);
  return keys;
}

const samePrincipal = (a: Principal, b: Principal) => (a.kind === 'init' ? b.kind === 'init' : b.kind === 'user' && a.userId === b.userId);

/** The connect/poll/send requests' query minus the transport's own parameters. */
function hubQuery(request: FastifyRequest): Record<string, unknown> {
  const { id: _id, access_token: _token, apikey: _key, _: _nonce, ...rest } = (request.query ?? {}) as Record<string, unknown>;
  return rest;
}

interface HubRequestState {
  principal: Principal;
  connection: HubConnection | null;
}

/**
 * Serves one hub over the SignalR HTTP surface: negotiate, WebSocket upgrade, and long polling (poll / send / close),
 * all on paths under the hub's path.
 */
export class HubEndpoint {
  private readonly connections = new Map<string, HubConnection>();
  private readonly requestState = new WeakMap<FastifyRequest, HubRequestState>();
  /** The hub's class in the access table (a hub missing there is for administrators). */
  private get access() {
    return ROUTE_CLASSES[routeClass('GET', this.hub.path) ?? 'server'];
  }

  constructor(
    private readonly hub: HubDefinition,
    private readonly authenticate: Authenticate,
    private readonly timing: HubTiming,
    private readonly log: FastifyBaseLogger,
    private readonly firstRun: () => Promise<boolean> = async () => false,
  ) {}

  register(scope: App): void {
    const config = { auth: 'none' as const };
    // The hubs are not REST endpoints; keep them out of the OpenAPI document.
    const schema = (): FastifySchema => ({ hide: true }) as FastifySchema;
    scope.post(`${this.hub.path}/negotiate`, { config, schema: schema() }, (request, reply) => this.negotiate(request, reply));

    const route = {
      method: 'GET' as const,
      url: this.hub.path,
      config,
      schema: schema(),
      exposeHeadRoute: false,
      preHandler: (request: FastifyRequest, reply: FastifyReply) => this.resolve(request, reply),
      handler: (request: FastifyRequest, reply: FastifyReply) => this.poll(request, reply),
      wsHandler: (socket: WebSocket, request: FastifyRequest) => this.openWebSocket(socket, request),
    };
    scope.route(route as unknown as Parameters<App['route']>[0]);

    const preHandler = (request: FastifyRequest, reply: FastifyReply) => this.resolve(request, reply);
    scope.post(this.hub.path, { config, schema: schema(), preHandler }, (request, reply) => this.receive(request, reply));
    scope.delete(this.hub.path, { config, schema: schema(), preHandler }, (request, reply) => this.disconnect(request, reply));
  }

  /** Ends every connection (server shutdown); clients with automatic reconnect may come back later. */
  closeAll(): void {
    for (const connection of [...this.connections.values()]) connection.close('Server is shutting down.', true);
    this.connections.clear();
  }

  private async principalOf(request: FastifyRequest): Promise<Principal | null> {
    for (const key of candidateKeys(request)) {
      const principal = await this.authenticate(key);
      if (principal) return principal;
    }
    // A fresh install's first-run wizard follows its work (a Shoko import) before any account exists, as its REST calls do.
    return (await this.firstRun().catch(() => false)) ? { kind: 'init' } : null;
  }

  /** 401 without a usable key, 403 (with the table's reason) when the hub is for administrators and the caller is not. */
  private refuse(principal: Principal | null, reply: FastifyReply): boolean {
    if (!principal) reply.code(401).send();
    else if (this.access.level === 'admin' && !isAdminPrincipal(principal))
      reply.code(403).type('application/problem+json').send(problemBody(403, this.access.reason));
    else return false;
    return true;
  }

  private async negotiate(request: FastifyRequest, reply: FastifyReply) {
    const principal = await this.principalOf(request);
    if (this.refuse(principal, reply) || !principal) return reply;
    const version = Number((request.query as Record<string, unknown>).negotiateVersion ?? 0) >= 1 ? 1 : 0;
    const connectionId = newId();
    // Version 0 clients address the connection by its id; only version 1 separates the secret token from the id.
    const connectionToken = version === 1 ? newId() : connectionId;
    this.track(new HubConnection(this.hub, connectionId, connectionToken, principal, this.timing, this.log, (c) => this.ended(c)));
    const transferFormats = ['Text'];
    return reply.send({
      negotiateVersion: version,
      connectionId,
      ...(version === 1 ? { connectionToken } : {}),
      availableTransports: [
        { transport: 'WebSockets', transferFormats },
        { transport: 'LongPolling', transferFormats },
      ],
    });
  }

  /** Authenticates every transport request and finds the connection it addresses (401 / 404 before any upgrade). */
  private async resolve(request: FastifyRequest, reply: FastifyReply) {
    const principal = await this.principalOf(request);
    if (this.refuse(principal, reply) || !principal) return reply;
    const id = (request.query as Record<string, unknown>).id;
    if (typeof id !== 'string' || !id) {
      // Only a WebSocket may skip negotiation.
      if (request.ws) {
        this.requestState.set(request, { principal, connection: null });
        return;
      }
      return reply.code(400).type('text/plain').send('Connection ID required');
    }
    const connection = this.connections.get(id);
    if (!connection || (connection.isClosed && connection.transport?.kind !== 'LongPolling')) {
      return reply.code(404).type('text/plain').send('No Connection with that ID');
    }
    if (!samePrincipal(connection.principal, principal)) return reply.code(401).send();
    if (request.ws && connection.isAttached) {
      return reply.code(409).type('text/plain').send('Connection already has a transport');
    }
    if (!request.ws && connection.transport?.kind === 'WebSockets') {
      return reply.code(400).type('text/plain').send('Cannot change transports mid-connection');
    }
    this.requestState.set(request, { principal, connection });
  }

  private openWebSocket(socket: WebSocket, request: FastifyRequest): void {
    const state = this.requestState.get(request);
    if (!state) {
      socket.close(1008);
      return;
    }
    const connection =
      state.connection ??
      this.track(new HubConnection(this.hub, newId(), newId(), state.principal, this.timing, this.log, (c) => this.ended(c)));
    connection.attach(new WebSocketTransport(socket), hubQuery(request));
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => connection.receive(toText(data)));
    socket.on('close', () => connection.transportClosed());
    socket.on('error', () => connection.transportClosed());
  }

  private async poll(request: FastifyRequest, reply: FastifyReply) {
    const connection = this.requestState.get(request)?.connection;
    if (!connection) return reply.code(404).send();
    const transport = connection.transport;
    if (!transport) {
      // The first poll only binds the transport and returns at once; the client sends its handshake after it.
      connection.attach(new LongPollingTransport(this.timing.pollWaitMs), hubQuery(request));
      return reply.code(200).type('text/plain').send('');
    }
    const longPolling = transport as LongPollingTransport;
    const result = await longPolling.poll((release) => {
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) release();
      });
    });
    if (result.status === 204) {
      this.forget(connection);
      return reply.code(204).send();
    }
    return reply.code(200).type('text/plain').send(result.body);
  }

  private receive(request: FastifyRequest, reply: FastifyReply) {
    const connection = this.requestState.get(request)?.connection;
    if (!connection?.transport || connection.isClosed) return reply.code(404).type('text/plain').send('No Connection with that ID');
    const body = request.body;
    connection.receive(typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : '');
    return reply.code(200).send('');
  }

  private disconnect(request: FastifyRequest, reply: FastifyReply) {
    const connection = this.requestState.get(request)?.connection;
    if (!connection) return reply.code(404).send();
    connection.transportClosed();
    connection.transport?.end();
    this.forget(connection);
    return reply.code(202).send();
  }

  private track(connection: HubConnection): HubConnection {
    this.connections.set(connection.connectionToken, connection);
    return connection;
  }

  private forget(connection: HubConnection): void {
    if (this.connections.get(connection.connectionToken) === connection) this.connections.delete(connection.connectionToken);
  }

  /** A closed long-polling connection stays addressable until its client has collected the last frames and a 204. */
  private ended(connection: HubConnection): void {
    if (connection.transport?.kind !== 'LongPolling') {
      this.forget(connection);
      return;
    }
    const timer = setTimeout(() => this.forget(connection), this.timing.handshakeTimeoutMs);
    timer.unref();
  }
}

function toText(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
