import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));

// Servers started by the specs ask these instead of the real internet monitors (port 9 refuses), so every browser
// test sees the same offline server whatever network the machine has.
process.env.SHOKO_CONNECTIVITY_URLS ??= Array(4).fill('http://127.0.0.1:9/').join(',');
// The same for GitHub (console updates), plex.tv and Trakt: tests that need them start fakes and point these there.
process.env.SHOKO_GITHUB_API_URL ??= 'http://127.0.0.1:9/api';
process.env.SHOKO_PLEXTV_URL ??= 'http://127.0.0.1:9';
process.env.SHOKO_TRAKT_URL ??= 'http://127.0.0.1:9';

export default defineConfig({
  testDir: './specs',
  outputDir: path.join(e2eDir, '..', 'test-results'),
  // Two browsers at once: each spec starts its own server on a free port and data folder, so specs share nothing.
  workers: 2,
  retries: 0,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: path.join(e2eDir, '..', '.test-results', 'playwright.json') }]],
  use: {
    headless: true,
    viewport: { width: 1440, height: 900 },
    // Recording a trace for every test costs the browser a good part of its time and only helps a person rerunning a
    // failure: E2E_TRACE=1 records them (kept for failed tests, under test-results/).
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium without the omnibox popup's WebUI renderer it would start for every test's browser context.
      executablePath: path.join(e2eDir, '..', 'scripts', 'chromium-quiet.sh'),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
