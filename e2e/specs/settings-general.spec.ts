import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { ANIDB_USERS, completeFirstRunViaApi, startShoko, type ShokoServer } from '../support/server';

/**
 * Settings › General (version panel, themes) and the AniDB page's test login and language orders. GitHub is a
 * loopback fake the server reaches through SHOKO_GITHUB_API_URL; it starts out failing, as GitHub does offline.
 */
let server: ShokoServer;
let github: http.Server;
let latestRelease: object | null = null;

let previousGitHub: string | undefined;

test.beforeAll(async () => {
  github = http.createServer((request, response) => {
    if (latestRelease && request.url === '/repos/e2e/console/releases/latest') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(latestRelease));
      return;
    }
    response.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"unavailable"}');
  });
  await new Promise<void>((resolve) => github.listen(0, '127.0.0.1', () => resolve()));
  previousGitHub = process.env.SHOKO_GITHUB_API_URL;
  process.env.SHOKO_GITHUB_API_URL = `http://127.0.0.1:${(github.address() as AddressInfo).port}`;
  process.env.SHOKO_CLIENT_REPO = 'e2e/console';
  server = await startShoko();
  await completeFirstRunViaApi(server);
});

test.afterAll(async () => {
  await server?.stop();
  github?.closeAllConnections();
  await new Promise((resolve) => github?.close(resolve));
  if (previousGitHub === undefined) delete process.env.SHOKO_GITHUB_API_URL;
  else process.env.SHOKO_GITHUB_API_URL = previousGitHub;
  delete process.env.SHOKO_CLIENT_REPO;
});

test.describe.configure({ mode: 'serial' });

async function openSettings(page: Page, section: string) {
  await page.goto(server.url(`/webui/settings/${section}`));
  await expect(page).toHaveURL(/\/webui\/login/);
  await loginThroughForm(page);
  await expect(page).toHaveURL(server.url(`/webui/settings/${section}`));
}

const THEME = {
  name: 'Deep Ocean',
  version: '1.2.0',
  description: 'Blue panels for late nights',
  author: 'E2E Tester',
  values: { 'color-panel': '#102040', 'color-primary': '#3399ff' },
};

test('General settings: version information and the web UI update check, offline and online', async ({ page }) => {
  await openSettings(page, 'general');
  const panel = page.getByTestId('version-info');
  await expect(panel).toContainText('Server Version');
  await expect(panel).toContainText('Server Channel');
  await expect(panel).toContainText('Web UI Version');
  await expect(page.getByLabel('Web UI Channel')).toHaveValue('Stable');
  await expect(page.getByTestId('update-check')).toHaveText('Press Refresh to check for a web UI update.');

  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('update-check')).toHaveText('Unable to use the GitHub API to check for an update. Check your connection.');
  await snap(page, '180-settings-general-update-offline');

  latestRelease = { tag_name: 'v9.9.9', body: 'Minimum Server Version: **5.0.0**', published_at: '2026-11-01T00:00:00Z', assets: [] };
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('update-check')).toContainText(/Web UI 9\.9\.9 is available on the Stable channel/);
  // The fake release has no zip: the update is refused and the installed console stays.
  await page.getByRole('button', { name: 'Update Web UI' }).click();
  await expect(page.getByTestId('update-error')).toHaveText(
    'The web UI could not be updated: No web UI release with a download was found for this channel.',
  );
  await snap(page, '181-settings-general-update-available');
  await page.reload();
  await expect(page.getByTestId('version-info')).toBeVisible();
  // The top bar tells an admin about the newer console on every page.
  await expect(page.getByTestId('update-notice')).toContainText('Web UI 9.9.9 is available');
});

