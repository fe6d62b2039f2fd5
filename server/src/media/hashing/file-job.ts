import type { Worker } from 'node:worker_threads';
import { abortError, HashError, toFileHashes, type Digests, type FileHashes, type HashAlgorithm, type HashOptions } from './file-hashes.js';
import { FileSource, toHashError } from './file-source.js';
import { ProgressReporter } from './progress.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

/**
 * 2 MiB reads; eight of them in flight keep every worker fed while the next read runs. A smaller file gets a ring
 * only as big as itself: a 16 MiB shared buffer made (and zeroed) on the main thread for every small file cost ~10 ms
 * of the event loop each while an import hashed thousands of them (issue 22, import-stall).
 */
const SLOT_SIZE = 2 * 1024 * 1024;
const SLOT_COUNT = 8;

export interface QueuedFile {
  id: number;
  path: string;
  options: HashOptions;
  resolve(hashes: FileHashes): void;
  reject(error: HashError): void;
}

interface TeamMember {
  thread: Worker;
  algorithms: HashAlgorithm[];
  bytesConsumed: number;
}

/**
 * One file hashed by a team of workers: this thread reads the file once, in order, into a ring of shared slots;
 * every member hashes each slot with its own algorithms and hands it back. `release` returns the team to the pool
 * as soon as the workers are free again (digests in, or cancelled).
 */
export class FileJob {
  private ring = new SharedArrayBuffer(0);
  private pendingUsers: number[] = [];
  private readonly slotWaiters = new Map<number, () => void>();
  private readonly team: TeamMember[];
  private readonly digests: Partial<Digests> = {};
  private digestsMissing: number;
  private digestsArrived?: () => void;
  private progress?: ProgressReporter;
  private settled = false;

  constructor(
    readonly file: QueuedFile,
    team: { thread: Worker; algorithms: HashAlgorithm[] }[],
    private readonly release: (job: FileJob) => void,
  ) {
    this.team = team.map((member) => ({ ...member, bytesConsumed: 0 }));
    this.digestsMissing = team.length;
  }

  get threads(): Worker[] {
    return this.team.map((member) => member.thread);
  }

  async run(): Promise<void> {
    const { path } = this.file;
    let source: FileSource | undefined;
    try {
      source = await FileSource.open(path);
      if (this.settled) return;
      this.progress = new ProgressReporter(source.size, this.file.options.onProgress);
      const slotSize = Math.min(SLOT_SIZE, Math.max(source.size, 1));
      const chunks = Math.ceil(source.size / slotSize);
      const slotCount = Math.min(SLOT_COUNT, Math.max(chunks, 1));
      this.ring = new SharedArrayBuffer(slotSize * slotCount);
      this.pendingUsers = new Array<number>(slotCount).fill(0);
      for (const member of this.team)
        this.post(member, { type: 'start', jobId: this.file.id, ring: this.ring, slotSize, algorithms: member.algorithms });
      const digestsIn = new Promise<void>((resolve) => (this.digestsArrived = resolve));
      // The source reads no further than the size it was opened at, so `chunks` reads take the whole file.
      for (let chunk = 0; chunk < chunks; chunk++) {
        const slot = chunk % slotCount;
        await this.slotFree(slot);
        if (this.settled) return;
        const length = await source.readInto(new Uint8Array(this.ring, slot * slotSize, slotSize));
        if (this.settled) return;
        if (length === 0) break;
        this.pendingUsers[slot] = this.team.length;
        for (const member of this.team) this.post(member, { type: 'chunk', jobId: this.file.id, slot, length });
      }
      for (const member of this.team) this.post(member, { type: 'finish', jobId: this.file.id });
      await digestsIn;
      if (this.settled) return;
      await source.checkUnchanged();
      if (this.settled) return;
      this.settled = true;
      this.progress.done();
      this.file.resolve(toFileHashes(source.size, this.digests));
    } catch (error) {
      this.fail(toHashError(error, path));
    } finally {
      await source?.close();
    }
  }

  onMessage(thread: Worker, message: FromWorker): void {
    const member = this.team.find((m) => m.thread === thread);
    if (!member || message.jobId !== this.file.id || this.settled) return;
    if (message.type === 'consumed') {
      member.bytesConsumed += message.length;
      if (--this.pendingUsers[message.slot] === 0) this.wake(message.slot);
      this.progress?.update(Math.min(...this.team.map((m) => m.bytesConsumed)));
    } else if (message.type === 'digests') {
      Object.assign(this.digests, message.digests);
      if (--this.digestsMissing === 0) {
        this.release(this);
        this.digestsArrived?.();
      }
    } else {
      this.fail(new HashError(`Cannot hash ${this.file.path}: ${message.message} (EHASH)`, 'EHASH', this.file.path));
    }
  }

  abort(): void {
    this.fail(abortError(this.file.path));
  }

  /** Ends the job with an error; the workers drop its state and the team goes back to the pool at once. */
  fail(error: HashError): void {
    if (this.settled) return;
    this.settled = true;
    for (const member of this.team) this.post(member, { type: 'cancel', jobId: this.file.id });
    this.release(this);
    for (const slot of [...this.slotWaiters.keys()]) this.wake(slot);
    this.digestsArrived?.();
    this.file.reject(error);
  }

  private post(member: TeamMember, message: ToWorker): void {
    member.thread.postMessage(message);
  }

  private slotFree(slot: number): Promise<void> {
    if (this.pendingUsers[slot] === 0 || this.settled) return Promise.resolve();
    return new Promise((resolve) => this.slotWaiters.set(slot, resolve));
  }

  private wake(slot: number): void {
    const waiter = this.slotWaiters.get(slot);
    this.slotWaiters.delete(slot);
    waiter?.();
  }
}
