import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { RunningDemo } from '../../fakes/src/demo/demo';
import { openDemoSession, type DemoSession } from '../support/demo';
import { snap } from '../support/screenshots';
import { repoRoot } from '../support/server';

const MYSTERY = 'Mystery Release - 01.mkv';

/**
 * AVDump on the demo's unknown file, with the fake avdump3 of fakes/bin standing in for AniDB's tool: the missing key
 * is reported, then the dump runs, the button moves on to 'Finish AVDump' and the two-step modal hands out the ED2K link
 * and rescans the file.
 */
test.describe.serial('AVDump of an unrecognized file', () => {
  let session: DemoSession;
  let demo: RunningDemo;
  let page: Page;
  const saved = { SHOKO_AVDUMP: process.env.SHOKO_AVDUMP, FAKE_AVDUMP_SCENARIO: process.env.FAKE_AVDUMP_SCENARIO };

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(180_000);
    // The demo's server inherits this environment.
    process.env.SHOKO_AVDUMP = path.join(repoRoot, 'fakes', 'bin', 'avdump3');
    process.env.FAKE_AVDUMP_SCENARIO = 'ok';
    session = await openDemoSession(browser, 'avdump');
    ({ demo, page } = session);
  });

  test.afterAll(async () => {
    await session?.close();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  const setAVDumpKey = async (value: string | null) => {
    const res = await fetch(`${demo.baseUrl}/api/v3/Settings`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', apikey: demo.apiKey },
      body: JSON.stringify([{ op: 'replace', path: '/AniDb/AVDumpKey', value }]),
    });
    expect(res.ok).toBe(true);
  };

  test('dumps the file, then offers its ED2K link for AniDB and a rescan', async () => {
    await page.goto(`${demo.baseUrl}/webui/utilities/unrecognized/files`);
    const table = page.getByRole('table', { name: 'Unrecognized Files' });
    const actions = page.getByRole('toolbar', { name: 'File actions' });
    await expect(actions.getByRole('button', { name: 'AVDump Files' })).toBeDisabled();
    await table.getByRole('checkbox', { name: `Select ${MYSTERY}` }).click();

    // Without an AVDump key the server refuses, and the console says why.
    await actions.getByRole('button', { name: 'AVDump Files' }).click();
    await expect(page.getByText(/AVDump failed! .*Missing AVDump API key/)).toBeVisible();
    await snap(page, '131-avdump-missing-key');

    await setAVDumpKey('demo-avdump-key');
    await actions.getByRole('button', { name: 'AVDump Files' }).click();
    await expect(actions.getByRole('button', { name: 'Finish AVDump' })).toBeEnabled();
    await expect(table.getByText(/^AVDumped \d{4}-\d{2}-\d{2}$/)).toBeVisible();

    await actions.getByRole('button', { name: 'Finish AVDump' }).click();
    const modal = page.getByRole('dialog', { name: 'Add Series to AniDB — Step 1 of 2' });
    const links = modal.getByLabel('ED2K links');
    await expect(links).toHaveValue(new RegExp(`^ed2k://\\|file\\|${MYSTERY.replace(/[.]/g, '\\.')}\\|\\d+\\|[0-9A-F]{32}\\|/$`));
    await modal.getByRole('button', { name: 'Copy ED2K Links' }).click();
    await expect(page.getByText('ED2K links copied!')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await links.inputValue());
    await snap(page, '132-avdump-add-to-anidb');
    await modal.getByRole('button', { name: 'Next' }).click();
    const second = page.getByRole('dialog', { name: 'Add Series to AniDB — Step 2 of 2' });
    await second.getByRole('button', { name: 'Rescan Files' }).click();
    await expect(page.getByText('Rescanning 1 file.')).toBeVisible();
    await expect(second).toBeHidden();
  });
});
