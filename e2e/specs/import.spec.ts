import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { loginThroughForm, walkFirstRunToImportFolders } from '../support/console';
import { snap } from '../support/screenshots';
import { completeFirstRunViaApi, LOCAL_USER, startShoko, type ShokoServer } from '../support/server';

/** Random bytes are enough: hashing takes anything, and media info failing on them is expected. */
const VIDEOS = {
  first: { path: path.join('Show A', '[Grp] Show A - 01.mkv'), size: 300 * 1024 },
  second: { path: path.join('Show A', '[Grp] Show A - 02.mkv'), size: 200 * 1024 },
  movie: { path: 'Movie (2001).mkv', size: 100 * 1024 },
};
const NOT_A_VIDEO = 'notes.txt';
const name = (video: { path: string }) => path.basename(video.path);

/** A fresh temporary folder for media; realpath because the server reports resolved paths. */
function makeMediaFolder(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-media-')));
}

/** Visible file rows of a file table, in display order. */
function rows(table: Locator) {
  return table.getByTestId('file-row');
}

async function select(table: Locator, fileName: string) {
  await table.getByRole('checkbox', { name: `Select ${fileName}` }).click();
}

async function openUtility(page: Page, label: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Utilities' }).click();
  await page.getByRole('menuitem', { name: label }).click();
}

