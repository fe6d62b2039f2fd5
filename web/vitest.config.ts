import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const webDir = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  define: { __WEBUI_VERSION__: JSON.stringify('0.0.0-test') },
  resolve: {
    alias: {
      '@shoko-ts/contract': path.resolve(webDir, '../packages/contract/src/index.ts'),
      '@': path.resolve(webDir, 'src'),
    },
  },
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
