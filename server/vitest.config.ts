import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@shoko-ts/contract': fileURLToPath(new URL('../packages/contract/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['src/**/*.test.ts'],
    // md4 (ED2K) needs OpenSSL's legacy provider in the test workers too.
    execArgv: ['--openssl-legacy-provider'],
    // One process and one module graph for all the files of a run; src/test/file-isolation.ts puts back what a file
    // changes in the process (environment, working directory, timers).
    isolate: false,
    setupFiles: ['src/test/file-isolation.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
