import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startDemo, type RunningDemo } from '../../fakes/src/demo/demo';
import { loginThroughForm } from '../support/console';
import { freePort } from '../support/server';

/**
 * The console runs under the server's Content-Security-Policy: every page, including the Monaco editor of the renamer,
 * the SignalR log stream and the dashboard's pictures, loads without a single policy violation.
 */
let demo: RunningDemo;
let home: string;

test.beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-csp-'));
  demo = await startDemo({ home, port: await freePort(), stdio: 'pipe' });
});

test.afterAll(async () => {
  await demo?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const PAGES = [
  '/webui/dashboard',
  '/webui/collection',
  '/webui/utilities/unrecognized/files',
  '/webui/utilities/release-management/multiples',
  '/webui/utilities/renamer',
  '/webui/log',
  '/webui/settings/general',
  '/webui/settings/user-management',
];

test('every console page loads under the Content-Security-Policy without a violation', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(() => {
    const seen: string[] = [];
    window.cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  const page = await context.newPage();
  const consoleViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleViolations.push(message.text());
  });

  const first = await page.goto(`${demo.baseUrl}/webui/login`);
  expect(first?.headers()['content-security-policy']).toContain("script-src 'self'");
  await loginThroughForm(page, { username: 'Default', password: '' });

  const violations: string[] = [];
  const seriesLink = async () => {
    await page.goto(`${demo.baseUrl}/webui/collection`);
    const card = page.locator('a[href*="/webui/collection/series/"]').first();
    await expect(card).toBeVisible();
    return card.getAttribute('href');
  };
  const seriesHref = await seriesLink();
  for (const pathname of [...PAGES, `${seriesHref}`, `${seriesHref}/episodes`, `${seriesHref}/images/posters`]) {
    await page.goto(pathname.startsWith('http') ? pathname : `${demo.baseUrl}${pathname}`);
    await page.waitForLoadState('networkidle');
    if (pathname.includes('renamer')) await expect(page.locator('.monaco-editor').first()).toBeVisible();
    violations.push(...(await page.evaluate(() => window.cspViolations)).map((v) => `${pathname}: ${v}`));
  }
  expect(violations).toEqual([]);
  expect(consoleViolations).toEqual([]);
  await context.close();
});
