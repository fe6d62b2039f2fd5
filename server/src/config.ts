import path from 'node:path';
import { normalizeBasePath } from './http/base-path.js';

export interface ServerConfig {
  /** Data directory: database, settings, logs, images. */
  home: string;
  port: number;
  host: string;
  /** Unset → SQLite under `home`; a `postgres://` URL → PostgreSQL. */
  databaseUrl: string | null;
  /** Directory of the built console, served at /webui. */
  webuiDir: string | null;
  /** Sub-path everything is served under behind a reverse proxy (`SHOKO_BASE_PATH`): '' or unset = the root. */
  basePath?: string;
  /** Scheduled backups (SHOKO_BACKUP_INTERVAL_HOURS, 0 = off; SHOKO_BACKUP_KEEP); absent = every 24 hours, keep 7. */
  backups?: { intervalHours: number; keep: number };
  /** Short-lived cache of expensive read answers (`SHOKO_READ_CACHE=off` turns it off, e.g. to measure first visits). */
  readCache?: boolean;
  /**
   * Compile every route's schemas in the background once started (`SHOKO_WARM_ROUTES=off` leaves each to its first
   * request). The server process turns it on; in-process test servers leave it off to spare the suite's CPU.
   */
  warmRoutes?: boolean;
  /**
   * The longest wait between the queue's retries after a fault of the database or its disk (`SHOKO_QUEUE_RETRY_MAX_MS`,
   * default 60,000; the first retry comes after at most a second, each next one waits twice as long).
   */
  queueRetryMaxMs?: number;
}

export const DEFAULT_BACKUP_SCHEDULE = { intervalHours: 24, keep: 7 };

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.SHOKO_PORT ?? 8111);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`SHOKO_PORT must be a port number between 1 and 65535, got "${env.SHOKO_PORT}"`);
  }
  const databaseUrl = env.SHOKO_DB?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    throw new Error('SHOKO_DB must be a postgres:// URL (leave it unset for SQLite)');
  }
  const intervalHours = Number(env.SHOKO_BACKUP_INTERVAL_HOURS ?? DEFAULT_BACKUP_SCHEDULE.intervalHours);
  if (!Number.isFinite(intervalHours) || intervalHours < 0) {
    throw new Error(
      `SHOKO_BACKUP_INTERVAL_HOURS must be a number of hours (0 turns scheduled backups off), got "${env.SHOKO_BACKUP_INTERVAL_HOURS}"`,
    );
  }
  const keep = Number(env.SHOKO_BACKUP_KEEP ?? DEFAULT_BACKUP_SCHEDULE.keep);
  if (!Number.isInteger(keep) || keep < 1)
    throw new Error(`SHOKO_BACKUP_KEEP must be a whole number of at least 1, got "${env.SHOKO_BACKUP_KEEP}"`);
  const readCache = (env.SHOKO_READ_CACHE?.trim() || 'on').toLowerCase();
  if (readCache !== 'on' && readCache !== 'off') throw new Error(`SHOKO_READ_CACHE must be "on" or "off", got "${env.SHOKO_READ_CACHE}"`);
  const warmRoutes = (env.SHOKO_WARM_ROUTES?.trim() || 'on').toLowerCase();
  if (warmRoutes !== 'on' && warmRoutes !== 'off')
    throw new Error(`SHOKO_WARM_ROUTES must be "on" or "off", got "${env.SHOKO_WARM_ROUTES}"`);
  const queueRetryMaxMs = Number(env.SHOKO_QUEUE_RETRY_MAX_MS?.trim() || 60_000);
  if (!Number.isInteger(queueRetryMaxMs) || queueRetryMaxMs < 1)
    throw new Error(`SHOKO_QUEUE_RETRY_MAX_MS must be a whole number of milliseconds, got "${env.SHOKO_QUEUE_RETRY_MAX_MS}"`);
  return {
    home: path.resolve(env.SHOKO_HOME ?? './data'),
    port,
    host: env.SHOKO_HOST ?? '0.0.0.0',
    databaseUrl,
    webuiDir: env.SHOKO_WEBUI_DIR ? path.resolve(env.SHOKO_WEBUI_DIR) : null,
    basePath: normalizeBasePath(env.SHOKO_BASE_PATH),
    backups: { intervalHours, keep },
    readCache: readCache === 'on',
    warmRoutes: warmRoutes === 'on',
    queueRetryMaxMs,
  };
}
