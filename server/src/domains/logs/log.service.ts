/**
 * DESIGN — logs domain: the server's log (pino) written to `<home>/logs` with rotation (log-rotation.ts) and a
 * recent-entries ring that the SignalR log hub replays (log-format.ts shapes entries as Shoko does). No routes and no
 * store: main.ts creates it before anything else, services get child loggers from it, and the logging settings
 * (level, retention) are applied from the settings domain whenever they are saved.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import type { LogEvent } from '@shoko-ts/contract';
import type { EventBus } from '../../events/bus.js';
import { formatLine, isSuppressed, secretSettingValues, toLogEvent, type PinoRecord } from './log-format.js';
import { localDay, logFileName, nextDayStart, rotateLogFiles, type LogRotatorSettings } from './log-rotation.js';

export const BACKLOG_SIZE = 5000;

export interface LogSettings {
  TraceLog: boolean;
  LogRotator: LogRotatorSettings;
}

const INFO = 30;
const TRACE = 10;

/** Fixed-size ring of the most recent entries, for the log hub's backlog. */
class RingBuffer<T> {
  private readonly items: T[] = [];
  private start = 0;

  constructor(private readonly capacity: number) {}

  push(item: T): void {
    if (this.items.length < this.capacity) {
      this.items.push(item);
    } else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  /** Oldest first. */
  toArray(): T[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }
}

/**
 * Owns the server's pino root logger and everything its lines go to: the in-memory backlog, the `log` bus event (the
 * log hub), stdout, and daily files under `<home>/logs` rotated per the LogRotator settings.
 *
 * pino's own level stays at trace because child loggers copy the level when they are created; the TraceLog switch is
 * applied here instead, so turning it on affects loggers that already exist.
 */
/** How long after a failed write the log file is tried again. */
const LOG_FILE_RETRY_MS = 5_000;

export class LogService {
  readonly logger: pino.Logger;
  private readonly dir: string;
  private readonly ring = new RingBuffer<LogEvent>(BACKLOG_SIZE);
  private secrets = new Set<string>();
  private readonly extraSecrets = new Set<string>();
  private minLevel = INFO;
  private rotator: LogRotatorSettings = { Enabled: true, Zip: true, Delete: true, Delete_Days: '' };
  private rotatorKey = '';
  private file: WriteStream | null = null;
  private fileDay = '';
  private fileDayEnds = 0;
  /** When the log file last failed a write (a full disk): it is opened again a while later, not for every line. */
  private fileFailedAt: number | null = null;
  private background: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly pendingEvents: LogEvent[] = [];
  private emitting = false;

  private constructor(
    home: string,
    private readonly bus: EventBus,
    private readonly stdout: boolean,
  ) {
    this.dir = path.join(home, 'logs');
    mkdirSync(this.dir, { recursive: true });
    this.logger = pino(
      { level: 'trace', base: null, serializers: { err: pino.stdSerializers.err } },
      { write: (line: string) => this.handle(line) },
    );
  }

  static create(opts: { home: string; bus: EventBus; stdout?: boolean }): LogService {
    return new LogService(opts.home, opts.bus, opts.stdout ?? false);
  }

  backlog(): LogEvent[] {
    return this.ring.toArray();
  }

  /** Accepts the whole server settings object too: credential values found in it are masked in every line. */
  applySettings(settings: LogSettings): void {
    this.minLevel = settings.TraceLog ? TRACE : INFO;
    this.secrets = secretSettingValues(settings, new Set(this.extraSecrets));
    const rotator = { ...settings.LogRotator };
    const key = JSON.stringify(rotator);
    if (key !== this.rotatorKey) {
      this.rotator = rotator;
      this.rotatorKey = key;
      void this.rotate();
    }
  }

  /** Masks a credential that is not part of the settings (e.g. a database URL password). */
  addSecret(value: string): void {
    if (value.length < 4) return;
    this.extraSecrets.add(value);
    this.secrets.add(value);
  }

  /** Runs the rotation now (it also runs when settings change and at each day change); resolves when done. */
  rotate(): Promise<void> {
    return this.enqueue(async () => {
      const { deleted, compressed } = await rotateLogFiles(this.dir, this.rotator, new Date());
      if (deleted.length || compressed.length) {
        this.logger.child({ name: 'LogRotator' }).debug(`Deleted ${deleted.length} and compressed ${compressed.length} old log files`);
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const file = this.file;
    this.file = null;
    await this.enqueue(() => endStream(file));
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.background.then(task).catch((error: unknown) => {
      process.stderr.write(`Log rotation failed: ${error instanceof Error ? error.message : String(error)}\n`);
    });
    this.background = run;
    return run;
  }

  private handle(line: string): void {
    let record: PinoRecord;
    try {
      record = JSON.parse(line) as PinoRecord;
    } catch {
      return;
    }
    if (record.level < this.minLevel) return;
    const entry = toLogEvent(record, this.secrets);
    if (isSuppressed(entry.Message)) return;

    this.ring.push(entry);
    const text = formatLine(entry, record, this.secrets);
    if (this.stdout) process.stdout.write(text);
    this.writeFile(record.time, text);
    this.announce(entry);
  }

  private writeFile(time: number, text: string): void {
    if (this.closed) return;
    if (this.file?.destroyed) {
      // A write failed (the disk is full): the lines go to the console and the log hub only, until the file is
      // opened again (and the write succeeds) some seconds later.
      if (this.fileFailedAt !== null && time - this.fileFailedAt < LOG_FILE_RETRY_MS) return;
      this.file = null;
    }
    if (!this.file || time >= this.fileDayEnds) {
      const now = new Date(time);
      const day = localDay(now);
      if (day !== this.fileDay || !this.file) {
        const previous = this.file;
        this.file = createWriteStream(path.join(this.dir, logFileName(day)), { flags: 'a' });
        this.file.on('error', (error) => {
          if (this.fileFailedAt === null) process.stderr.write(`Cannot write log file: ${error.message}\n`);
          this.fileFailedAt = Date.now();
        });
        const changedDay = this.fileDay !== '';
        this.fileDay = day;
        if (previous) void this.enqueue(() => endStream(previous));
        if (changedDay) void this.rotate();
      }
      this.fileDayEnds = nextDayStart(now);
    }
    this.file.write(text, (error) => {
      if (!error) this.fileFailedAt = null;
    });
  }

  /** Listeners may log while handling an entry; those entries are announced after the current one, not inside it. */
  private announce(entry: LogEvent): void {
    this.pendingEvents.push(entry);
    if (this.emitting) return;
    this.emitting = true;
    try {
      for (let next = this.pendingEvents.shift(); next; next = this.pendingEvents.shift()) {
        try {
          this.bus.emit('log', next);
        } catch {
          // A failing subscriber must not break logging for everyone else.
        }
      }
    } finally {
      this.emitting = false;
    }
  }
}

function endStream(stream: WriteStream | null): Promise<void> {
  if (!stream || stream.closed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.end(() => resolve());
    stream.once('error', () => resolve());
  });
}