test('AniDB settings: test login against the fake, and a language order change is saved', async ({ page }) => {
  await openSettings(page, 'anidb');
  const [anidbUser, anidbPassword] = Object.entries(ANIDB_USERS)[0]!;
  const testLogin = page.getByRole('button', { name: 'Test Login' });
  await page.getByLabel('Username').fill(anidbUser);
  await page.getByLabel('Password').fill(`${anidbPassword}-wrong`);
  await testLogin.click();
  await expect(page.getByTestId('anidb-test-result')).toHaveText('Failed to log in.');
  await page.getByLabel('Password').fill(anidbPassword);
  await testLogin.click();
  await expect(page.getByTestId('anidb-test-result')).toHaveText('AniDB login successful!');
  await snap(page, '185-settings-anidb-test-login');

  const summary = page.getByTestId('Language.SeriesTitleLanguageOrder-summary');
  await expect(summary).toHaveText('Main Title');
  await page.getByRole('button', { name: 'Edit Series Title Language' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Series Title Language Order' })).toBeVisible();
  await dialog.getByLabel(/^Add a language/).selectOption('en');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await dialog.getByRole('button', { name: 'Move en up' }).click();
  await snap(page, '186-settings-anidb-language-order');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(summary).toHaveText('English (Any), Main Title');

  const autoGroup = page.getByRole('switch', { name: 'Auto Group Series' });
  if (!(await autoGroup.isChecked())) await autoGroup.click();
  await page.getByRole('checkbox', { name: 'Sequel' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved!')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('Language.SeriesTitleLanguageOrder-summary')).toHaveText('English (Any), Main Title');
  await expect(page.getByRole('checkbox', { name: 'Sequel' })).toBeChecked();
  await snap(page, '187-settings-anidb-languages-grouping');
});

// Saving needs an AniDB username, which the AniDB test above stored.
test('General settings: uploaded themes are listed, apply at once and persist after reload', async ({ page }) => {
  await openSettings(page, 'general');
  const root = page.locator('html');
  await expect(root).toHaveClass(/theme-shoko-gray/);
  const panelColour = () =>
    page
      .locator('section', { hasText: 'Theme Options' })
      .first()
      .evaluate((element) => getComputedStyle(element).backgroundColor);
  const defaultColour = await panelColour();

  await page.getByTestId('theme-upload-input').setInputFiles([
    { name: 'Deep_Ocean.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(THEME)) },
    { name: 'paper.css', mimeType: 'text/css', buffer: Buffer.from('.theme-paper { --color-panel: #f4f1e8; --color-text: #222; }') },
  ]);
  await expect(page.getByText('Theme "Deep Ocean" uploaded!')).toBeVisible();
  await expect(page.getByText('Theme "Paper" uploaded!')).toBeVisible();
  const select = page.getByLabel('Theme', { exact: true });
  await expect(select.locator('option')).toHaveText(['Shoko Gray (Default)', 'Deep Ocean', 'Paper']);

  await select.selectOption({ label: 'Deep Ocean' });
  await expect(root).toHaveClass(/theme-deep-ocean/);
  await expect.poll(panelColour).toBe('rgb(16, 32, 64)');
  expect(defaultColour).not.toBe('rgb(16, 32, 64)');
  const details = page.getByTestId('theme-details');
  await expect(details).toContainText('Blue panels for late nights');
  await expect(details).toContainText('1.2.0.0');
  await expect(details).toContainText('E2E Tester');
  await expect(page.getByText('Unsaved Changes')).toBeVisible();
  await snap(page, '182-settings-general-theme-selected');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved!')).toBeVisible();
  await page.reload();
  await expect(root).toHaveClass(/theme-deep-ocean/);
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expect(page.getByLabel('Theme', { exact: true })).toHaveValue('theme-deep-ocean');
  await expect.poll(panelColour).toBe('rgb(16, 32, 64)');
  const stored = await page.evaluate(async () => {
    const session = JSON.parse(sessionStorage.getItem('shoko-ts.session') ?? localStorage.getItem('shoko-ts.session') ?? '{}') as {
      apikey?: string;
    };
    const settings = (await (await fetch('/api/v3/Settings', { headers: { apikey: session.apikey ?? '' } })).json()) as {
      WebUI_Settings: string;
    };
    return JSON.parse(settings.WebUI_Settings).theme as string;
  });
  expect(stored).toBe('theme-deep-ocean');
  await snap(page, '183-settings-general-theme-applied');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, '184-settings-general-390');
});
