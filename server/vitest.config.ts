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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
