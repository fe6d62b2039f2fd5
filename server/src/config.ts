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
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.SHOKO_PORT ?? 8111);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`SHOKO_PORT must be a port number between 1 and 65535, got "${env.SHOKO_PORT}"`);
  }
  const databaseUrl = env.SHOKO_DB?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    throw new Error('SHOKO_DB must be a postgres:// URL (leave it unset for SQLite)');
  }
  return {
    home: path.resolve(env.SHOKO_HOME ?? './data'),
    port,
    host: env.SHOKO_HOST ?? '0.0.0.0',
    databaseUrl,
    webuiDir: env.SHOKO_WEBUI_DIR ? path.resolve(env.SHOKO_WEBUI_DIR) : null,
    basePath: normalizeBasePath(env.SHOKO_BASE_PATH),
  };
}
