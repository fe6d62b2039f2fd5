import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../principal.js';
import {
  FrameReader,
  MessageType,
  PING_FRAME,
  checkHandshake,
  closeFrame,
  frame,
  invocationFrame,
  parseMessage,
  type HubMessage,
} from './protocol.js';

/** How a connection reaches its client: a WebSocket, or the queue that long-poll requests drain. */
export interface Transport {
  readonly kind: 'WebSockets' | 'LongPolling';
  write(data: string): void;
  /** Stops the transport once everything written so far has been delivered. */
  end(): void;
}

export interface HubTiming {
  /** Server keep-alive ping interval (sent only when nothing else was written meanwhile). */
  keepAliveMs: number;
  /** A client silent this long is dropped. */
  clientTimeoutMs: number;
  /** From negotiate to a completed handshake. */
  handshakeTimeoutMs: number;
  /** How long a long-poll request waits for data before answering empty. */
  pollWaitMs: number;
}

export const DEFAULT_TIMING: HubTiming = {
  keepAliveMs: 15_000,
  clientTimeoutMs: 60_000,
  handshakeTimeoutMs: 15_000,
  pollWaitMs: 50_000,
};

/** An error whose message is meant for the caller of a hub method. */
export class HubError extends Error {}

/** What hub code sees of one connected client. */
export interface HubClient {
  readonly connectionId: string;
  readonly principal: Principal;
  /** Query parameters of the connect request (the client repeats its original query, e.g. `feeds`). */
  readonly query: Record<string, unknown>;
  send(target: string, ...args: unknown[]): void;
  /** Runs once when the connection ends, whoever ends it. */
  onClose(listener: () => void): void;
}

export type HubMethod = (client: HubClient, args: unknown[]) => unknown;

export interface HubDefinition {
  path: string;
  onConnected(client: HubClient): void;
  /** Client-callable methods; names match case-insensitively as in ASP.NET Core. */
  methods?: Record<string, HubMethod>;
}

type State = 'negotiated' | 'handshaking' | 'connected' | 'closed';

export class HubConnection implements HubClient {
  query: Record<string, unknown> = {};
  transport: Transport | null = null;
  private state: State = 'negotiated';
  private readonly reader = new FrameReader();
  private readonly closeListeners: Array<() => void> = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private clientTimer: NodeJS.Timeout | null = null;
  private lastWriteAt = 0;

  constructor(
    readonly hub: HubDefinition,
    readonly connectionId: string,
    readonly connectionToken: string,
    readonly principal: Principal,
    private readonly timing: HubTiming,
    private readonly log: FastifyBaseLogger,
    private readonly onEnded: (connection: HubConnection) => void,
  ) {
    this.timers.push(
      unrefTimeout(() => {
        if (this.state === 'negotiated' || this.state === 'handshaking') this.close('Handshake was not completed in time.');
      }, timing.handshakeTimeoutMs),
    );
  }

  get isClosed(): boolean {
    return this.state === 'closed';
  }

  get isAttached(): boolean {
    return this.transport !== null;
  }

  attach(transport: Transport, query: Record<string, unknown>): void {
    this.transport = transport;
    this.query = query;
    this.state = 'handshaking';
  }

  send(target: string, ...args: unknown[]): void {
    if (this.state === 'connected') this.write(invocationFrame(target, args));
  }

  onClose(listener: () => void): void {
    if (this.state === 'closed') listener();
    else this.closeListeners.push(listener);
  }

  /** Data from the client (one WebSocket message or one long-poll POST body). */
  receive(chunk: string): void {
    if (this.state === 'closed') return;
    this.clientTimer?.refresh();
    for (const record of this.reader.push(chunk)) {
      if (this.state === 'handshaking') this.completeHandshake(record);
      else if (this.state === 'connected') this.dispatch(record);
      if (this.isClosed) return;
    }
  }

  /** Ends the connection from the server side, telling the client why when it is listening. */
  close(error?: string, allowReconnect = false): void {
    if (this.state === 'closed') return;
    if (this.state === 'connected') {
      this.write(allowReconnect ? frame({ type: MessageType.Close, error, allowReconnect }) : closeFrame(error));
    }
    this.finish();
    this.transport?.end();
  }

  /** The transport went away (socket closed, long-poll DELETE): nothing more can be written. */
  transportClosed(): void {
    if (this.state === 'closed') return;
    this.finish();
  }

