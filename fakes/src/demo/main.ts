// `npm run demo` (through scripts/demo.mjs, which builds first): runs the demo until Ctrl-C.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_ADMIN, startDemo } from './demo.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

try {
  const demo = await startDemo({
    home: process.env.SHOKO_HOME ?? path.join(root, 'demo-data'),
    port: Number(process.env.SHOKO_PORT ?? 8111),
    playableMedia: true,
  });
  console.log(
    [
      '',
      `  shoko-ts demo is ready (collection imported ${demo.importSeconds.toFixed(1)} s after start): ${demo.baseUrl}/webui`,
      `  Log in as "${DEMO_ADMIN.Username}" with an empty password.`,
      `  Data: ${path.join(demo.home, 'data')} — library: ${demo.library}. Ctrl-C stops the server and the fakes.`,
      demo.playableMedia
        ? '  Playable episodes: "The Dusk Train" (ASS subtitles, a transcode, an external .srt).'
        : '  No ffmpeg found: the playable demo episodes were left out.',
      '',
    ].join('\n'),
  );
  const shutdown = () => void demo.stop().then(() => process.exit(0));
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  demo.server.on('exit', (code) => void demo.stop().then(() => process.exit(code ?? 1)));
} catch (error) {
  console.error(`Demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
