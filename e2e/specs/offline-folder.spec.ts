import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { addImportFolderAndScan, completeFirstRunViaApi, loginViaApi, startShoko, type ShokoServer } from '../support/server';

/**
 * An import folder whose drive is unplugged (issue 49): the console marks it offline in the folder list and on the
 * dashboard, its files as offline rather than missing, offers the removal of its records only behind a count, and
 * forgets all of it when the drive is back — live, over the hub.
 */
test.describe('an offline import folder in the console', () => {
  let server: ShokoServer;
  let base: string;
  let key: string;
  const api = async (method: string, pathname: string) => {
    const res = await fetch(server.url(pathname), { method, headers: { apikey: key } });
    if (!res.ok) throw new Error(`${method} ${pathname}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  };

  test.beforeAll(async () => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-offline-e2e-')));
    fs.mkdirSync(path.join(base, 'nas', 'Show'), { recursive: true });
    fs.writeFileSync(path.join(base, 'nas', 'Show', '[Grp] Show - 01.mkv'), randomBytes(120 * 1024));
    fs.writeFileSync(path.join(base, 'nas', 'Show', '[Grp] Show - 02.mkv'), randomBytes(130 * 1024));
    server = await startShoko();
    await completeFirstRunViaApi(server);
    key = await loginViaApi(server);
    await addImportFolderAndScan(server, key, { Name: 'NAS', Path: path.join(base, 'nas'), WatchForNewFiles: true });
    await expect
      .poll(
        async () =>
          ((await api('GET', '/api/v3/File?pageSize=0')) as { List: Array<{ Hashes: { ED2K: string } }> }).List.filter((f) => f.Hashes.ED2K)
            .length,
      )
      .toBe(2);
  });

  test.afterAll(async () => {
    await server?.stop();
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  test('is marked offline with its files, removable only behind a count, and clears by itself when back', async ({ page }) => {
    const folderId = ((await api('GET', '/api/v3/ImportFolder')) as Array<{ ID: number }>)[0].ID;
    // The drive goes: its root disappears. Asked to scan, the server looks at the folder at once and finds it offline.
    fs.renameSync(path.join(base, 'nas'), path.join(base, 'nas.unplugged'));
    await api('GET', `/api/v3/ImportFolder/${folderId}/Scan`);
    expect(((await api('GET', `/api/v3/ImportFolder/${folderId}`)) as { IsAvailable: boolean }).IsAvailable).toBe(false);

    await page.goto(server.url('/webui/login'));
    await loginThroughForm(page);
    const notice = page.getByTestId('offline-folders-notice');
    await expect(notice).toContainText('Import folder NAS is offline');
    await expect(notice).toContainText('does not exist');
    await expect(page.getByTestId('widget-import-folders').getByTestId('offline-badge')).toHaveText('Offline');
    await snap(page, 'offline-01-dashboard');

    await page.goto(server.url('/webui/settings/import'));
    const list = page.getByRole('list', { name: 'Import folders' });
    await expect(list.getByTestId('offline-details')).toContainText(
      /^Offline since \d+ \w+ \d\d:\d\d \(.+\)\. The folder .* does not exist/,
    );
    await snap(page, 'offline-02-import-folders');
    await list.getByRole('button', { name: 'Remove the records of NAS' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove Offline Records' });
    await expect(dialog.getByTestId('remove-offline-question')).toHaveText('Remove the records of 2 files in NAS?');
    await snap(page, 'offline-03-remove-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.goto(server.url('/webui/utilities/unrecognized/files'));
    const rows = page.getByTestId('file-row');
    await expect(rows).toHaveCount(2);
    await expect(rows.getByTestId('offline-badge')).toHaveCount(2);
    await snap(page, 'offline-04-files');

    // Back: the folder list and the dashboard follow over the hub, without a reload.
    await page.goto(server.url('/webui/dashboard'));
    await expect(page.getByTestId('offline-folders-notice')).toBeVisible();
    fs.renameSync(path.join(base, 'nas.unplugged'), path.join(base, 'nas'));
    await api('GET', `/api/v3/ImportFolder/${folderId}/Scan`);
    await expect(page.getByTestId('offline-folders-notice')).toHaveCount(0);
    await expect(page.getByTestId('widget-import-folders').getByTestId('offline-badge')).toHaveCount(0);
  });
});
