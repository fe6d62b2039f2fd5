import type { QueueFault } from '@shoko-ts/contract';

/**
 * What holds the queue while its database cannot take writes (a full disk, a lost connection, a lock timed out): the
 * reason shown, since when, and the next try. Tries come with back-off — the first after `firstMs`, each next one
 * twice as long up to `maxMs` — until `attempt` succeeds with no new fault reported meanwhile; the back-off starts over
 * once work succeeds again (`workSucceeded`).
 */
export class FaultHold {
  private fault: { reason: string; since: string; retryAt: string | null } | null = null;
  /** Counts reported faults: a try that overlapped a new one does not end the hold. */
  private version = 0;
  private timer: NodeJS.Timeout | null = null;
  private trying = false;
  private stopped = false;
  /** Tries since work last succeeded: each doubles the wait. */
  private retries = 0;

  constructor(
    private readonly retry: { firstMs: number; maxMs: number },
    /** One try to end the hold: resolves when the database took it, rejects with what failed. */
    private readonly attempt: () => Promise<void>,
    private readonly events: {
      /** A try failed: the error goes back through `report`. */
      failed(error: unknown): void;
      /** The hold is over (the reason it was for). */
      over(reason: string): void;
    },
  ) {}

  /** Null unless a fault holds the queue. */
  get current(): QueueFault | null {
    return this.fault ? { Reason: this.fault.reason, Since: this.fault.since, RetryAt: this.fault.retryAt } : null;
  }

  get held(): boolean {
    return this.fault !== null;
  }

  /** A fault met: the hold begins (true) or, already in force, shows the newest reason (false). */
  report(reason: string): boolean {
    this.version += 1;
    if (this.stopped) return false;
    const began = this.fault === null;
    if (began) this.fault = { reason, since: new Date().toISOString(), retryAt: null };
    else this.fault!.reason = reason;
    if (!this.timer && !this.trying) this.schedule();
    return began;
  }

  workSucceeded(): void {
    this.retries = 0;
  }

  /** Tries at once (new work was queued, or Resume was asked) rather than waiting out the back-off. */
  tryNow(): void {
    if (!this.timer) return; // a try runs now, or none is needed
    clearTimeout(this.timer);
    this.timer = null;
    void this.run();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    const delay = Math.min(this.retry.maxMs, this.retry.firstMs * 2 ** Math.min(this.retries, 30));
    this.retries += 1;
    if (this.fault) this.fault.retryAt = new Date(Date.now() + delay).toISOString();
    this.timer = setTimeout(() => void this.run(), delay);
    this.timer.unref?.();
  }

  private async run(): Promise<void> {
    this.timer = null;
    if (this.stopped || !this.fault || this.trying) return;
    this.trying = true;
    const version = this.version;
    try {
      await this.attempt();
    } catch (error) {
      this.trying = false;
      this.events.failed(error);
      return;
    }
    this.trying = false;
    if (this.stopped) return;
    if (version !== this.version) {
      // Another fault came in while this ran: it is not over yet.
      if (!this.timer) this.schedule();
      return;
    }
    const { reason } = this.fault;
    this.fault = null;
    this.events.over(reason);
  }
}
