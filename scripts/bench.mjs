// `npm run bench`: install and build what is stale, then run the benchmarks in bench/ against the built server.
import { buildAll, ensureInstalled, run } from './lib.mjs';

ensureInstalled();
buildAll();
process.exit(run('npm', ['run', 'bench', '-w', 'bench', '--', ...process.argv.slice(2)]));
