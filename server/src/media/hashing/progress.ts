const MIN_STEP = 0.01;
const MIN_INTERVAL_MS = 250;

/** Turns byte counts into progress callbacks: at most every 1 % or 250 ms, whichever comes first, and 1 at the end. */
export class ProgressReporter {
  private lastFraction = 0;
  private lastAt = Date.now();

  constructor(
    private readonly size: number,
    private readonly onProgress?: (fraction: number) => void,
  ) {}

  update(bytesDone: number): void {
    if (!this.onProgress || this.size === 0) return;
    const fraction = Math.min(1, bytesDone / this.size);
    const now = Date.now();
    if (fraction >= 1 || (fraction - this.lastFraction < MIN_STEP && now - this.lastAt < MIN_INTERVAL_MS)) return;
    this.lastFraction = fraction;
    this.lastAt = now;
    this.onProgress(fraction);
  }

  done(): void {
    this.onProgress?.(1);
  }
}
