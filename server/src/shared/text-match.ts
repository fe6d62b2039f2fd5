import { Worker } from 'node:worker_threads';
import { foldText } from '../db/name-folds.js';

/**
 * Regex and fuzzy string matching for filter expressions. Neither SQLite (no REGEXP without a registered function)
 * nor a portable SQL offers them with the same meaning on both dialects, so these nodes are evaluated in JavaScript
 * over the (candidate, value) pairs of their selector and enter the SQL as a literal id list (see
 * FiltersService.resolveTextMatches). Unlike the rest of the filter language, the cost of such a filter grows with the
 * number of selector values in the collection; the pattern checks and the worker's time limit bound it.
 */

/** Expression ids evaluated here instead of in SQL. */
export const TEXT_MATCHERS = new Set(['StringRegexMatches', 'AnyRegexMatches', 'AllRegexMatches', 'StringFuzzyMatches', 'AnyFuzzyMatches']);

/** Longest accepted pattern or fuzzy needle. */
export const MAX_PATTERN_LENGTH = 200;

export class PatternError extends Error {}

/**
 * Rejects patterns that can backtrack catastrophically: back-references and a repeated group (`*`, `+`, `{n,}`,
 * `{n,m}` with m > 1) that itself contains a repetition or an alternation, e.g. `(a+)+` or `(a|aa)*`. A bounded
 * pattern without those runs in time roughly linear in the value length.
 */
function assertSafe(pattern: string): void {
  if (/\\[1-9]|\\k</.test(pattern)) throw new PatternError('Back-references are not supported.');
  // Per open group: does it contain a repetition or an alternation?
  const stack: boolean[] = [];
  let lastGroupRisky = false;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      lastGroupRisky = false;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    const repeat = readRepeat(pattern, i);
    if (repeat) {
      if (repeat.unbounded && lastGroupRisky) throw new PatternError('Nested repetition (like (a+)+) is not supported.');
      if (repeat.unbounded && stack.length) stack[stack.length - 1] = true;
      i += repeat.length - 1;
      lastGroupRisky = false;
      continue;
    }
    lastGroupRisky = false;
    if (c === '[') inClass = true;
    else if (c === '(') stack.push(false);
    else if (c === '|' && stack.length) stack[stack.length - 1] = true;
    else if (c === ')') {
      const risky = stack.pop() ?? false;
      if (risky && stack.length) stack[stack.length - 1] = true;
      lastGroupRisky = risky;
    }
  }
}

/** A quantifier at `i`: its length and whether it repeats more than once. */
function readRepeat(pattern: string, i: number): { length: number; unbounded: boolean } | null {
  const c = pattern[i];
  const lazy = (n: number) => (pattern[i + n] === '?' || pattern[i + n] === '+' ? n + 1 : n);
  if (c === '*' || c === '+') return { length: lazy(1), unbounded: true };
  if (c === '?') return { length: 1, unbounded: false };
  if (c !== '{') return null;
  const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
  if (!match) return null;
  const max = match[2] === undefined ? Number(match[1]) : match[3] === '' ? Infinity : Number(match[3]);
  return { length: lazy(match[0].length), unbounded: max > 1 };
}

/** Compiles a filter regex (.NET-style syntax largely matches JavaScript's); throws PatternError with a readable reason. */
export function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new PatternError(`The pattern is longer than ${MAX_PATTERN_LENGTH} characters.`);
  assertSafe(pattern);
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    throw new PatternError(`Invalid regular expression: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`);
  }
}

/**
 * A text every match of `pattern` contains (compared lower-cased), or null when none is certain: the run of plain
 * letters, digits, spaces, `_` and `-` the pattern starts with, less a last character a quantifier makes optional, at
 * least two characters; any alternation (`|`) rules it out. After `^` (no multiline flag: the start of the value) every
 * match starts with it (`prefix`). When the pattern is nothing but that text (and the `^`), holding it is matching
 * (`whole`); `written` is the text as the pattern spells it, for case-sensitive matching. Filters pass only the values
 * holding it to the regex, so the database, not the worker, sets aside the rest. Case-insensitive patterns without the
 * `u` flag match an ASCII letter only by its ASCII case variants, and both databases' lower() fold ASCII, so no value
 * that can match is set aside.
 */
