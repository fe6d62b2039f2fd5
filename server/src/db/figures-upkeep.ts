import type { Logger } from 'pino';
import { SHOKO_IMPORT_PROGRESS_EVENT } from '@shoko-ts/contract';
import type { DialectName } from './database.js';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { refreshMaintainedFigures } from './maintained-figures.js';

/** How long after the last change the figures are brought up to date, and the longest a run of changes delays it. */
export interface FiguresUpkeepTiming {
  quietMs: number;
  maxDelayMs: number;
}

const DEFAULT_TIMING: FiguresUpkeepTiming = { quietMs: 1_000, maxDelayMs: 15_000 };

/**
 * Brings the maintained figures up to date in the background soon after a change marked them (a job that imported,
 * scanned or linked files, a bulk link in the console), so that the first reader after a bulk change finds them ready
 * instead of paying for the whole change itself. Readers still bring them up to date first when they are marked; this
 * only moves that work to right after the change. Runs one at a time; changes during a run ask for one more.
 */
export class FiguresUpkeep {
  private timer: NodeJS.Timeout | null = null;
  private firstChangeAt: number | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly timing: FiguresUpkeepTiming;

  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      dialect: DialectName;
      logger: Logger;
      timing?: Partial<FiguresUpkeepTiming>;
      now?: () => number;
      /** What a run does (tests count runs); by default `refreshMaintainedFigures`. */
      refresh?: () => Promise<void>;
    },
  ) {
    this.timing = { ...DEFAULT_TIMING, ...deps.timing };
  }

  /** Something changed the collection: the figures are brought up to date once changes have been quiet a moment. */
  changed(): void {
    if (this.stopped) return;
    const now = this.now();
    this.firstChangeAt ??= now;
    const due = Math.min(now + this.timing.quietMs, this.firstChangeAt + this.timing.maxDelayMs);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), Math.max(0, due - now));
    this.timer.unref();
  }

  /**
   * A ShokoEvent (`event` its name) was raised: a change made outside a job. A Shoko import's progress is not one: the
   * import brings the figures up to date itself before it reports done, and a run started beside its write (every 15 s
   * of progress) did the same work again while the import waited (SQLite at 100k files: a 117 s refresh inside it).
   */
  shokoEvent(event: string): void {
    if (event !== SHOKO_IMPORT_PROGRESS_EVENT) this.changed();
  }

  /** Resolves once no run is going on or due (for a shutdown, and for tests). */
  async settled(): Promise<void> {
    while (this.running || this.timer) {
      if (this.running) await this.running;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.running) await this.running;
  }

  private run(): void {
    this.timer = null;
    this.firstChangeAt = null;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.refresh().finally(() => {
      this.running = null;
      if (this.again && !this.stopped) {
        this.again = false;
        this.run();
      }
    });
  }

  private async refresh(): Promise<void> {
    const started = this.now();
    try {
      await (this.deps.refresh ? this.deps.refresh() : refreshMaintainedFigures(this.deps.db, this.deps.dialect));
      const took = this.now() - started;
      if (took >= 1_000) this.deps.logger.info(`Maintained figures brought up to date in ${(took / 1000).toFixed(1)} s`);
    } catch (error) {
      // Readers bring the figures up to date themselves when this could not.
      this.deps.logger.warn({ err: error }, 'Bringing the maintained figures up to date failed');
    }
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}
