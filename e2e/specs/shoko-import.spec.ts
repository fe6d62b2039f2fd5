import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { ShokoImportStatus } from '@shoko-ts/contract';
import { writeShokoDataFolder, type ShokoDataFolderManifest } from '../../fakes/src/shoko-data/index';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { startShoko, type ShokoServer } from '../support/server';

/**
 * The first run's other way: importing a Shoko Server data folder (written by the fakes' generator) into a fresh
 * server, then signing in with a Shoko account and finding the Shoko collection. The tests share one server and run in
 * order: the refusal and the resumed states leave it empty, the import comes last.
 */
test.describe.configure({ mode: 'serial' });

let server: ShokoServer;
let work: string;
let shoko: ShokoDataFolderManifest;

test.beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-import-e2e-'));
  shoko = await writeShokoDataFolder(path.join(work, 'Shoko.CLI'), { size: 'small', mediaRoot: path.join(work, 'media') });
  server = await startShoko();
});

test.afterAll(async () => {
  await server?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

async function openImportPage(page: Page, screenshot?: string) {
  await page.goto(server.url('/webui/firstrun'));
  await expect(page.getByRole('heading', { name: 'Welcome to Shoko' })).toBeVisible();
  if (screenshot) await snap(page, screenshot);
  await page.getByRole('button', { name: 'Import from Shoko Server' }).click();
  await expect(page).toHaveURL(server.url('/webui/firstrun/import-shoko'));
  await expect(page.getByRole('heading', { name: 'Import from Shoko Server' })).toBeVisible();
}

const folderField = (page: Page) => page.getByLabel('Shoko data folder');

test('a folder that is not a Shoko data folder is refused under the folder field', async ({ page }) => {
  await openImportPage(page, 'shoko-import-00-acknowledgement');
  await expect(page.getByRole('link', { name: /Import from Shoko Server/ })).toHaveAttribute('aria-current', 'page');
  const check = page.getByRole('button', { name: 'Check' });
  const importButton = page.getByRole('button', { name: 'Import', exact: true });
  await expect(check).toBeDisabled();
  await expect(importButton).toBeDisabled();
  await snap(page, 'shoko-import-01-form');

  // A half-filled path map row is named and keeps Check off until it is filled or removed.
  await folderField(page).fill(work);
  await page.getByRole('button', { name: 'Add mapping' }).click();
  await page.getByLabel('Mapping 1: path on the Shoko machine').fill('D:\\Anime\\');
  await expect(page.getByText('Fill in where the folder is now, or remove the row.')).toBeVisible();
  await expect(check).toBeDisabled();
  await page.getByRole('button', { name: 'Remove mapping 1' }).click();

  await check.click();
  const message = `${work} is not a Shoko Server data folder`;
  await expect(folderField(page)).toHaveAttribute('aria-invalid', 'true');
  // The message is the field's description, right under it.
  const describedBy = await folderField(page).getAttribute('aria-describedby');
  await expect(page.locator(`[id="${describedBy}"]`)).toContainText(message);
  await expect(importButton).toBeDisabled();
  await snap(page, 'shoko-import-02-refused');
});

test('a reload finds a running import, and a failed one offers to try again', async ({ page }) => {
  // The server's status stands in for an import under way; the hub is kept away, so the page polls.
  let status: ShokoImportStatus = { State: 'Running', Step: 'Writing files', Done: 42, Total: 100, Report: null, Error: null };
  await page.route('**/signalr/**', (route) => route.abort());
  await page.route('**/api/v3/ShokoImport/Status', (route) => route.fulfill({ json: status }));

  await page.goto(server.url('/webui/firstrun/import-shoko'));
  const progress = page.getByRole('progressbar', { name: 'Import progress' });
  await expect(progress).toHaveAttribute('aria-valuenow', '42');
  await expect(page.getByTestId('import-step')).toHaveText('Writing files');
  await expect(page.getByText('42 %')).toBeVisible();
  await snap(page, 'shoko-import-03-progress');

  status = { ...status, Step: 'Writing watch states', Done: 71 };
  await expect(progress).toHaveAttribute('aria-valuenow', '71');
  await expect(page.getByTestId('import-step')).toHaveText('Writing watch states');

  status = { ...status, State: 'Failed', Step: null, Done: 0, Error: 'Importing from Shoko Server failed, nothing was changed: disk full' };
  const failure = page.getByTestId('import-failed');
  await expect(failure.getByRole('alert')).toContainText('disk full');
  await expect(failure).toContainText('Nothing was changed');
  await snap(page, 'shoko-import-04-failed');
  await failure.getByRole('button', { name: 'Try again' }).click();
  await expect(folderField(page)).toBeVisible();
});

test('imports a Shoko Server, starts it, and signs in with a Shoko account to its collection', async ({ page }) => {
  test.setTimeout(180_000);
  await openImportPage(page);
  await folderField(page).fill(shoko.dir);
  await page.getByRole('button', { name: 'Check' }).click();

  // The dry run's report: a row per kind, skip reasons behind a disclosure, nothing blocking.
  const report = page.getByTestId('import-report');
  await expect(report.getByRole('rowheader', { name: 'Users', exact: true })).toBeVisible({ timeout: 30_000 });
  const users = report.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Users', exact: true }) });
  await expect(users.getByRole('cell')).toHaveText([String(shoko.users.length), String(shoko.users.length), '—']);
  await expect(report.getByRole('rowheader', { name: 'Files', exact: true })).toBeVisible();
  const renamers = report.getByRole('button', { name: 'Renamer configs' });
  await expect(renamers).toHaveAttribute('aria-expanded', 'false');
  await renamers.click();
  await expect(report.getByRole('list', { name: 'Why renamer configs were skipped' })).toContainText('unsupported renamer type');
  await expect(page.getByTestId('import-blockers')).toHaveCount(0);
  const importButton = page.getByRole('button', { name: 'Import', exact: true });
  await expect(importButton).toBeEnabled();
  await snap(page, 'shoko-import-05-report');

  // A check counts for the folder and path map it was run with only.
  await page.getByRole('button', { name: 'Add mapping' }).click();
  await page.getByLabel('Mapping 1: path on the Shoko machine').fill('D:\\Anime\\');
  await page.getByLabel('Mapping 1: the same folder here').fill('/srv/anime/');
  await expect(page.getByTestId('report-outdated')).toBeVisible();
  await expect(importButton).toBeDisabled();
  await page.getByRole('button', { name: 'Remove mapping 1' }).click();
  await expect(importButton).toBeEnabled();

  await importButton.click();
  const done = page.getByTestId('import-done');
  await expect(done.getByTestId('import-report')).toBeVisible({ timeout: 120_000 });
  await expect(done.getByRole('columnheader', { name: 'Imported' })).toBeVisible();
  const login = done.getByRole('button', { name: 'Log in with your Shoko account' });
  await expect(login).toBeVisible({ timeout: 60_000 });
  await snap(page, 'shoko-import-06-done');

  const admin = shoko.users.find((user) => user.isAdmin && user.password)!;
  await login.click();
  await expect(page).toHaveURL(server.url('/webui/login'));
  await loginThroughForm(page, { username: admin.name, password: admin.password });
  await expect(page.getByTestId('current-user')).toContainText(admin.name);

  await page.goto(server.url('/webui/collection'));
  const group = shoko.groups.find((candidate) => candidate.parentId === null && !candidate.customName)!;
  await expect(page.getByTestId('group-card').filter({ hasText: group.name }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await snap(page, 'shoko-import-07-collection');
});
