// `npm run restore -- <backup>`: builds the server if needed, then restores the backup (server/src/tools/restore.ts)
// into SHOKO_HOME / SHOKO_DB. Stop the server first.
import { buildIfStale, ensureInstalled, runForwardingSignals } from './lib.mjs';

ensureInstalled();
buildIfStale('packages/contract', ['packages/contract/src'], 'dist/index.js');
buildIfStale('server', ['server/src', 'packages/contract/src'], 'dist/main.js');
const code = await runForwardingSignals(process.execPath, ['server/dist/tools/restore.js', ...process.argv.slice(2)]);
process.exit(code);