test.describe('import folders and unrecognized files', () => {
  let server: ShokoServer;
  let media: string;

  test.beforeAll(async () => {
    media = makeMediaFolder();
    for (const video of Object.values(VIDEOS)) {
      fs.mkdirSync(path.dirname(path.join(media, video.path)), { recursive: true });
      fs.writeFileSync(path.join(media, video.path), randomBytes(video.size));
    }
    fs.writeFileSync(path.join(media, NOT_A_VIDEO), 'not a video');
    server = await startShoko();
  });

  test.afterAll(async () => {
    await server?.stop();
    if (media) fs.rmSync(media, { recursive: true, force: true });
  });

  test('an import folder added in the first run fills Unrecognized Files; files can be ignored, restored and deleted', async ({ page }) => {
    test.setTimeout(240_000);
    // File events reach the console over the aggregate hub's WebSocket; count them to know the live path works.
    const hubEvents: string[] = [];
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/signalr/aggregate')) return;
      socket.on('framereceived', ({ payload }) => {
        for (const match of String(payload).matchAll(/"target":"(ShokoEvent:\w+)"/g)) hubEvents.push(match[1]);
      });
    });
    await walkFirstRunToImportFolders(page, server);
    await expect(page.getByText('No Import Folders Added!')).toBeVisible();

    // A path that does not exist is refused, with the server's message next to the field.
    await page.getByRole('button', { name: 'Add Import Folder' }).click();
    const modal = page.getByRole('dialog', { name: 'Add Import Folder' });
    await modal.getByLabel('Name').fill('Anime');
    await modal.getByLabel('Location').fill(path.join(media, 'missing'));
    await modal.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(modal.getByText('Path does not exist. Import Folders must be a location that exists on the server.')).toBeVisible();
    await expect(modal.getByLabel('Location')).toHaveAttribute('aria-invalid', 'true');
    await snap(page, '30-import-folder-modal-error');

    // Browse the server's folders down to the media folder and pick it.
    await modal.getByRole('button', { name: 'Browse' }).click();
    const browser = page.getByRole('dialog', { name: 'Select Folder' });
    const tree = browser.getByRole('tree', { name: 'Server folders' });
    const segments = media.split(path.sep).filter(Boolean);
    await tree.getByRole('button', { name: 'Expand /', exact: true }).click();
    for (const segment of segments.slice(0, -1)) {
      const node = tree.getByRole('treeitem', { name: segment, exact: true });
      await node
        .getByRole('button', { name: `Expand ${segment}`, exact: true })
        .first()
        .click();
    }
    const mediaNode = tree.getByRole('treeitem', { name: segments.at(-1), exact: true });
    await mediaNode.getByRole('button', { name: segments.at(-1), exact: true }).click();
    await expect(browser.getByTestId('selected-folder')).toHaveText(media);
    await expect(mediaNode).toHaveAttribute('aria-selected', 'true');
    await snap(page, '31-folder-browser');
    await browser.getByRole('button', { name: 'Select' }).click();
    await expect(browser).toBeHidden();
    await expect(modal.getByLabel('Location')).toHaveValue(media);
    await expect(modal.getByLabel('Name')).toHaveValue('Anime');
    await expect(modal.getByText('Path does not exist.', { exact: false })).toHaveCount(0);
    await snap(page, '32-import-folder-modal');
    await modal.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(modal).toBeHidden();

    const folders = page.getByRole('list', { name: 'Import folders' });
    await expect(folders.getByText('Anime', { exact: true })).toBeVisible();
    await expect(folders.getByText(media, { exact: false })).toBeVisible();

    // A folder inside an existing one is refused with the server's body-level message.
    await page.getByRole('button', { name: 'Add Import Folder' }).click();
    await modal.getByLabel('Location').fill(path.join(media, 'Show A'));
    await modal.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(modal.getByRole('alert')).toHaveText('Unable to nest an import folder within another import folder.');
    await snap(page, '33-import-folder-nested');
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal).toBeHidden();

    // Editing: the saved values come back, a change is saved with PUT.
    await folders.getByRole('button', { name: 'Edit Anime' }).click();
    const editModal = page.getByRole('dialog', { name: 'Edit Import Folder' });
    await expect(editModal.getByLabel('Location')).toHaveValue(new RegExp(`^${media.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    await editModal.getByLabel('Drop Type').selectOption('Destination');
    await editModal.getByRole('button', { name: 'Save' }).click();
    await expect(editModal).toBeHidden();
    await expect(folders.getByText('Destination')).toBeVisible();
    await snap(page, '34-firstrun-import-folders');

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page).toHaveURL(server.url('/webui/firstrun/data-collection'));
    await page.getByRole('button', { name: 'Finish' }).click();
    await expect(page).toHaveURL(server.url('/webui/dashboard'));
    await page.getByRole('dialog', { name: 'Welcome to Shoko!' }).getByRole('button', { name: 'Set Me Free!' }).click();

    // Finish ran the import: the videos show up once discovered and hashed; the text file never does.
    await openUtility(page, 'Unrecognized Files');
    await expect(page).toHaveURL(server.url('/webui/utilities/unrecognized/files'));
    const unrecognized = page.getByRole('table', { name: 'Unrecognized Files' });
    for (const video of Object.values(VIDEOS))
      await expect(unrecognized.getByText(name(video), { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(rows(unrecognized)).toHaveCount(3);
    await expect(unrecognized.getByText('Hashing…')).toHaveCount(0, { timeout: 60_000 });
    await expect(unrecognized.getByText(NOT_A_VIDEO)).toHaveCount(0);
    await expect(unrecognized.getByText('Anime', { exact: true })).toHaveCount(3);
    await expect(page.getByTestId('file-total')).toHaveText('3 files');
    await snap(page, '35-unrecognized-files');

    // Sorting by size, both ways.
    await unrecognized.getByRole('button', { name: 'Size' }).click();
    await expect(rows(unrecognized).first()).toContainText(name(VIDEOS.movie));
    await unrecognized.getByRole('button', { name: 'Size' }).click();
    await expect(rows(unrecognized).first()).toContainText(name(VIDEOS.first));
    await expect(unrecognized.getByRole('columnheader', { name: 'Size' })).toHaveAttribute('aria-sort', 'descending');

    // Searching narrows the list; clearing the box brings everything back.
    const search = page.getByRole('searchbox', { name: 'Search files' });
    await search.fill('  Movie ');
    await expect(rows(unrecognized)).toHaveCount(1);
    await expect(rows(unrecognized).first()).toContainText(name(VIDEOS.movie));
    await search.fill('no such release');
    await expect(page.getByTestId('file-table-empty')).toHaveText('No search results!');
    await search.fill('');
    await expect(rows(unrecognized)).toHaveCount(3);

    // Ignore one file: it leaves this list and appears under Ignored Files.
    await select(unrecognized, name(VIDEOS.second));
    await expect(page.getByTestId('selected-count')).toHaveText('1 selected');
    await page.getByRole('toolbar', { name: 'File actions' }).getByRole('button', { name: 'Ignore' }).click();
    await expect(unrecognized.getByText(name(VIDEOS.second))).toHaveCount(0);
    await expect(rows(unrecognized)).toHaveCount(2);

    await page.getByRole('navigation', { name: 'Unrecognized files sections' }).getByRole('link', { name: 'Ignored Files' }).click();
    await expect(page).toHaveURL(server.url('/webui/utilities/unrecognized/ignored-files'));
    const ignored = page.getByRole('table', { name: 'Ignored Files' });
    await expect(rows(ignored)).toHaveCount(1);
    await expect(ignored.getByText(name(VIDEOS.second), { exact: true })).toBeVisible();
    await select(ignored, name(VIDEOS.second));
    await snap(page, '36-ignored-files');
    await page.getByRole('toolbar', { name: 'File actions' }).getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByTestId('file-table-empty')).toHaveText('No ignored file(s)!');

    await openUtility(page, 'Unrecognized Files');
    await expect(rows(unrecognized)).toHaveCount(3);

    // Delete asks first, then removes the file from disk.
    await select(unrecognized, name(VIDEOS.movie));
    await page.getByRole('toolbar', { name: 'File actions' }).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete 1 file?' });
    await expect(confirm).toContainText('permanently removed from disk');
    await expect(confirm).toContainText(name(VIDEOS.movie));
    await snap(page, '37-delete-files-confirm');
    await confirm.getByRole('button', { name: 'Delete from Disk' }).click();
    await expect(confirm).toBeHidden();
    await expect(rows(unrecognized)).toHaveCount(2);
    expect(fs.existsSync(path.join(media, VIDEOS.movie.path))).toBe(false);
    expect(fs.existsSync(path.join(media, VIDEOS.first.path))).toBe(true);

    // A file dropped into the watched folder shows up by itself: the hub's file events refresh the list.
    const third = path.join('Show A', '[Grp] Show A - 03.mkv');
    fs.writeFileSync(path.join(media, third), randomBytes(150 * 1024));
    await expect(unrecognized.getByText(path.basename(third), { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(unrecognized.getByText('Hashing…')).toHaveCount(0, { timeout: 30_000 });
    expect(hubEvents).toContain('ShokoEvent:FileDetected');
    expect(hubEvents).toContain('ShokoEvent:FileHashed');

    // Settings › Import lists the folder, with a rescan per folder.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Import' }).click();
    await expect(page).toHaveURL(server.url('/webui/settings/import'));
    const settingsFolders = page.getByRole('list', { name: 'Import folders' });
    await expect(settingsFolders.getByText('Anime', { exact: true })).toBeVisible();
    await snap(page, '38-settings-import');
    await settingsFolders.getByRole('button', { name: 'Rescan Anime' }).click();
    await expect(page.getByText('Scanning Anime…')).toBeVisible();

    // Deleting the folder (records too) asks first; its files then leave the unrecognized list, but not the disk.
    await settingsFolders.getByRole('button', { name: 'Edit Anime' }).click();
    await page.getByRole('dialog', { name: 'Edit Import Folder' }).getByRole('button', { name: 'Delete' }).click();
    const confirmFolder = page.getByRole('dialog', { name: 'Delete Import Folder' });
    await expect(confirmFolder.getByRole('checkbox', { name: /Keep file records/ })).not.toBeChecked();
    await snap(page, '41-delete-import-folder');
    await confirmFolder.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(settingsFolders.getByText('No Import Folders Added!')).toBeVisible();
    await openUtility(page, 'Unrecognized Files');
    await expect(page.getByTestId('file-table-empty')).toHaveText('No unrecognized file(s)!');
    expect(fs.existsSync(path.join(media, VIDEOS.first.path))).toBe(true);
  });
});

test.describe('a long list of unrecognized files', () => {
  const COUNT = 450;
  const fileName = (n: number) => `Bulk Show - ${String(n).padStart(3, '0')}.mkv`;
  let server: ShokoServer;
  let media: string;

  test.beforeAll(async () => {
    media = makeMediaFolder();
    for (let n = 1; n <= COUNT; n++) fs.writeFileSync(path.join(media, fileName(n)), randomBytes(512 + n));
    server = await startShoko();
    await completeFirstRunViaApi(server);
    const call = async (method: string, pathname: string, body?: unknown, apikey = '') => {
      const response = await fetch(server.url(pathname), {
        method,
        headers: { apikey, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!response.ok) throw new Error(`${method} ${pathname} answered ${response.status}: ${await response.text()}`);
      return response.headers.get('content-type')?.includes('json') ? ((await response.json()) as Record<string, unknown>) : null;
    };
    const { apikey } = (await call('POST', '/api/auth', { user: LOCAL_USER.username, pass: LOCAL_USER.password, device: 'e2e' })) as {
      apikey: string;
    };
    const folder = (await call(
      'POST',
      '/api/v3/ImportFolder',
      { Name: 'Bulk', Path: media, DropFolderType: 'None', WatchForNewFiles: false },
      apikey,
    )) as { ID: number };
    await call('GET', `/api/v3/ImportFolder/${folder.ID}/Scan`, undefined, apikey);
  });

  test.afterAll(async () => {
    await server?.stop();
    if (media) fs.rmSync(media, { recursive: true, force: true });
  });

  test('loads page after page while scrolling, keeping only the visible rows in the page', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(server.url('/webui/utilities/unrecognized/files'));
    await loginThroughForm(page);
    const table = page.getByRole('table', { name: 'Unrecognized Files' });
    await expect(page.getByTestId('file-total')).toHaveText(`${COUNT} files`, { timeout: 90_000 });
    await expect(rows(table).first()).toContainText(fileName(1));
    // Virtualised: a few dozen rows exist, not hundreds; the table scrolls inside the page, the page does not grow.
    expect(await rows(table).count()).toBeLessThan(80);
    expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1)).toBe(true);

    // Scrolling to the end fetches pages 2 and 3 (page size 200) until the last file shows.
    await expect(async () => {
      await table.evaluate((element) => element.scrollTo(0, element.scrollHeight));
      await expect(table.getByText(fileName(COUNT), { exact: true })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 30_000 });
    expect(await rows(table).count()).toBeLessThan(80);
    await expect(table).toHaveAttribute('aria-rowcount', String(COUNT + 1));
    await snap(page, '39-unrecognized-long-list');

    // Select all loaded rows.
    await table.getByRole('checkbox', { name: 'Select all loaded files' }).check();
    await expect(page.getByTestId('selected-count')).toHaveText(`${COUNT} selected`);

    // On a phone the table keeps its columns and scrolls sideways inside its box.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(rows(table).first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await snap(page, '40-unrecognized-mobile');
  });
});
