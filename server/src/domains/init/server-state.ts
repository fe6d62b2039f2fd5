import type { ServerState, ServerStatus } from '@shoko-ts/contract';

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

/** .NET TimeSpan text `[d.]hh:mm:ss[.fffffff]`, fraction omitted when zero. */
export function formatTimeSpan(ms: number): string {
  const totalSeconds = Math.floor(ms / 1000);
  const days = Math.floor(totalSeconds / 86400);
  const hours = Math.floor((totalSeconds % 86400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const fraction = Math.round((ms % 1000) * 10_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${days ? `${days}.` : ''}${pad(hours)}:${pad(minutes)}:${pad(seconds)}${fraction ? `.${String(fraction).padStart(7, '0')}` : ''}`;
}
