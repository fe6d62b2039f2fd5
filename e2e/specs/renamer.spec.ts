import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startDemo, type RunningDemo } from '../../fakes/src/demo/demo';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { freePort } from '../support/server';

const SCRIPT = "DO ADD '%ann - %enr'";
const KIRI = 'Kiri no Toudai Yuubinkyoku';

/** The Renamer page on the demo collection: add files, edit the script, watch the preview, rename, check the disk. */
test.describe('the renamer', () => {
  let demo: RunningDemo;
  let home: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-renamer-'));
    demo = await startDemo({ home, port: await freePort(), stdio: 'pipe' });
  });

  test.afterAll(async () => {
    await demo?.stop();
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('previews with the edited script and renames the files on disk', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(`${demo.baseUrl}/webui/login`);
    await loginThroughForm(page, { username: 'Default', password: '' });
    await page.goto(`${demo.baseUrl}/webui/utilities/renamer`);

    const table = page.getByRole('table', { name: 'Renamer Preview' });
    await expect(page.getByText('No files selected!')).toBeVisible();
    const renameButton = page.getByRole('button', { name: 'Rename Files', exact: true });
    await expect(renameButton).toBeDisabled();
    await expect(renameButton.locator('..')).toHaveAttribute('title', 'No files added');
    await snap(page, '60-renamer-empty');

    await page.getByRole('button', { name: 'Add Files' }).click();
    await expect(page.getByRole('dialog', { name: 'Add Files' })).toBeVisible();
    await snap(page, '61-renamer-add-files');
    await page.getByRole('button', { name: 'Entire Collection' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const rows = table.getByRole('rowgroup').getByRole('row');
    await expect(rows.first()).toBeVisible();
    const count = await rows.count();
    expect(count).toBeGreaterThan(5);
    // The default script: group, title, episode, resolution, CRC.
    const kiri03 = rows.filter({ hasText: `[Lantern] ${KIRI} - 03 [1080p].mkv` });
    await expect(kiri03.getByRole('cell').nth(1)).toContainText('_-_03');
    await expect(kiri03.locator('[data-status="pending"]')).toBeVisible();
    // The file AniDB does not know fails with its reason.
    await expect(rows.filter({ hasText: 'Mystery Release - 01.mkv' }).locator('[data-status="failed"]')).toBeVisible();
    await snap(page, '62-renamer-preview-default');

    // The Monaco editor: focus it, select everything and type the new script.
    const editor = page.getByTestId('script-editor');
    await expect(editor.locator('.monaco-editor')).toBeVisible({ timeout: 30_000 });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(SCRIPT);
    await expect(kiri03.getByRole('cell').nth(1)).toHaveText(`${KIRI}/${KIRI} - 03.mkv`, { timeout: 15_000 });
    await expect(renameButton.locator('..')).toHaveAttribute('title', 'Config has been edited, please save before renaming files');
    await snap(page, '63-renamer-edited-script');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(renameButton).toBeEnabled();
    await renameButton.click();
    await expect(kiri03.locator('[data-status="successful"]')).toBeVisible({ timeout: 30_000 });
    await snap(page, '64-renamer-renamed');

    const library = path.join(home, 'library');
    expect(fs.existsSync(path.join(library, KIRI, `${KIRI} - 03.mkv`))).toBe(true);
    expect(fs.existsSync(path.join(library, KIRI, `[Lantern] ${KIRI} - 03 [1080p].mkv`))).toBe(false);
    expect(fs.existsSync(path.join(library, 'Kiri no Toudai Yuubinkyoku 2', 'Kiri no Toudai Yuubinkyoku 2 - 02.mkv'))).toBe(true);

    // New config: a taken name cannot be saved.
    await page.getByRole('button', { name: 'New', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'New Config' });
    await modal.getByRole('textbox', { name: 'Name' }).fill('Default');
    await expect(modal.getByText('Another config with the same name already exists!')).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Save' })).toBeDisabled();
    await snap(page, '65-renamer-new-config');
    await modal.getByRole('textbox', { name: 'Name' }).fill('Second');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('combobox', { name: 'Config' })).toHaveValue('Second');
    await expect(page.getByRole('button', { name: 'Delete' })).toBeEnabled();
  });
});
