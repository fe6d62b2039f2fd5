import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { abortError, ALL_ALGORITHMS, HashError, type FileHashes, type HashOptions } from './file-hashes.js';
import { FileJob, type QueuedFile } from './file-job.js';
import { planLanes } from './lane-plan.js';
import { spawnHashWorker } from './spawn-hash-worker.js';
import type { FromWorker } from './worker-protocol.js';

interface PoolWorker {
  thread: Worker;
  job: FileJob | null;
}

export interface HashPoolOptions {
  /** Worker threads; defaults to the number of cores. */
  size?: number;
}

/**
 * Hashes files on worker threads. With more files waiting than free workers, each file gets one worker; a file
 * alone gets several, each computing some of the four digests over the same single read, so one big file also
 * uses every core. Workers start on first use and do not keep the process alive while idle.
 */
export class HashPool {
  readonly size: number;
  private readonly workers: PoolWorker[] = [];
  private readonly queue: { file: QueuedFile; onAbort?: () => void }[] = [];
  private readonly running = new Set<FileJob>();
  private nextId = 1;
  private scheduling = false;
  private closed = false;

  constructor(options: HashPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? os.availableParallelism()));
  }

  hash(path: string, options: HashOptions = {}): Promise<FileHashes> {
    const { signal } = options;
    if (this.closed) return Promise.reject(new HashError(`Cannot hash ${path}: the hash pool is closed (ECLOSED)`, 'ECLOSED', path));
    if (signal?.aborted) return Promise.reject(abortError(path));
    return new Promise((resolve, reject) => {
      const entry: { file: QueuedFile; onAbort?: () => void } = { file: { id: this.nextId++, path, options, resolve, reject } };
      if (signal) {
        entry.onAbort = () => this.abort(entry.file);
        signal.addEventListener('abort', entry.onAbort, { once: true });
        const forget = () => signal.removeEventListener('abort', entry.onAbort!);
        entry.file.resolve = (hashes) => (forget(), resolve(hashes));
        entry.file.reject = (error) => (forget(), reject(error));
      }
      this.queue.push(entry);
      this.scheduleSoon();
    });
  }

  /** Rejects waiting and running work, then stops the workers. */
  async close(): Promise<void> {
    this.closed = true;
    for (const { file } of this.queue.splice(0))
      file.reject(new HashError(`Cannot hash ${file.path}: the hash pool is closed (ECLOSED)`, 'ECLOSED', file.path));
    for (const job of [...this.running])
      job.fail(new HashError(`Cannot hash ${job.file.path}: the hash pool is closed (ECLOSED)`, 'ECLOSED', job.file.path));
    await Promise.all(this.workers.splice(0).map((worker) => worker.thread.terminate()));
  }

  /** Waits for the current turn of the event loop, so files queued together are shared out together. */
  private scheduleSoon(): void {
    if (this.scheduling) return;
    this.scheduling = true;
    queueMicrotask(() => {
      this.scheduling = false;
      this.schedule();
    });
  }

  private schedule(): void {
    while (this.queue.length > 0 && !this.closed) {
      const idle = this.workers.filter((worker) => !worker.job);
      const free = idle.length + this.size - this.workers.length;
      if (free === 0) return;
      const { file } = this.queue.shift()!;
      const share = Math.max(1, Math.floor(free / (this.queue.length + 1)));
      const lanes = planLanes(ALL_ALGORITHMS, share);
      try {
        while (idle.length < lanes.length) idle.push(this.spawn());
      } catch (error) {
        file.reject(
          new HashError(
            `Cannot hash ${file.path}: no hash worker could start: ${(error as Error).message} (EWORKER)`,
            'EWORKER',
            file.path,
            { cause: error },
          ),
        );
        continue;
      }
      const team = lanes.map((algorithms, i) => ({ worker: idle[i], algorithms }));
      const job = new FileJob(
        file,
        team.map(({ worker, algorithms }) => ({ thread: worker.thread, algorithms })),
        (done) => this.release(done),
      );
      for (const { worker } of team) {
        worker.job = job;
        worker.thread.ref();
      }
      this.running.add(job);
      void job.run();
    }
  }

  private release(job: FileJob): void {
    if (!this.running.delete(job)) return;
    for (const worker of this.workers) {
      if (worker.job !== job) continue;
      worker.job = null;
      worker.thread.unref();
    }
    this.scheduleSoon();
  }

  private abort(file: QueuedFile): void {
    const queued = this.queue.findIndex((entry) => entry.file === file);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      file.reject(abortError(file.path));
      return;
    }
    for (const job of this.running) if (job.file === file) job.abort();
  }

  private spawn(): PoolWorker {
    const worker: PoolWorker = { thread: spawnHashWorker(), job: null };
    worker.thread.unref();
    worker.thread.on('message', (message: FromWorker) => worker.job?.onMessage(worker.thread, message));
    const lost = (reason: string) => {
      const index = this.workers.indexOf(worker);
      if (index < 0) return; // terminated by close()
      this.workers.splice(index, 1);
      worker.job?.fail(
        new HashError(`Cannot hash ${worker.job.file.path}: the hash worker stopped: ${reason} (EWORKER)`, 'EWORKER', worker.job.file.path),
      );
      this.scheduleSoon();
    };
    worker.thread.on('error', (error) => lost(error.message));
    worker.thread.on('exit', (code) => lost(`exit code ${code}`));
    this.workers.push(worker);
    return worker;
  }
}
