import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startDemo, type RunningDemo } from '../../fakes/src/demo/demo';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { freePort } from '../support/server';

const KIRI = 'Kiri no Toudai Yuubinkyoku';

/**
 * Release management on the offline demo: Kiri's episode 1 has a Lantern and a Harbour release, its episode 2 is
 * stored twice (the second copy under Backup/), and Sora-iro Sanpo misses episode 3 (Harbour released episode 4).
 */
test.describe('release management', () => {
  test.describe.configure({ mode: 'serial' });
  let demo: RunningDemo;
  let home: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-release-'));
    demo = await startDemo({ home, port: await freePort(), stdio: 'pipe' });
  });

  test.afterAll(async () => {
    await demo?.stop();
    fs.rmSync(home, { recursive: true, force: true });
  });

  async function open(page: Page, route: string) {
    await page.goto(`${demo.baseUrl}/webui/login`);
    await loginThroughForm(page, { username: 'Default', password: '' });
    await page.goto(`${demo.baseUrl}/webui/utilities/${route}`);
  }
  const seriesButton = (page: Page, name: string) => page.getByTestId('release-series').filter({ hasText: new RegExp(`^${name}`) });

  test('multiples: lists the two releases, keeps the toggle in the URL and quick-selects a group for deletion', async ({ page }) => {
    await open(page, 'release-management');
    await expect(page).toHaveURL(/release-management\/multiples$/);
    await expect(page.getByTestId('select-series')).toHaveText('Select series to populate');
    const kiri = seriesButton(page, KIRI);
    await expect(kiri).toHaveCount(1);
    await expect(kiri.getByLabel('1 entries')).toBeVisible();
    await snap(page, '200-release-multiples');

    await kiri.click();
    const episode = page.getByTestId('release-episode');
    await expect(episode).toHaveCount(1);
    await expect(episode).toContainText('EP 01');
    await episode.getByRole('button').click();
    const files = episode.getByTestId('release-file');
    await expect(files).toHaveCount(2);
    await expect(files.filter({ hasText: 'Harbour Subs' })).toHaveCount(1);
    await expect(files.filter({ hasText: 'Lantern Subs' })).toHaveCount(1);
    const toolbar = page.getByRole('toolbar', { name: 'Release management options' });
    await expect(toolbar.getByRole('button', { name: 'Confirm' })).toBeVisible();
    await snap(page, '201-release-multiples-episode');
    // Every file marked for deletion is refused: an episode keeps at least one.
    for (const file of await files.all()) await file.getByText('Delete', { exact: true }).click();
    await toolbar.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Keep at least one file of the episode.')).toBeVisible();
    await toolbar.getByRole('button', { name: 'Cancel' }).click();
    await expect(toolbar.getByRole('button', { name: 'Confirm' })).toHaveCount(0);

    await toolbar.getByRole('switch', { name: 'Ignore Variations' }).click();
    await expect(page).toHaveURL(/ignoreVariations=false/);
    await page.reload();
    await expect(toolbar.getByRole('switch', { name: 'Ignore Variations' })).not.toBeChecked();

    await seriesButton(page, KIRI).click();
    await toolbar.getByRole('button', { name: 'Quick Select' }).click();
    const modal = page.getByRole('dialog', { name: `Quick Select — ${KIRI}` });
    await expect(modal.getByTestId('quick-select-group')).toHaveCount(2);
    await expect(modal.getByTestId('quick-select-group').first()).toContainText('01-03');
    await snap(page, '202-release-quick-select');
    await modal.getByRole('checkbox', { name: 'Delete Harbour Subs' }).check();
    await modal.getByRole('button', { name: 'Confirm' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Files' });
    const harbour = path.join(demo.library, KIRI, `[Harbour Subs] ${KIRI} - 01 [720p].mkv`);
    await expect(confirm.getByRole('list', { name: 'Files to delete' })).toHaveText(harbour);
    await snap(page, '203-release-quick-select-confirm');
    await confirm.getByRole('button', { name: 'Delete 1 file' }).click();
    await expect(page.getByText('Successful!')).toBeVisible();
    await expect(page.getByTestId('list-empty')).toHaveText('No series with multiple releases!');
    expect(fs.existsSync(harbour)).toBe(false);
    expect(fs.existsSync(path.join(demo.library, KIRI, `[Lantern] ${KIRI} - 01 [1080p].mkv`))).toBe(true);
  });

  test('duplicates: deleting one location asks first, removes that copy from disk and keeps the other', async ({ page }) => {
    await open(page, 'release-management/multiples');
    await page.getByRole('navigation', { name: 'Release management tabs' }).getByRole('link', { name: 'Duplicates' }).click();
    await expect(page).toHaveURL(/release-management\/duplicates/);
    await seriesButton(page, KIRI).click();
    const episode = page.getByTestId('release-episode');
    await expect(episode).toContainText('EP 02');
    await episode.getByRole('button').click();
    const copies = episode.getByTestId('release-location');
    await expect(copies).toHaveCount(2);
    const original = path.join(demo.library, KIRI, `[Lantern] ${KIRI} - 02 [1080p].mkv`);
    const backup = path.join(demo.library, 'Backup', 'Kiri 02 (copy).mkv');
    // Both copies start as kept; the variation choice does not exist for duplicates.
    await expect(episode.getByRole('radio', { name: 'Variation' })).toHaveCount(0);
    await copies.filter({ hasText: backup }).getByText('Delete', { exact: true }).click();
    await snap(page, '204-release-duplicates');
    await page.getByRole('toolbar', { name: 'Release management options' }).getByRole('button', { name: 'Confirm' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Files' });
    await expect(confirm).toContainText('deleted from disk');
    await expect(confirm.getByRole('list', { name: 'Files to delete' })).toHaveText(backup);
    await snap(page, '205-release-duplicates-confirm');
    await confirm.getByRole('button', { name: 'Delete 1 file' }).click();
    await expect(page.getByText('Successful!')).toBeVisible();
    await expect(page.getByTestId('list-empty')).toHaveText('No series with duplicate files!');
    expect(fs.existsSync(backup)).toBe(false);
    expect(fs.existsSync(original)).toBe(true);
    await snap(page, '206-release-duplicates-empty');
  });

  test('missing episodes: Only Collecting in the URL, and Hide removes the episode from the list', async ({ page }) => {
    await open(page, 'release-management/missing-episodes');
    await expect(seriesButton(page, 'Sora-iro Sanpo')).toHaveCount(1);
    await expect(seriesButton(page, `${KIRI} 2`)).toHaveCount(1);
    const toolbar = page.getByRole('toolbar', { name: 'Release management options' });
    await expect(toolbar.getByRole('switch', { name: 'Ignore Variations' })).toHaveCount(0);
    await toolbar.getByRole('switch', { name: 'Only Collecting' }).click();
    await expect(page).toHaveURL(/onlyCollecting=true/);
    await expect(seriesButton(page, `${KIRI} 2`)).toHaveCount(0);
    const sora = seriesButton(page, 'Sora-iro Sanpo');
    await expect(sora.getByLabel('1 entries')).toBeVisible();
    await sora.click();
    const episode = page.getByTestId('release-episode');
    await expect(episode).toHaveCount(1);
    await expect(episode).toContainText('EP 03');
    await episode.getByRole('checkbox').check();
    await snap(page, '207-release-missing');
    await toolbar.getByRole('button', { name: 'Hide' }).click();
    await expect(page.getByText('Successful!')).toBeVisible();
    await expect(page.getByTestId('list-empty')).toHaveText('No series with missing episodes!');
  });

  test('fits a 390 px phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, 'release-management/missing-episodes');
    const sora = seriesButton(page, 'Sora-iro Sanpo');
    await expect(sora).toHaveCount(1);
    await sora.click();
    await expect(page.getByTestId('release-episode').first()).toBeVisible();
    await snap(page, '208-release-missing-mobile');
    await page.getByRole('navigation', { name: 'Release management tabs' }).getByRole('link', { name: 'Multiples' }).click();
    await expect(page.getByTestId('list-empty')).toHaveText('No series with multiple releases!');
    await snap(page, '209-release-multiples-mobile');
  });
});
