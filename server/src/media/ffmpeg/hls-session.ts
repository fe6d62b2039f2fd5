import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FfmpegTools } from './probe.js';
import { ffmpegArguments, isCompleteInitSegment, type HlsJob, type SegmentPlan } from './hls-plan.js';

/** A segment farther than this (seconds of media) past what ffmpeg has produced restarts ffmpeg there. */
export const RESTART_DISTANCE_SECONDS = 20;
const WAIT_STEP_MS = 50;
const WAIT_LIMIT_MS = 120_000;
/** How often the producer looks at its folder besides the file events (events can be lost; timers cannot). */
const REGULATE_INTERVAL_MS = 1_000;

/**
 * How far ffmpeg may run ahead of the viewer and how much it keeps behind, in seconds of media around the start of the
 * segment the viewer asked for last. A player buffers 30-60 s ahead of what it shows and keeps some behind for small
 * backward seeks; what lies outside is deleted (asking for it again restarts ffmpeg there, like any far seek), so a
 * session's disk use stays near (keepBehind + keepAhead) seconds of output whatever the file's length.
 */
export interface ProductionWindow {
  /** ffmpeg is paused (SIGSTOP) when it is this far ahead of the viewer… */
  pauseAhead: number;
  /** …and continued (SIGCONT) when the viewer comes within this. */
  resumeAhead: number;
  /** Units ending this far behind the viewer are deleted. */
  keepBehind: number;
  /** Units starting this far ahead of the viewer are deleted (left by an earlier run, or past a paused one's reach). */
  keepAhead: number;
}

export const PRODUCTION_WINDOW: ProductionWindow = { pauseAhead: 90, resumeAhead: 60, keepBehind: 60, keepAhead: 120 };

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

const UNIT_FILE = /^u(\d+)\.m4s$/;

interface Run {
  child: ChildProcess;
  startUnit: number;
  /** The next unit this run writes (ffmpeg writes them in order; every unit file from startUnit on is this run's). */
  next: number;
  exited: Promise<number | null>;
  exitCode: number | null | undefined;
  errors: string;
  /** Stopped with SIGSTOP by the window. */
  paused: boolean;
}

/** The ffmpeg side of one session: starts, restarts, pauses and stops ffmpeg and hands out finished units. */
export class HlsProducer {
  private run: Run | null = null;
  private stopped = false;
  /** Units known finished and on disk (cached existence checks). */
  private readonly done = new Set<number>();
  /** The first unit of the segment the viewer asked for last. */
  private viewerUnit = 0;
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private trimming: Promise<void> | null = null;
  private trimAgain = false;
  /** Restarts so far (the first start included). */
  starts = 0;
  /** The initialisation segment, once read whole. */
  private initSegment: Buffer | null = null;

  constructor(
    private readonly tools: FfmpegTools,
    readonly plan: SegmentPlan,
    private readonly job: HlsJob,
    readonly dir: string,
    private readonly window: ProductionWindow = PRODUCTION_WINDOW,
  ) {}

  /** The running ffmpeg's process id, null when none runs. */
  get pid(): number | null {
    return this.run && this.run.exitCode === undefined ? (this.run.child.pid ?? null) : null;
  }

  /** True while the window holds ffmpeg stopped. */
  get paused(): boolean {
    return !!this.run && this.run.exitCode === undefined && this.run.paused;
  }

