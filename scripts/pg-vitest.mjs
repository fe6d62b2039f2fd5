// Runs server vitest files against a throwaway PostgreSQL cluster: `node scripts/pg-vitest.mjs [vitest filters…]`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from './pg-cluster.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const filters = process.argv.slice(2);
const pg = await startPostgres();
let code = 1;
try {
  const result = spawnSync('npx', ['vitest', 'run', ...(filters.length ? filters : ['api.test'])], {
    cwd: path.join(root, 'server'),
    stdio: 'inherit',
    env: { ...process.env, SHOKO_TEST_DB: pg.url },
  });
  code = result.status ?? 1;
} finally {
  pg.stop();
}
process.exit(code);
