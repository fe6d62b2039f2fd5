import type { ServerState, ServerStatus } from '@shoko-ts/contract';
import { formatTimeSpan } from '../../http/time-span.js';

/**
 * The server's lifecycle as Shoko reports it: Waiting (first run, not started), Starting, Started, Failed.
 * The HTTP server listens in every state so the console can show progress and failures.
 */
export class ServerStateService {
  private state: ServerState = 'Waiting';
  private message: string | null = null;
  private startedAt: number | null = null;

  get current(): ServerState {
    return this.state;
  }

  get isStarted(): boolean {
    return this.state === 'Started';
  }

  setStarting(message: string): void {
    this.state = 'Starting';
    this.message = message;
  }

  setStarted(): void {
    this.state = 'Started';
    this.message = null;
    this.startedAt = Date.now();
  }

  setFailed(message: string): void {
    this.state = 'Failed';
    this.message = message;
  }

  status(): ServerStatus {
    return {
      StartupMessage: this.message,
      State: this.state,
      Uptime: this.startedAt === null ? null : formatTimeSpan(Date.now() - this.startedAt),
      DatabaseBlocked: { Progress: null, Blocked: false, Status: null },
    };
  }
}
