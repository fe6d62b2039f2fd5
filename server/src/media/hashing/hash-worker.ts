import { parentPort } from 'node:worker_threads';
import { runAsBackgroundThread } from './background-thread.js';
import { createDigester, type Digester } from './hash-engines.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

interface Job {
  id: number;
  ring: Uint8Array;
  slotSize: number;
  // Resolving the engines can be asynchronous (hash-wasm); chunks queue on this promise in arrival order.
  digester: Promise<Digester>;
}

const port = parentPort!;
// Hashing is background work: requests come first when the cores are busy.
runAsBackgroundThread();
const send = (message: FromWorker) => port.postMessage(message);
let job: Job | null = null;

function onJob(id: number, work: (digester: Digester, current: Job) => void): void {
  const current = job;
  if (!current || current.id !== id) return; // a job cancelled meanwhile
  current.digester
    .then((digester) => {
      if (job === current) work(digester, current);
    })
    .catch((error: unknown) => {
      if (job !== current) return;
      job = null;
      send({ type: 'failed', jobId: id, message: error instanceof Error ? error.message : String(error) });
    });
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'start':
      job = {
        id: message.jobId,
        ring: new Uint8Array(message.ring),
        slotSize: message.slotSize,
        digester: createDigester(message.algorithms),
      };
      break;
    case 'chunk':
      onJob(message.jobId, (digester, current) => {
        const start = message.slot * current.slotSize;
        digester.update(current.ring.subarray(start, start + message.length));
        send({ type: 'consumed', jobId: current.id, slot: message.slot, length: message.length });
      });
      break;
    case 'finish':
      onJob(message.jobId, (digester, current) => {
        job = null;
        send({ type: 'digests', jobId: current.id, digests: digester.finish() });
      });
      break;
    case 'cancel':
      if (job?.id === message.jobId) job = null;
      break;
  }
});
