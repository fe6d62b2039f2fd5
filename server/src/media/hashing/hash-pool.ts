import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { hashFileInline, type FileHashes } from './digest.js';

interface Task {
  id: number;
  path: string;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  resolve: (hashes: FileHashes) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  task: Task | null;
}

/** The compiled worker script next to this file; absent when running from TypeScript sources (unit tests). */
function compiledWorker(): URL | null {
  const js = new URL('./hash-worker.js', import.meta.url);
  return fs.existsSync(fileURLToPath(js)) ? js : null;
}

/**
 * Hashes files on worker threads, one file per worker at a time, so several files and every core are busy while
 * the event loop stays free. A worker that dies is replaced; its task fails with the reason.
 */
export class HashPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: { size?: number } = {}) {}

  get size(): number {
    return Math.max(1, this.options.size ?? os.availableParallelism());
  }

  hash(path: string, options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {}): Promise<FileHashes> {
    if (this.closed) return Promise.reject(new Error('The hash pool is closed'));
    if (!compiledWorker()) return hashFileInline(path, { onProgress: options.onProgress, shouldStop: () => options.signal?.aborted ?? false });
    return new Promise((resolve, reject) => {
      if (options.signal?.aborted) return reject(new Error('Hashing was cancelled'));
      const task: Task = { id: this.nextId++, path, onProgress: options.onProgress, signal: options.signal, resolve, reject };
      options.signal?.addEventListener('abort', () => this.cancel(task), { once: true });
      this.waiting.push(task);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0)) task.reject(new Error('The hash pool is closed'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private cancel(task: Task): void {
    const index = this.waiting.indexOf(task);
    if (index >= 0) {
      this.waiting.splice(index, 1);
      task.reject(new Error('Hashing was cancelled'));
      return;
    }
    this.slots.find((slot) => slot.task === task)?.worker.postMessage({ id: task.id, cancel: true });
  }

  private dispatch(): void {
    while (this.waiting.length) {
      let slot = this.slots.find((s) => !s.task);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const task = this.waiting.shift()!;
      slot.task = task;
      slot.worker.postMessage({ id: task.id, path: task.path });
    }
  }

  private spawn(): Slot {
    // Process-wide flags such as --openssl-legacy-provider are refused per worker; the worker shares the process's.
    const execArgv = process.execArgv.filter((arg) => !arg.startsWith('--openssl'));
    const worker = new Worker(compiledWorker()!, { execArgv });
    worker.unref();
    const slot: Slot = { worker, task: null };
    worker.on('message', (message: { id: number; progress?: number; result?: FileHashes; error?: { message: string; code?: string } }) => {
      const task = slot.task;
      if (!task || task.id !== message.id) return;
      if (message.progress !== undefined) {
        task.onProgress?.(message.progress);
        return;
      }
      slot.task = null;
      if (message.result) task.resolve(message.result);
      else task.reject(Object.assign(new Error(message.error?.message ?? 'Hashing failed'), { code: message.error?.code }));
      this.dispatch();
    });
    worker.on('error', (error) => {
      slot.task?.reject(error);
      slot.task = null;
      this.slots.splice(this.slots.indexOf(slot), 1);
      if (!this.closed) this.dispatch();
    });
    this.slots.push(slot);
    return slot;
  }
}
