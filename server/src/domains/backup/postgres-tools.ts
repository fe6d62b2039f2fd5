import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';

/**
 * PostgreSQL's own client tools (pg_dump, pg_restore, psql): in SHOKO_PG_BIN when set (and only there), else on PATH
 * or in Debian's versioned /usr/lib/postgresql/<version>/bin (newest first). They get the connection through PG*
 * variables, so the password never shows in a process list.
 */

export const PG_TOOLS_MISSING =
  'PostgreSQL backups need the PostgreSQL client tools (pg_dump, pg_restore, psql), and they were not found (SHOKO_PG_BIN, PATH, /usr/lib/postgresql/*/bin). Install them (Debian/Ubuntu: apt install postgresql-client, in the version of your PostgreSQL server or newer) or point SHOKO_PG_BIN at their folder.';

export function findPgTool(name: 'pg_dump' | 'pg_restore' | 'psql'): string | null {
  const configured = process.env.SHOKO_PG_BIN?.trim();
  if (configured) {
    const candidate = path.join(configured, name);
    return fs.existsSync(candidate) ? candidate : null;
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  const base = '/usr/lib/postgresql';
  const versions = fs.existsSync(base) ? fs.readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const candidate = path.join(base, version, 'bin', name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

function connectionEnv(databaseUrl: string): NodeJS.ProcessEnv {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env, PGHOST: url.hostname, PGPORT: url.port || '5432', PGDATABASE: url.pathname.slice(1) };
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

/** Runs a tool to completion; a non-zero exit becomes an error carrying what it printed. */
async function runTool(tool: string, args: string[], databaseUrl: string, stdout: 'ignore' | number = 'ignore'): Promise<void> {
  const child = spawn(tool, args, { env: connectionEnv(databaseUrl), stdio: ['ignore', stdout, 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`${path.basename(tool)} failed: ${errors.trim() || `exit code ${code}`}`);
}

function requireTool(name: 'pg_dump' | 'pg_restore' | 'psql'): string {
  const tool = findPgTool(name);
  if (!tool) throw new Error(PG_TOOLS_MISSING);
  return tool;
}

/** A consistent dump (pg_dump reads one snapshot) in pg_dump's compressed custom format. */
export async function dumpPostgres(databaseUrl: string, destination: string): Promise<void> {
  await runTool(requireTool('pg_dump'), ['--format=custom', '--no-owner', '--no-privileges', '--file', destination], databaseUrl);
}

/**
 * Replaces everything in the database's `public` schema with the dump, in one transaction: if any statement fails,
 * nothing changes.
 */
export async function restorePostgres(databaseUrl: string, dump: string, workDirectory: string): Promise<void> {
  const pgRestore = requireTool('pg_restore');
  const psql = requireTool('psql');
  const script = path.join(workDirectory, 'restore.sql');
  const file = await open(script, 'w', 0o600);
  try {
    await file.writeFile('DROP SCHEMA public CASCADE;\nCREATE SCHEMA public;\n');
    await runTool(pgRestore, ['--no-owner', '--no-privileges', '--file', '-', dump], databaseUrl, file.fd);
  } finally {
    await file.close();
  }
  await runTool(psql, ['--no-psqlrc', '--quiet', '--single-transaction', '--set', 'ON_ERROR_STOP=1', '--file', script], databaseUrl);
}
