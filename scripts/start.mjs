// `npm start`: install if needed, build what changed, then run the server (console at /webui).
import path from 'node:path';
import { buildAll, ensureFfmpeg, ensureInstalled, root, runForwardingSignals } from './lib.mjs';

ensureInstalled();
ensureFfmpeg();
buildAll();
const code = await runForwardingSignals(process.execPath, ['--openssl-legacy-provider', 'server/dist/main.js'], {
  env: { SHOKO_WEBUI_DIR: process.env.SHOKO_WEBUI_DIR ?? path.join(root, 'web', 'dist') },
});
process.exit(code);
