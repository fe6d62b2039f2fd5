import type { Worker } from 'node:worker_threads';
import { MediaInfoError } from './errors.js';
import { spawnMediaInfoWorker } from './spawn-worker.js';
import type { MediaInfoDocument } from './track.js';
import type { AnalyseReply, AnalyseRequest } from './worker-protocol.js';

interface Job {
  id: number;
  path: string;
  timeoutMs: number;
  resolve: (document: MediaInfoDocument) => void;
  reject: (error: MediaInfoError) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
  retired: boolean;
}

function duration(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}` : `${ms} ms`;
}

/**
 * A few long-lived MediaInfo workers, each analysing one file at a time; requests beyond that wait in order.
 * A worker that runs past a request's time limit, dies, or reports a broken WebAssembly instance is terminated and
 * dropped; its request is rejected and the next request starts a fresh worker.
 */
export class MediaInfoWorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly spawn: () => Worker = spawnMediaInfoWorker,
  ) {}

  /** `timeoutMs` ≤ 0 means no limit; the limit runs from the moment a worker takes the request. */
  analyse(path: string, timeoutMs: number): Promise<MediaInfoDocument> {
    if (this.closed) return Promise.reject(new MediaInfoError('closed', path, 'media analysis has been shut down'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, path, timeoutMs, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; requests still running or waiting are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const closedError = (job: Job) => new MediaInfoError('closed', job.path, 'media analysis was shut down');
    for (const job of this.waiting.splice(0)) job.reject(closedError(job));
    await Promise.all(
      [...this.slots].map((slot) => {
        const job = this.release(slot);
        if (job) job.reject(closedError(job));
        return this.retire(slot);
      }),
    );
  }

  private dispatch(): void {
    while (!this.closed && this.waiting.length > 0) {
      const slot = this.idleSlot();
      if (!slot) return;
      this.start(slot, this.waiting.shift()!);
    }
  }

  private idleSlot(): Slot | null {
    for (const slot of this.slots) if (!slot.job) return slot;
    return this.slots.size < this.size ? this.addSlot() : null;
  }

  private addSlot(): Slot {
    const worker = this.spawn();
    const slot: Slot = { worker, job: null, timer: null, retired: false };
    worker.unref(); // an idle worker must not keep the process alive
    worker.on('message', (reply: AnalyseReply) => this.onReply(slot, reply));
    worker.on('error', (error: Error) => this.onWorkerLost(slot, `the MediaInfo worker failed: ${error.message}`));
    worker.on('exit', (code: number) => this.onWorkerLost(slot, `the MediaInfo worker stopped unexpectedly (exit code ${code})`));
    this.slots.add(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    if (job.timeoutMs > 0) slot.timer = setTimeout(() => this.onTimeout(slot), job.timeoutMs);
    slot.worker.postMessage({ id: job.id, path: job.path } satisfies AnalyseRequest);
  }

  /** Detaches the slot's request (if any) and its timer. */
  private release(slot: Slot): Job | null {
    const job = slot.job;
    slot.job = null;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (!slot.retired) slot.worker.unref();
    return job;
  }

  private onReply(slot: Slot, reply: AnalyseReply): void {
    if (slot.job?.id !== reply.id) return; // a reply that lost the race against its time limit
    const job = this.release(slot)!;
    if (reply.ok) {
      job.resolve(reply.document);
    } else {
      if (reply.fatal) void this.retire(slot);
      job.reject(new MediaInfoError(reply.reason, job.path, reply.message));
    }
    this.dispatch();
  }

  private onTimeout(slot: Slot): void {
    const job = this.release(slot);
    void this.retire(slot);
    if (job)
      job.reject(new MediaInfoError('timeout', job.path, `MediaInfo did not finish within ${duration(job.timeoutMs)} and was stopped`));
    this.dispatch();
  }

  private onWorkerLost(slot: Slot, detail: string): void {
    if (slot.retired) return; // terminated on purpose, or already handled ('error' is followed by 'exit')
    const job = this.release(slot);
    void this.retire(slot);
    if (job) job.reject(new MediaInfoError('crashed', job.path, detail));
    this.dispatch();
  }

  private async retire(slot: Slot): Promise<void> {
    slot.retired = true;
    this.slots.delete(slot);
    await slot.worker.terminate();
  }
}
