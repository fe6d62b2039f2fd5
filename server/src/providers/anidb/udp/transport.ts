import dgram from 'node:dgram';
import type { Logger } from 'pino';

export interface UdpServerAddress {
  host: string;
  port: number;
  /** Local port to bind. AniDB wants it fixed (it bans IPs that show up from many ports); 0 = ephemeral. */
  clientPort: number;
}

interface PendingExchange {
  /** Offered every incoming datagram until the exchange finishes. */
  accept(datagram: Buffer): void;
}

/**
 * One datagram socket bound to the client port. An exchange sends one datagram and waits for the first incoming
 * datagram its matcher accepts; anything else (a late answer to an earlier, timed-out attempt) is skipped.
 * Callers run one exchange at a time.
 */
export class UdpTransport {
  private socket: dgram.Socket | null = null;
  private opening: Promise<dgram.Socket> | null = null;
  private pending: PendingExchange | null = null;

  constructor(
    private readonly server: UdpServerAddress,
    private readonly logger: Logger,
  ) {}

  /**
   * Resolves with what `match` made of the first accepted datagram, or null after `timeoutMs` of silence.
   * A matcher that throws rejects the exchange.
   */
  async exchange<T>(payload: Buffer, match: (datagram: Buffer) => T | undefined, timeoutMs: number): Promise<T | null> {
    const socket = await this.open();
    return new Promise<T | null>((resolve, reject) => {
      const finish = (outcome: () => void) => {
        clearTimeout(timer);
        this.pending = null;
        outcome();
      };
      const timer = setTimeout(() => finish(() => resolve(null)), timeoutMs);
      this.pending = {
        accept: (datagram) => {
          let result: T | undefined;
          try {
            result = match(datagram);
          } catch (error) {
            finish(() => reject(error));
            return;
          }
          if (result !== undefined) finish(() => resolve(result));
        },
      };
      socket.send(payload, this.server.port, this.server.host, (error) => {
        if (error) finish(() => reject(error));
      });
    });
  }

  async close(): Promise<void> {
    const socket = this.socket ?? (await this.opening?.catch(() => null)) ?? null;
    this.socket = null;
    this.opening = null;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }

  private open(): Promise<dgram.Socket> {
    if (this.socket) return Promise.resolve(this.socket);
    this.opening ??= new Promise<dgram.Socket>((resolve, reject) => {
      const socket = dgram.createSocket('udp4');
      socket.on('message', (datagram) => {
        if (this.pending) this.pending.accept(datagram);
        else this.logger.debug(`Ignoring an AniDB datagram nobody waits for (${datagram.length} bytes)`);
      });
      socket.once('error', (error) => {
        // Typically EADDRINUSE: another client already holds the fixed port.
        this.opening = null;
        socket.close();
        reject(error);
      });
      socket.bind(this.server.clientPort, () => {
        socket.removeAllListeners('error');
        socket.on('error', (error) => this.logger.warn({ err: error }, 'AniDB UDP socket error'));
        this.socket = socket;
        resolve(socket);
      });
    });
    return this.opening;
  }
}
