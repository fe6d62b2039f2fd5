// `npm run import-shoko -- --from <Shoko data folder> [--map-path FROM=TO]... [--dry-run] [--json]`: builds the server if
// needed, then imports a Shoko Server data folder (server/src/tools/import-shoko.ts) into SHOKO_HOME / SHOKO_DB, the
// database the server would open. Stop the server first.
import { buildIfStale, ensureInstalled, runForwardingSignals } from './lib.mjs';

ensureInstalled();
buildIfStale('packages/contract', ['packages/contract/src'], 'dist/index.js');
buildIfStale('server', ['server/src', 'packages/contract/src'], 'dist/main.js');
const code = await runForwardingSignals(process.execPath, [
  '--openssl-legacy-provider',
  'server/dist/tools/import-shoko.js',
  ...process.argv.slice(2),
]);
process.exit(code);