  /** The units on disk now (tests check the window bounds them). */
  async unitsOnDisk(): Promise<number[]> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    return names
      .map((name) => UNIT_FILE.exec(name))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
  }

  private unitFile(unit: number) {
    return path.join(this.dir, `u${unit}.m4s`);
  }

  private timeOf(unit: number): number {
    return this.plan.unitStarts[unit] ?? this.plan.duration;
  }

  private async isDone(unit: number): Promise<boolean> {
    if (this.done.has(unit)) return true;
    if (await exists(this.unitFile(unit))) {
      this.done.add(unit);
      return true;
    }
    return false;
  }

  /** Moves the run's `next` past the units it has written (by the files on disk). */
  private async advance(run: Run): Promise<void> {
    while (run.next < this.plan.unitStarts.length && (await this.isDone(run.next))) run.next++;
  }

  /** SIGSTOP or SIGCONT by how far the run is ahead of the viewer. Synchronous, so a file event pauses at once. */
  private pace(run: Run): void {
    if (run.exitCode !== undefined || run !== this.run) return;
    const ahead = this.timeOf(run.next) - this.timeOf(this.viewerUnit);
    const want = ahead > this.window.pauseAhead ? true : ahead < this.window.resumeAhead ? false : run.paused;
    if (want === run.paused) return;
    try {
      run.child.kill(want ? 'SIGSTOP' : 'SIGCONT');
      run.paused = want;
    } catch {
      // A platform without job control signals: ffmpeg simply runs on (the trim still bounds the disk).
    }
  }

  /** A unit file appeared or vanished: a finished unit of the running ffmpeg may pause it. */
  private onFolderEvent(name: string | null): void {
    const run = this.run;
    const match = name ? UNIT_FILE.exec(name) : null;
    if (!run || !match) return;
    const unit = Number(match[1]);
    if (unit === run.next && existsSync(this.unitFile(unit))) {
      this.done.add(unit);
      run.next++;
      this.pace(run);
      if (!this.inWindow(unit)) void this.trim().catch(() => undefined);
    }
  }

  private inWindow(unit: number): boolean {
    const viewer = this.timeOf(this.viewerUnit);
    return this.timeOf(unit + 1) >= viewer - this.window.keepBehind && this.timeOf(unit) <= viewer + this.window.keepAhead;
  }

  /** Deletes the units outside the window around the viewer (once more after the current pass when asked during it). */
  private trim(): Promise<void> {
    if (this.trimming) {
      this.trimAgain = true;
      return this.trimming;
    }
    this.trimming = (async () => {
      do {
        this.trimAgain = false;
        for (const unit of await this.unitsOnDisk()) {
          if (this.inWindow(unit)) continue;
          this.done.delete(unit);
          await fs.rm(this.unitFile(unit), { force: true });
        }
      } while (this.trimAgain && !this.stopped);
    })().finally(() => (this.trimming = null));
    return this.trimming;
  }

  /** Paces ffmpeg and trims the folder; runs on file events, on every request and on a timer. */
  private async regulate(): Promise<void> {
    if (this.stopped) return;
    const run = this.run;
    if (run && run.exitCode === undefined) {
      await this.advance(run);
      this.pace(run);
    }
    await this.trim();
  }

  private watch(): void {
    if (this.timer) return;
    try {
      this.watcher = watch(this.dir, (_event, name) => this.onFolderEvent(name));
      this.watcher.on('error', () => undefined);
    } catch {
      this.watcher = null;
    }
    this.timer = setInterval(() => void this.regulate().catch(() => undefined), REGULATE_INTERVAL_MS);
    this.timer.unref();
  }

  private async start(unit: number): Promise<void> {
    await this.kill();
    // Partly written units of the previous run are its temporary files; units from `unit` on are written again by
    // this run (so every unit file from its start on is its own, and `next` can be read from the folder).
    for (const name of await fs.readdir(this.dir).catch(() => [] as string[])) {
      const match = UNIT_FILE.exec(name);
      if (name.endsWith('.tmp') || (match && Number(match[1]) >= unit)) {
        if (match) this.done.delete(Number(match[1]));
        await fs.rm(path.join(this.dir, name), { force: true });
      }
    }
    if (this.stopped) return;
    this.watch();
    const child = spawn(this.tools.ffmpeg, ffmpegArguments(this.plan, this.job, unit, this.dir), { stdio: ['ignore', 'ignore', 'pipe'] });
    const run: Run = { child, startUnit: unit, next: unit, exitCode: undefined, errors: '', exited: Promise.resolve(null), paused: false };
    run.exited = new Promise((resolve) => {
      child.once('error', (error) => {
        run.errors += String(error);
        run.exitCode = -1;
        resolve(-1);
      });
      child.once('exit', (code) => {
        run.exitCode = code;
        resolve(code);
      });
    });
    child.stderr?.on('data', (chunk: Buffer) => (run.errors = (run.errors + chunk.toString()).slice(-4000)));
    this.run = run;
    this.starts++;
  }

  /** SIGKILL ends a stopped (paused) process too: no SIGCONT needed first. */
  private async kill(): Promise<void> {
    const run = this.run;
    if (!run || run.exitCode !== undefined) return;
    run.child.kill('SIGKILL');
    await run.exited;
  }

  /**
   * Makes sure ffmpeg is producing `unit` soon: restarts it at `restartUnit` when the unit lies before the run, was
   * deleted behind it, or is far ahead of it; continues a paused run.
   */
  private async ensureProducing(unit: number, restartUnit: number): Promise<void> {
    const run = this.run;
    if (!run || run.exitCode !== undefined || unit < run.startUnit) return this.start(restartUnit);
    await this.advance(run);
    // Not on disk, yet before what the run has written: deleted by the window.
    if (unit < run.next) return this.start(restartUnit);
    if (this.timeOf(unit) - this.timeOf(run.next) > RESTART_DISTANCE_SECONDS) return this.start(restartUnit);
    this.pace(run);
  }

  /** Waits until a unit is finished; restarts ffmpeg at `restartUnit` when needed. */
  private async waitFor(unit: number, restartUnit: number): Promise<void> {
    if (await this.isDone(unit)) return;
    await this.ensureProducing(unit, restartUnit);
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      if (this.stopped) throw new Error('The session has ended.');
      if (await this.isDone(unit)) return;
      const run = this.run!;
      if (run.exitCode !== undefined) {
        // A run may end cleanly just after writing the unit we wait for.
        if (await this.isDone(unit)) return;
        throw new Error(`ffmpeg stopped (${run.exitCode}): ${run.errors.trim() || 'no output'}`);
      }
      if (Date.now() > deadline) throw new Error('ffmpeg took too long to produce the segment.');
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  }

  /**
   * The initialisation segment. Every run writes the same one, but a run (re)writes the file as it starts, so a read
   * may catch it half written; hls.js never asks twice for it, so a torn copy would stall playback for good. It is
   * read until it holds whole boxes with a `moov`, then kept in memory.
   */
  async init(): Promise<Buffer> {
    if (this.initSegment) return this.initSegment;
    const file = path.join(this.dir, 'init.mp4');
    if (!this.run) await this.start(this.viewerUnit);
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      if (this.stopped) throw new Error('The session has ended.');
      const bytes = await fs.readFile(file).catch(() => null);
      if (bytes && isCompleteInitSegment(bytes)) {
        this.initSegment = bytes;
        return bytes;
      }
      const run = this.run!;
      if (run.exitCode !== undefined) throw new Error(`ffmpeg stopped (${run.exitCode}): ${run.errors.trim() || 'no output'}`);
      if (Date.now() > deadline) throw new Error('ffmpeg took too long to start.');
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
    }
  }

  /** Segment `segment`'s bytes: its units, in order. The viewer is now here: the window moves with it. */
  async segment(segment: number): Promise<Buffer> {
    const first = this.plan.segmentUnits[segment];
    const end = this.plan.segmentUnits[segment + 1] ?? this.plan.unitStarts.length;
    this.viewerUnit = first;
    void this.regulate().catch(() => undefined);
    const parts: Buffer[] = [];
    for (let unit = first; unit < end; unit++) {
      for (;;) {
        await this.waitFor(unit, first);
        // A restart or the window may delete the unit between the wait and the read: then it is made again.
        const bytes = await fs.readFile(this.unitFile(unit)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          this.done.delete(unit);
          return null;
        });
        if (bytes) {
          parts.push(bytes);
          break;
        }
      }
    }
    return Buffer.concat(parts);
  }

  /** Starts producing from a segment before anyone asks (the session's start position). */
  async prepare(segment: number): Promise<void> {
    this.viewerUnit = this.plan.segmentUnits[segment] ?? 0;
    await this.start(this.viewerUnit);
  }

  /** Ends ffmpeg and removes the session's files. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.watcher?.close();
    this.watcher = null;
    await this.kill();
    await this.trimming?.catch(() => undefined);
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}
