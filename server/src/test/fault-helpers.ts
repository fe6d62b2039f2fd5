import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerProcess } from './server-process.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A PostgreSQL cluster of a test's own (scripts/pg-cluster.mjs), to restart at will. */
export interface OwnCluster {
  url: string;
  /** `pg_ctl restart -m fast`: every connection is ended (57P01). */
  restart(): Promise<void>;
  /** `pg_ctl stop -m fast`, the data kept: every connection is ended (57P01) and new ones are refused until `startAgain`. */
  shutDown(): Promise<void>;
  startAgain(): Promise<void>;
  stop(): void;
}

/** Starts a cluster of the test's own; null when the PostgreSQL binaries are not installed. */
export async function startOwnCluster(): Promise<OwnCluster | null> {
  const clusters = (await import(path.join(repo, 'scripts', 'pg-cluster.mjs'))) as {
    findPostgresBin(): string | null;
    startPostgres(): Promise<OwnCluster>;
  };
  return clusters.findPostgresBin() ? clusters.startPostgres() : null;
}

export const NO_POSTGRES = 'the PostgreSQL binaries are not installed (Debian package: postgresql)';

/** A folder of `count` files of random bytes (`size` each), which `cleanups` removes. */
export function randomMedia(count: number, size: number, cleanups: Array<() => void>): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-fault-media-')));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (let n = 0; n < count; n++) fs.writeFileSync(path.join(dir, `episode-${String(n).padStart(3, '0')}.mkv`), randomBytes(size));
  return dir;
}

/** Waits until the queue of a server process is empty and not held by a fault. */
export async function queueFinished(server: ServerProcess, key: string): Promise<void> {
  await server.waitFor(
    'the queue to finish by itself',
    async () => {
      const queue = await server.json<{ TotalCount: number; Fault?: unknown }>('GET', '/api/v3/Queue', { key });
      return queue.TotalCount === 0 && !queue.Fault;
    },
    120_000,
  );
}

/**
 * The files of `media` as the server knows them: how many file records it has, those without hashes, and per file
 * how many times the log says it was hashed.
 */
export async function hashedMedia(server: ServerProcess, key: string, media: string) {
  const files = await server.json<{ Total: number; List: Array<{ Hashes: { ED2K: string } }> }>(
    'GET',
    '/api/v3/File?pageSize=0&include=Ignored',
    { key },
  );
  const hashings = new Map(
    fs.readdirSync(media).map((name) => [name, server.output().split(`Hashed ${path.join(media, name)} (`).length - 1]),
  );
  return { records: files.Total, unhashed: files.List.filter((file) => !file.Hashes.ED2K).length, hashings };
}
