import type { MediaInfoFailure } from './errors.js';
import type { MediaInfoDocument } from './track.js';

/** Main thread → worker: analyse one file. A worker is given one request at a time. */
export interface AnalyseRequest {
  id: number;
  path: string;
}

/** Worker → main thread. `fatal` asks the main thread to replace the worker (its WebAssembly state is suspect). */
export type AnalyseReply =
  | { id: number; ok: true; document: MediaInfoDocument }
  | { id: number; ok: false; reason: Extract<MediaInfoFailure, 'not-found' | 'unreadable' | 'crashed'>; message: string; fatal: boolean };
