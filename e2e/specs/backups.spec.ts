import { expect, test } from '@playwright/test';
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

test('Settings › Backups: make, download, schedule a restore, cancel it and delete a backup', async ({ page }) => {
  await page.goto(server.url('/webui/settings/backups'));
  await loginThroughForm(page);
  await expect(page).toHaveURL(server.url('/webui/settings/backups'));
  await expect(page.getByRole('heading', { name: 'Backups', level: 1 })).toBeVisible();
  await expect(page.getByText('No backups yet.')).toBeVisible();
  await expect(page.getByText(/A backup is made every 24 hours and before every upgrade; the newest 7/)).toBeVisible();
  await snap(page, '90-settings-backups-empty');

  await page.getByRole('button', { name: 'Back up now' }).click();
  const table = page.getByRole('table', { name: 'Backups' });
  const row = table.getByRole('row').nth(1);
  await expect(row).toContainText(/shoko-\d{8}-\d{6}-manual\.tar\.gz/);
  await expect(row).toContainText('Manual');
  const name = (await row.getByRole('cell').first().textContent())!.trim();
  // Wait for the value itself: textContent() reads whatever is there once the element exists.
  await expect(page.locator('dd').nth(1)).toHaveText(/^\s*\d{4}_/);
  const schema = (await page.locator('dd').nth(1).textContent())!.trim();
  await expect(row).toContainText(schema);
  await snap(page, '91-settings-backups-list');

  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: `Download ${name}` }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toBe(name);
  const bytes = await download.createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  });
  // A gzip file (the backup is a .tar.gz).
  expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);

  await page.getByRole('button', { name: `Restore ${name}` }).click();
  await page.getByRole('button', { name: 'Restore at next start' }).click();
  const pending = page.getByRole('status').filter({ hasText: 'will be restored when the server next starts' });
  await expect(pending).toContainText(name);
  await snap(page, '92-settings-backups-restore-pending');
  await page.reload();
  await expect(pending).toBeVisible();
  await page.getByRole('button', { name: 'Cancel restore' }).click();
  await expect(pending).toHaveCount(0);

  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No backups yet.')).toBeVisible();
});

test('Settings › Backups: a failed list shows the reason', async ({ page }) => {
  await page.route('**/api/v3/Backup', (route) =>
    route.fulfill({ status: 500, contentType: 'text/plain', body: 'The backup folder cannot be read' }),
  );
  await page.goto(server.url('/webui/settings/backups'));
  await loginThroughForm(page);
  await expect(page.getByRole('alert').filter({ hasText: 'The backup folder cannot be read' })).toBeVisible();
});
