import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { spawn } from 'node:child_process';

/**
 * The AVDump3 command-line tool. It cannot be downloaded here, so the server uses one the owner installed: the path in
 * SHOKO_AVDUMP, else `avdump3` or `AVDump3CL` on PATH. A `.dll` build runs through `dotnet`.
 */
export interface AVDumpTool {
  command: string;
  /** Arguments that come before AVDump's own (the .dll for dotnet). */
  prefix: string[];
}

const NAMES = ['avdump3', 'AVDump3CL', 'AVDump3CL.dll'];

export function locateAVDump(env: NodeJS.ProcessEnv = process.env): AVDumpTool | null {
  const configured = env.SHOKO_AVDUMP?.trim();
  const candidates = configured
    ? [configured]
    : (env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .flatMap((dir) => NAMES.map((name) => path.join(dir, name)));
  for (const candidate of candidates) {
    try {
      fs.accessSync(candidate, candidate.endsWith('.dll') ? fs.constants.R_OK : fs.constants.X_OK);
      if (!fs.statSync(candidate).isFile()) continue;
    } catch {
      continue;
    }
    return candidate.endsWith('.dll') ? { command: 'dotnet', prefix: [candidate] } : { command: candidate, prefix: [] };
  }
  return null;
}

/** One line of AVDump's standard output, classified (external-services.md §5 "Output parsing"). */
export type AVDumpLine =
  | { kind: 'progress'; percent: number }
  | { kind: 'creqs'; done: number; failed: number; pending: number }
  | { kind: 'ed2k'; link: string }
  | { kind: 'invalid-credentials'; text: string }
  | { kind: 'timeout'; text: string }
  | { kind: 'ignored' }
  | { kind: 'message'; text: string };

const PROGRESS = /^\s*(\d+)\/(\d+) Files \| (\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?) \S+ \|/;
const CREQS = /ACreq\(Done: (\d+) Failed: (\d+) Pending: (\d+)\)/;

export function parseAVDumpLine(line: string): AVDumpLine {
  const trimmed = line.trim();
  if (!trimmed || /^-+$/.test(trimmed) || /^Total \[/.test(trimmed)) return { kind: 'ignored' };
  const progress = PROGRESS.exec(line);
  if (progress) {
    const [done, total] = [Number(progress[3]), Number(progress[4])];
    return { kind: 'progress', percent: total > 0 ? Math.min(100, (done / total) * 100) : 0 };
  }
  const creqs = CREQS.exec(line);
  if (creqs) return { kind: 'creqs', done: Number(creqs[1]), failed: Number(creqs[2]), pending: Number(creqs[3]) };
  if (trimmed.startsWith('ed2k://|file|')) return { kind: 'ed2k', link: trimmed };
  if (trimmed.endsWith('(WrongUsernameOrApiKey)')) return { kind: 'invalid-credentials', text: trimmed };
  if (trimmed.endsWith('(Timeout)')) return { kind: 'timeout', text: trimmed };
  return { kind: 'message', text: trimmed };
}

export interface AVDumpRunOptions {
  username: string;
  apiKey: string;
  localPort: number;
  creqTimeout: number;
  creqMaxRetries: number;
  concurrency: number;
  files: string[];
  signal?: AbortSignal;
  onStdout(line: string): void;
  onStderr(line: string): void;
}

/** The arguments Shoko passes, in its order; no shell is involved, so paths need no quoting. */
export function avdumpArguments(options: Omit<AVDumpRunOptions, 'signal' | 'onStdout' | 'onStderr'>): string[] {
  return [
    `--Timeout=${options.creqTimeout}:${options.creqMaxRetries}`,
    `--Concurrent=${options.concurrency}`,
    '--HideBuffers=true',
    '--HideFileProgress=true',
    '--DisableFileMove=true',
    '--DisableFileRename=true',
    '--Consumers=ED2K',
    `--Auth=${options.username}:${options.apiKey}`,
    `--LPort=${options.localPort}`,
    '--PrintEd2kLink=true',
    ...options.files,
  ];
}

/** Runs the tool to its end; resolves with the exit code (null when killed). */
export function runAVDump(tool: AVDumpTool, options: AVDumpRunOptions): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.command, [...tool.prefix, ...avdumpArguments(options)], {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: options.signal,
    });
    readline.createInterface({ input: child.stdout }).on('line', options.onStdout);
    readline.createInterface({ input: child.stderr }).on('line', options.onStderr);
    child.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code === 'ABORT_ERR') resolve(null);
      else reject(error);
    });
    child.on('close', (code) => resolve(code));
  });
}

/** The installed version: the last word of the first line `--Version` prints. */
export function avdumpVersion(tool: AVDumpTool): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(tool.command, [...tool.prefix, '--Version'], {
      shell: false,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 15_000,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', () => resolve(null));
    child.on('close', () => {
      const first = output.split(/\r?\n/).find((line) => line.trim()) ?? '';
      resolve(first.trim().split(/\s+/).pop() || null);
    });
  });
}