  private write(data: string): void {
    this.lastWriteAt = Date.now();
    this.transport?.write(data);
  }

  private completeHandshake(record: string): void {
    const result = checkHandshake(record);
    if (!result.ok) {
      this.log.debug(`Handshake refused on ${this.hub.path} (${this.connectionId}): ${result.error}`);
      this.transport?.write(frame({ error: result.error }));
      this.finish();
      this.transport?.end();
      return;
    }
    this.write(frame({}));
    this.state = 'connected';
    this.lastWriteAt = Date.now();
    this.timers.push(
      unrefInterval(() => {
        if (Date.now() - this.lastWriteAt >= this.timing.keepAliveMs / 2) this.write(PING_FRAME);
      }, this.timing.keepAliveMs),
    );
    this.clientTimer = unrefTimeout(
      () => this.close('Server timeout elapsed without receiving a message from the client.'),
      this.timing.clientTimeoutMs,
    );
    this.log.debug(`Client ${this.connectionId} connected to ${this.hub.path} over ${this.transport?.kind}`);
    try {
      this.hub.onConnected(this);
    } catch (error) {
      this.log.error({ err: error }, `Hub ${this.hub.path} failed to set up connection ${this.connectionId}`);
      this.close('Connection closed with an error.');
    }
  }

  private dispatch(record: string): void {
    const message = parseMessage(record);
    if (!message) {
      this.close('Connection closed with an error. InvalidDataException: Error reading JSON.');
      return;
    }
    switch (message.type) {
      case MessageType.Invocation:
        this.invoke(message);
        break;
      case MessageType.StreamInvocation:
        if (typeof message.invocationId === 'string') {
          this.complete(message.invocationId, undefined, 'Streaming hub methods are not supported.');
        }
        break;
      case MessageType.Close:
        this.finish();
        this.transport?.end();
        break;
      default:
        // Pings only keep the connection alive; cancellations, stream items and client results have no use here.
        break;
    }
  }

  private invoke(message: HubMessage): void {
    const target = typeof message.target === 'string' ? message.target : '';
    const args = Array.isArray(message.arguments) ? message.arguments : [];
    const invocationId = typeof message.invocationId === 'string' ? message.invocationId : undefined;
    const method = findMethod(this.hub, target);
    if (!method) {
      if (invocationId) this.complete(invocationId, undefined, `Unknown hub method '${target}'`);
      return;
    }
    Promise.resolve()
      .then(() => method(this, args))
      .then(
        (result) => {
          if (invocationId) this.complete(invocationId, result);
        },
        (error: unknown) => {
          if (!(error instanceof HubError)) {
            this.log.error({ err: error }, `Hub method ${target} failed on ${this.hub.path}`);
          }
          const text = error instanceof HubError ? error.message : `An unexpected error occurred invoking '${target}' on the server.`;
          if (invocationId) this.complete(invocationId, undefined, text);
        },
      );
  }

  private complete(invocationId: string, result: unknown, error?: string): void {
    if (this.state !== 'connected') return;
    const message: Record<string, unknown> = { type: MessageType.Completion, invocationId };
    if (error !== undefined) message.error = error;
    else if (result !== undefined) message.result = result;
    this.write(frame(message));
  }

  private finish(): void {
    const wasConnected = this.state === 'connected';
    this.state = 'closed';
    for (const timer of this.timers) clearTimeout(timer);
    if (this.clientTimer) clearTimeout(this.clientTimer);
    if (wasConnected) this.log.debug(`Client ${this.connectionId} left ${this.hub.path}`);
    for (const listener of this.closeListeners.splice(0)) {
      try {
        listener();
      } catch (error) {
        this.log.error({ err: error }, `Cleanup of connection ${this.connectionId} failed`);
      }
    }
    this.onEnded(this);
  }
}

function findMethod(hub: HubDefinition, target: string): HubMethod | undefined {
  const wanted = target.toLowerCase();
  for (const [name, method] of Object.entries(hub.methods ?? {})) {
    if (name.toLowerCase() === wanted) return method;
  }
  return undefined;
}

function unrefTimeout(fn: () => void, ms: number): NodeJS.Timeout {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return timer;
}

function unrefInterval(fn: () => void, ms: number): NodeJS.Timeout {
  const timer = setInterval(fn, ms);
  timer.unref();
  return timer;
}