export function requiredLiteral(pattern: string): { text: string; written: string; prefix: boolean; whole: boolean } | null {
  if (pattern.includes('|')) return null;
  const prefix = pattern.startsWith('^');
  const start = prefix ? 1 : 0;
  let end = start;
  while (end < pattern.length && /[A-Za-z0-9 _-]/.test(pattern[end]!)) end++;
  const optional = end < pattern.length && /[?*{]/.test(pattern[end]!);
  const literal = pattern.slice(start, optional ? end - 1 : end);
  return literal.length >= 2 ? { text: literal.toLowerCase(), written: literal, prefix, whole: end === pattern.length } : null;
}

export interface TextMatchJob {
  kind: 'regex' | 'fuzzy';
  pattern: string;
  ignoreCase: boolean;
  values: string[];
  /** Per-value needles (fuzzy against another selector); `pattern` is used when null. */
  needles: string[] | null;
  /** Per value, its fold (foldText) when the database keeps it, else null; fuzzy jobs only. */
  folded?: Array<string | null> | null;
}

/** How many edits a fuzzy match of a folded needle allows: a quarter of its length, rounded down (the worker's too). */
export const fuzzyEdits = (folded: string): number => Math.floor(folded.length / 4);

/**
 * Texts of which every fuzzy match of `needle` holds at least one, in folded form: the folded needle cut into one more
 * piece than the edits it allows (at code point boundaries). Each edit changes at most one piece, so a match within
 * the allowed edits leaves a piece intact. A needle allowing no edit is its own one piece; an empty one has none (it
 * matches nothing).
 */
export function fuzzyPieces(needle: string): string[] {
  const folded = foldText(needle);
  if (!folded) return [];
  const points = [...folded];
  const count = fuzzyEdits(folded) + 1;
  return Array.from({ length: count }, (_, i) =>
    points.slice(Math.floor((i * points.length) / count), Math.floor(((i + 1) * points.length) / count)).join(''),
  );
}

/** How long one evaluation may take before the filter is refused. */
const TIMEOUT_MS = 2000;

/**
 * The worker's whole program; it must not reference anything outside itself (it is sent as source text). Fuzzy match:
 * the needle occurs in the value with at most ⌊len/4⌋ edits (insertions, deletions, substitutions), so needles up to 3
 * characters must occur exactly, 4–7 characters may have one typo, 8–11 two, and so on (fuzzyEdits, passed in as
 * `edits`). Both sides are compared folded (foldText, passed in as `fold`; a value may come folded already); an empty
 * needle never matches.
 */
function textMatchWorker(fold: (text: string) => string, edits: (folded: string) => number) {
  // This function's source runs in an eval'd worker (CommonJS), where only require() reaches node:worker_threads.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort } = require('node:worker_threads') as typeof import('node:worker_threads');
  const maxLength = 1000;
  /** `n`: the folded needle; `v`: the folded value. */
  const fuzzy = (v: string, n: string) => {
    if (!n) return false;
    if (v.includes(n)) return true;
    const allowed = edits(n);
    if (!allowed) return false;
    // Sellers' approximate substring search: row[j] = fewest edits matching the needle so far, ending at v[j - 1].
    let previous = new Array<number>(v.length + 1).fill(0);
    for (let i = 1; i <= n.length; i++) {
      const row = new Array<number>(v.length + 1);
      row[0] = i;
      let best = i;
      for (let j = 1; j <= v.length; j++) {
        row[j] = Math.min(previous[j - 1] + (n[i - 1] === v[j - 1] ? 0 : 1), previous[j] + 1, row[j - 1] + 1);
        if (row[j] < best) best = row[j];
      }
      if (best > allowed) return false;
      previous = row;
    }
    return Math.min(...previous) <= allowed;
  };
  parentPort!.on('message', (jobs: TextMatchJob[]) => {
    const results = jobs.map((job) => {
      const out = new Uint8Array(job.values.length);
      if (job.kind === 'regex') {
        const regex = new RegExp(job.pattern, job.ignoreCase ? 'i' : '');
        job.values.forEach((value, i) => (out[i] = regex.test(value.length > maxLength ? value.slice(0, maxLength) : value) ? 1 : 0));
      } else {
        const needle = fold(job.pattern);
        job.values.forEach(
          (value, i) => (out[i] = fuzzy(job.folded?.[i] ?? fold(value), job.needles ? fold(job.needles[i]) : needle) ? 1 : 0),
        );
      }
      return out;
    });
    parentPort!.postMessage(results);
  });
}

const WORKER_SOURCE = `(${textMatchWorker.toString()})(${foldText.toString()}, ${fuzzyEdits.toString()})`;
const MAX_WORKERS = 2;
/** How long a worker waits for its next evaluation before it ends (starting one costs 30–200 ms on the 2 cores). */
const IDLE_WORKER_MS = 60_000;

/** A started worker between evaluations; it does not keep the process alive, and ends after IDLE_WORKER_MS. */
interface IdleWorker {
  worker: Worker;
  expiry: NodeJS.Timeout;
  /** Drops the entry if the thread ends while idle, so no evaluation is sent to a dead worker. */
  onExit: () => void;
}

let running = 0;
let started = 0;
const waiting: Array<() => void> = [];
const idle: IdleWorker[] = [];

/** How many workers were started since the process began (tests check that evaluations reuse them). */
export function textMatchWorkersStarted(): number {
  return started;
}

/** A kept worker (already running), or a new one (`fresh`: not yet online). */
function takeWorker(): { worker: Worker; fresh: boolean } {
  const kept = idle.pop();
  if (kept) {
    clearTimeout(kept.expiry);
    kept.worker.off('exit', kept.onExit);
    kept.worker.ref();
    return { worker: kept.worker, fresh: false };
  }
  started++;
  return { worker: new Worker(WORKER_SOURCE, { eval: true }), fresh: true };
}

function keepWorker(worker: Worker): void {
  worker.unref();
  const drop = () => {
    const at = idle.indexOf(entry);
    if (at >= 0) idle.splice(at, 1);
    clearTimeout(entry.expiry);
  };
  const entry: IdleWorker = {
    worker,
    expiry: setTimeout(() => {
      drop();
      void worker.terminate();
    }, IDLE_WORKER_MS).unref(),
    onExit: drop,
  };
  worker.once('exit', drop);
  idle.push(entry);
}

/**
 * Runs the jobs in a worker thread, so a pattern that backtracks badly despite compilePattern's checks cannot stall
 * the server: past TIMEOUT_MS the worker is terminated and PatternError raised. A worker that answered is kept for
 * the next evaluation. One flag per value.
 */
export async function runTextMatches(jobs: TextMatchJob[]): Promise<Uint8Array[]> {
  // Nothing to test (the database settled every candidate): no worker to wake or start.
  if (jobs.every((job) => !job.values.length)) return jobs.map(() => new Uint8Array(0));
  // At most two workers at a time (a filter list can evaluate many saved filters at once).
  while (running >= MAX_WORKERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  const { worker, fresh } = takeWorker();
  let answered = false;
  try {
    const results = await new Promise<Uint8Array[]>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const startClock = () => {
        timer = setTimeout(() => {
          cleanUp();
          reject(new PatternError(`The expression took longer than ${TIMEOUT_MS / 1000} s to evaluate; simplify the pattern.`));
        }, TIMEOUT_MS);
      };
      const onMessage = (answer: Uint8Array[]) => {
        cleanUp();
        resolve(answer);
      };
      const onError = (error: Error) => {
        cleanUp();
        reject(error);
      };
      const onExit = () => onError(new Error('The text matching worker stopped.'));
      const cleanUp = () => {
        clearTimeout(timer);
        worker.off('online', startClock).off('message', onMessage).off('error', onError).off('exit', onExit);
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      // The clock starts once the thread runs: starting one took seconds on a loaded machine (ci35), not the pattern.
      if (fresh) worker.once('online', startClock);
      else startClock();
      worker.postMessage(jobs);
    });
    answered = true;
    return results;
  } finally {
    if (answered) keepWorker(worker);
    else void worker.terminate();
    running--;
    waiting.shift()?.();
  }
}
