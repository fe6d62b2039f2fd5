import { expect, test, type Page } from '@playwright/test';
import type { RunningDemo } from '../../fakes/src/demo/demo';
import { openDemoSession, type DemoSession } from '../support/demo';
import { snap } from '../support/screenshots';

const MYSTERY = 'Mystery Release - 01.mkv';
const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

/**
 * The Utilities pages on the offline demo library: link the unknown file by hand with Range Fill, see and unlink it
 * under Manually Linked Files, search a file and copy its ED2K, and add and delete a series without files.
 */
test.describe.serial('utilities on the demo library', () => {
  let session: DemoSession;
  let demo: RunningDemo;
  let page: Page;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    session = await openDemoSession(browser, 'utilities');
    ({ demo, page } = session);
  });

  test.afterAll(async () => {
    await session?.close();
  });

  test('links the unknown file to a missing episode with Range Fill', async () => {
    await page.goto(`${demo.baseUrl}/webui/utilities/unrecognized/files`);
    const table = page.getByRole('table', { name: 'Unrecognized Files' });
    await expect(table.getByTestId('file-row')).toHaveCount(1);
    const actions = page.getByRole('toolbar', { name: 'File actions' });
    await expect(actions.getByRole('button', { name: 'Manual Link' })).toBeDisabled();
    await table.getByRole('checkbox', { name: `Select ${MYSTERY}` }).click();
    await actions.getByRole('button', { name: 'Manual Link' }).click();
    await expect(page).toHaveURL(/\/webui\/utilities\/unrecognized\/files\/link\?files=\d+$/);

    const entries = page.getByTestId('link-entry');
    await expect(entries).toHaveCount(1);
    await expect(entries.first()).toContainText(MYSTERY);
    const save = page.getByRole('button', { name: 'Save' });
    await expect(save).toBeDisabled();
    await snap(page, '120-manual-link-start');

    await page.getByLabel('Search AniDB series').fill('Sora-iro');
    const results = page.getByRole('list', { name: 'AniDB search results' });
    await results.getByRole('button', { name: /Sora-iro Sanpo/ }).click();
    await expect(page.getByTestId('chosen-series')).toHaveText('Sora-iro Sanpo');
    const episode = page.getByLabel(`Episode for ${MYSTERY}`);
    // The file name says 01: auto matching picks episode 1 as soon as the episodes are known.
    await expect(episode.locator('option:checked')).toHaveText(/^1 - /);

    // Duplicate Entry adds a second row for the same file; Remove Entry takes it away again.
    await page.getByRole('button', { name: `Duplicate Entry ${MYSTERY}` }).click();
    await expect(entries).toHaveCount(2);
    await page
      .getByRole('button', { name: `Remove Entry ${MYSTERY}` })
      .nth(1)
      .click();
    await expect(entries).toHaveCount(1);

    const rangeFill = page.getByRole('form', { name: 'Range Fill' });
    const fill = rangeFill.getByRole('button', { name: 'Fill' });
    await expect(fill).toBeDisabled();
    await rangeFill.getByLabel('Starting episode').fill('0');
    await fill.click();
    await expect(rangeFill.getByRole('alert')).toHaveText('Value is not a positive integer.');
    await rangeFill.getByLabel('Starting episode').fill('9');
    await fill.click();
    await expect(rangeFill.getByRole('alert')).toHaveText('Unable to find starting episode.');
    await rangeFill.getByLabel('Starting episode').fill('3');
    await fill.click();
    await expect(rangeFill.getByRole('alert')).toHaveCount(0);
    await expect(episode.locator('option:checked')).toHaveText(/^3 - /);
    await snap(page, '121-manual-link-range-filled');
    await page.setViewportSize(MOBILE);
    await snap(page, '122-manual-link-mobile');
    await page.setViewportSize(DESKTOP);

    await save.click();
    await expect(page.getByText('Linked 1 file!')).toBeVisible();
    await expect(page).toHaveURL(/\/webui\/utilities\/unrecognized\/files$/);
    // The link job runs in the background; the list follows the hub (or its polling).
    await expect(page.getByTestId('file-table-empty')).toHaveText('No unrecognized file(s)!', { timeout: 30_000 });
  });

  test('lists the manually linked file under its series and unlinks it', async () => {
    await page.getByRole('link', { name: 'Manually Linked Files' }).click();
    const seriesList = page.getByRole('region', { name: 'Series with manually linked files' });
    await expect(seriesList.getByRole('button', { name: /Sora-iro Sanpo/ })).toBeVisible();
    const files = page.getByRole('region', { name: 'Manually linked files of Sora-iro Sanpo' });
    await expect(files.getByTestId('linked-file')).toHaveCount(1);
    await expect(files.getByTestId('linked-file')).toContainText(MYSTERY);
    await expect(files.getByTestId('linked-file')).toContainText(/3 - /);
    await snap(page, '123-manually-linked');
    await page.setViewportSize(MOBILE);
    await snap(page, '124-manually-linked-mobile');
    await page.setViewportSize(DESKTOP);

    const unlink = files.getByRole('button', { name: 'Unlink' });
    await expect(unlink).toBeDisabled();
    await files.getByRole('checkbox', { name: `Select ${MYSTERY}` }).check();
    await unlink.click();
    await expect(page.getByTestId('list-empty')).toHaveText('No series with manually linked files!');
    await snap(page, '125-manually-linked-empty');

    await page.getByRole('link', { name: 'Unrecognized Files' }).click();
    await expect(page.getByRole('table', { name: 'Unrecognized Files' }).getByTestId('file-row')).toHaveCount(1);
  });

  test('searches files, shows the details of the selection and copies an ED2K', async () => {
    await page.goto(`${demo.baseUrl}/webui/utilities/file-search`);
    const table = page.getByRole('table', { name: 'File Search' });
    await expect(table.getByTestId('file-row').first()).toBeVisible();
    await expect(page.getByTestId('file-total')).toHaveText(/^\d+ files$/);
    await expect(page.getByTestId('details-empty')).toHaveText('Select File To Populate');
    // Typed key by key (settled after the last key), then put in whole (searched at once).
    await page.getByLabel('Search files').pressSequentially('no such file anywhere');
    await expect(page.getByTestId('file-table-empty')).toHaveText('No search results!');

    // The four Lantern releases of Kiri no Toudai Yuubinkyoku (episodes 1–3 and S1) are the 1080p files.
    await page.getByLabel('Search files').fill('1080p');
    await expect(table.getByTestId('file-row')).toHaveCount(4);
    await table.getByTestId('file-row').nth(0).click();
    await table.getByTestId('file-row').nth(1).click();
    await expect(page.getByTestId('summary-series')).toHaveText('1');
    await expect(page.getByTestId('summary-episodes')).toHaveText('2');
    const details = page.getByTestId('file-details');
    await expect(details).toContainText('[Lantern] Kiri no Toudai Yuubinkyoku');
    await expect(details.getByRole('link', { name: 'Kiri no Toudai Yuubinkyoku' })).toBeVisible();
    await expect(page.getByText('2 / 2')).toBeVisible();
    await page.getByRole('button', { name: 'Previous file' }).click();
    await expect(page.getByText('1 / 2')).toBeVisible();
    const toolbar = page.getByRole('toolbar', { name: 'File actions' });
    await expect(toolbar.getByRole('button', { name: 'Rescan' })).toBeVisible();
    await expect(toolbar.getByRole('button', { name: 'Refresh' })).toHaveCount(0);

    await expect(page.getByTestId('file-ed2k')).toHaveText(/^\s*[0-9a-f]{32}\s*$/i);
    const ed2k = (await page.getByTestId('file-ed2k').textContent())!.trim();
    await page.getByRole('button', { name: 'Copy ED2K' }).click();
    await expect(page.getByText('ED2K copied!')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ed2k);
    await snap(page, '126-file-search');
    await page.setViewportSize(MOBILE);
    await snap(page, '127-file-search-mobile');
    await page.setViewportSize(DESKTOP);
  });

  test('adds a series from AniDB under Series Without Files and deletes it again', async () => {
    await page.goto(`${demo.baseUrl}/webui/utilities/series-without-files`);
    await expect(page.getByTestId('list-empty')).toHaveText('No series without files!');
    await snap(page, '128-series-without-files-empty');

    await page.getByRole('button', { name: 'Add Series' }).click();
    const modal = page.getByRole('dialog', { name: 'Add Series' });
    await modal.getByLabel('Search AniDB').fill('Library Above');
    await modal.getByRole('button', { name: 'Add Kumo no Ue no Toshokan' }).click();
    await expect(page.getByText('Kumo no Ue no Toshokan added!')).toBeVisible({ timeout: 30_000 });
    // A series already in the collection is not offered again.
    await modal.getByLabel('Search AniDB').fill('Sora-iro');
    await expect(modal.getByTestId('list-empty')).toHaveText('No results found!');
    await modal.getByRole('button', { name: 'Close' }).click();

    const rows = page.getByTestId('series-row');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Kumo no Ue no Toshokan');
    await expect(rows.first()).toContainText('AniDB 9401');
    await snap(page, '129-series-without-files');
    await page.setViewportSize(MOBILE);
    await snap(page, '130-series-without-files-mobile');
    await page.setViewportSize(DESKTOP);

    await page.getByRole('checkbox', { name: 'Select Kumo no Ue no Toshokan' }).check();
    await page.getByRole('toolbar', { name: 'Series actions' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete 1 series?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByTestId('list-empty')).toHaveText('No series without files!');
  });

  test('links a file to an anime that is not in the collection yet, creating its series', async () => {
    await page.goto(`${demo.baseUrl}/webui/utilities/unrecognized/files`);
    const table = page.getByRole('table', { name: 'Unrecognized Files' });
    await table.getByRole('checkbox', { name: `Select ${MYSTERY}` }).click();
    await page.getByRole('toolbar', { name: 'File actions' }).getByRole('button', { name: 'Manual Link' }).click();
    await page.getByLabel('Search AniDB series').fill('Night Letter');
    const hit = page.getByRole('list', { name: 'AniDB search results' }).getByRole('button', { name: /Yozora Tegami Ressha/ });
    await expect(hit).toContainText('Not downloaded');
    await hit.click();
    await expect(page.getByTestId('chosen-series')).toHaveText('Yozora Tegami Ressha');
    await expect(page.getByText('Not in collection yet')).toBeVisible();
    const episode = page.getByLabel(`Episode for ${MYSTERY}`);
    await expect(episode.locator('option:checked')).toHaveText(/^1 - /);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Linked 1 file!')).toBeVisible();
    await expect(page.getByTestId('file-table-empty')).toHaveText('No unrecognized file(s)!', { timeout: 30_000 });

    await page.getByRole('link', { name: 'Manually Linked Files' }).click();
    await expect(
      page.getByRole('region', { name: 'Manually linked files of Yozora Tegami Ressha' }).getByTestId('linked-file'),
    ).toContainText(MYSTERY);
  });
});
