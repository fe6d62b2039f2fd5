import type { WebSocket } from 'ws';
import type { Transport } from './connection.js';

const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;

export class WebSocketTransport implements Transport {
  readonly kind = 'WebSockets' as const;

  constructor(private readonly socket: WebSocket) {}

  write(data: string): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    // A client that stopped reading would otherwise make the server buffer every log line for it.
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.socket.terminate();
      return;
    }
    this.socket.send(data);
  }

  end(): void {
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(1000);
    }
  }
}

/** What a poll request answers: queued frames (200, possibly empty after the wait) or 204 once the connection is over. */
export type PollResult = { status: 200; body: string } | { status: 204 };

interface Waiter {
  deliver(result: PollResult): void;
}

/**
 * Frames wait in a queue until the client's next poll collects them. Only one poll is served at a time: a newer poll
 * releases the older one empty-handed, as the older request is most likely abandoned.
 */
export class LongPollingTransport implements Transport {
  readonly kind = 'LongPolling' as const;
  private queue: string[] = [];
  private ended = false;
  private waiter: Waiter | null = null;
  /** Set once the client has been told (204) that the connection is over. */
  drained = false;

  constructor(private readonly waitMs: number) {}

  write(data: string): void {
    if (this.ended) return;
    this.queue.push(data);
    this.flush();
  }

  end(): void {
    this.ended = true;
    this.flush();
  }

  /**
   * Serves one poll. `onAbandoned` registers a callback for a request that goes away before it is answered, so
   * frames are kept for the next poll instead of being written to a dead socket.
   */
  poll(onAbandoned: (release: () => void) => void): Promise<PollResult> {
    this.waiter?.deliver({ status: 200, body: '' });
    const ready = this.take();
    if (ready) return Promise.resolve(ready);
    return new Promise<PollResult>((resolve) => {
      const timer = setTimeout(() => waiter.deliver({ status: 200, body: '' }), this.waitMs);
      timer.unref();
      const waiter: Waiter = {
        deliver: (result) => {
          clearTimeout(timer);
          if (this.waiter === waiter) this.waiter = null;
          resolve(result);
        },
      };
      this.waiter = waiter;
      // Frames stay queued for the next poll; the abandoned request is just released.
      onAbandoned(() => waiter.deliver({ status: 200, body: '' }));
    });
  }

  private take(): PollResult | null {
    if (this.queue.length) {
      const body = this.queue.join('');
      this.queue = [];
      return { status: 200, body };
    }
    if (this.ended) {
      this.drained = true;
      return { status: 204 };
    }
    return null;
  }

  private flush(): void {
    if (!this.waiter) return;
    const ready = this.take();
    if (ready) this.waiter.deliver(ready);
  }
}
