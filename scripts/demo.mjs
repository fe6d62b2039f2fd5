// `npm run demo`: install if needed, build, then run the server against the loopback fakes with an invented library.
import path from 'node:path';
import { buildAll, ensureFfmpeg, ensureInstalled, root, runForwardingSignals } from './lib.mjs';

ensureInstalled();
// The playable episodes are made with ffmpeg; without it the demo starts without them.
ensureFfmpeg();
buildAll();
const code = await runForwardingSignals(process.execPath, [
  '--openssl-legacy-provider',
  '--import',
  'tsx',
  path.join(root, 'fakes', 'src', 'demo', 'main.ts'),
]);
process.exit(code);
