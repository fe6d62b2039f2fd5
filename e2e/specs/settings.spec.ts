import { expect, test, type Page } from '@playwright/test';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { completeFirstRunViaApi, startShoko, type ShokoServer } from '../support/server';

let server: ShokoServer;

test.beforeAll(async () => {
  server = await startShoko();
  await completeFirstRunViaApi(server);
});

test.afterAll(async () => {
  await server?.stop();
});

async function openSettings(page: Page, section: string) {
  await page.goto(server.url(`/webui/settings/${section}`));
  await expect(page).toHaveURL(/\/webui\/login/);
  await loginThroughForm(page);
  await expect(page).toHaveURL(server.url(`/webui/settings/${section}`));
}

test.describe.configure({ mode: 'serial' });

test('AniDB settings: invalid URL and depth show their messages, a valid change persists after reload', async ({ page }) => {
  await openSettings(page, 'anidb');
  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();

  await page.getByLabel('HTTP Server URL').fill('not a url');
  await expect(page.getByText('Unsaved Changes')).toBeVisible();
  // No AniDB username yet: Save stays disabled.
  await expect(save).toBeDisabled();
  await page.getByLabel('Username').fill('tester');
  await page.getByLabel('Password').fill('secret');
  await page.getByLabel('Max Relation Depth').fill('6');
  await save.click();
  await expect(page.getByText(/^Invalid HTTP Server URL/).first()).toBeVisible();
  await expect(page.getByText('Max Relation Depth may only be between 0 and 5').first()).toBeVisible();
  await snap(page, '70-settings-anidb-errors');

  await page.getByLabel('HTTP Server URL').fill('http://api.anidb.net:9001');
  await page.getByLabel('Max Relation Depth').fill('3');
  await page.getByLabel('Storage State').selectOption({ label: 'Disk' });
  await save.click();
  await expect(page.getByText('Settings saved!')).toBeVisible();
  await expect(save).toBeDisabled();

  await page.reload();
  await expect(page.getByLabel('Max Relation Depth')).toHaveValue('3');
  await expect(page.getByLabel('Username')).toHaveValue('tester');
  await expect(page.getByLabel('Storage State')).toHaveValue('2');
  await snap(page, '71-settings-anidb');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, '72-settings-anidb-390');
});

test('Import settings: a toggle and the video extensions persist after reload', async ({ page }) => {
  await openSettings(page, 'import');
  const toggle = page.getByRole('switch', { name: 'Delete duplicates on import' });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await page.getByLabel('Video Extensions').fill('mkv,mp4,avi');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved!')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Delete duplicates on import' })).toBeChecked();
  await expect(page.getByLabel('Video Extensions')).toHaveValue('mkv,mp4,avi');
  await snap(page, '73-settings-import');
});

test('General settings: log options persist after reload', async ({ page }) => {
  await openSettings(page, 'general');
  const compress = page.getByRole('switch', { name: 'Compress Logs' });
  const before = await compress.isChecked();
  await compress.click();
  await page.getByLabel('Delete Frequency').selectOption({ label: 'Quarterly' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved!')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Compress Logs' })).toBeChecked({ checked: !before });
  await expect(page.getByLabel('Delete Frequency')).toHaveValue('90');
  await snap(page, '74-settings-general');
});

test('Metadata Sites settings: a TMDB toggle persists after reload', async ({ page }) => {
  await openSettings(page, 'metadata-sites');
  const toggle = page.getByRole('switch', { name: 'Download Collections' });
  const before = await toggle.isChecked();
  await toggle.click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved!')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Download Collections' })).toBeChecked({ checked: !before });
  await snap(page, '75-settings-metadata-sites');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, '76-settings-metadata-sites-390');
});

test('API Keys: a key is generated, works, and stops working once deleted', async ({ page, request }) => {
  await openSettings(page, 'api-keys');
  const list = page.getByRole('list', { name: 'API keys' });
  await expect(list.getByText('web-ui')).toBeVisible();
  const generate = page.getByRole('button', { name: 'Generate' });
  await expect(generate).toBeDisabled();
  await page.getByLabel('Device Name').fill('e2e-device');
  await generate.click();
  const key = (await page.getByTestId('new-api-key').textContent())?.trim() ?? '';
  expect(key).not.toBe('');
  await expect(list.getByText('e2e-device')).toBeVisible();
  await snap(page, '77-settings-api-keys');

  const current = await request.get(server.url('/api/v3/User/Current'), { headers: { apikey: key } });
  expect(current.status()).toBe(200);

  await page.getByRole('button', { name: 'Delete e2e-device' }).click();
  await expect(list.getByText('e2e-device')).toHaveCount(0);
  const revoked = await request.get(server.url('/api/v3/User/Current'), { headers: { apikey: key } });
  expect(revoked.status()).toBe(401);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, '78-settings-api-keys-390');
});
