import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startDemo, type RunningDemo } from '../../fakes/src/demo/demo';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { freePort } from '../support/server';

/** The offline demo end to end: fakes + generated library → matched collection, seen through the console. */
test.describe('the offline demo', () => {
  let demo: RunningDemo;
  let home: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-demo-'));
    demo = await startDemo({ home, port: await freePort(), stdio: 'pipe' });
  });

  test.afterAll(async () => {
    await demo?.stop();
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('imports the invented library, leaves only the unknown file unrecognized, and shows an AniDB pause and ban', async ({ page }) => {
    expect(demo.importSeconds).toBeLessThan(60);
    await page.goto(`${demo.baseUrl}/webui/login`);
    await loginThroughForm(page, { username: 'Default', password: '' });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Utilities' }).click();
    await page.getByRole('menuitem', { name: 'Unrecognized Files' }).click();
    const table = page.getByRole('table', { name: 'Unrecognized Files' });
    await expect(table.getByTestId('file-row')).toHaveCount(1);
    await expect(table.getByTestId('file-row').first()).toContainText('Mystery Release - 01.mkv');
    await snap(page, '42-demo-unrecognized');

    // AniDB's HTTP API fails: every HTTP request pauses, and the console says
    // until when; AniDB/BanStatus reports the pause too.
    demo.anidbHttp.failStatus = 503;
    const refresh = await page.request.post(`${demo.baseUrl}/api/v3/Series/AniDB/9401/Refresh?immediate=true&createSeriesEntry=false`, {
      headers: { apikey: demo.apiKey },
    });
    expect(await refresh.json()).toBe(false);
    const pause = page.getByTestId('anidb-http-backoff');
    await expect(pause).toBeVisible();
    await expect(pause).toContainText('AniDB HTTP requests are paused after failures (AniDB answered HTTP 503 for anime 9401)');
    await expect(pause).toContainText(/They resume at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\./);
    const status = await (await page.request.get(`${demo.baseUrl}/api/v3/AniDB/BanStatus`, { headers: { apikey: demo.apiKey } })).json();
    expect(status.HTTP).toMatchObject({ Type: 'OverloadBackoff', IsBanned: true, BanDuration: '00:00:30' });
    expect(status.UDP).toMatchObject({ Type: 'UDPBan', IsBanned: false });
    await snap(page, '43b-anidb-http-backoff-banner');
    demo.anidbHttp.failStatus = null;

    // AniDB bans this server: a rescan of the unknown file gets the ban reply and the console says so.
    demo.udp.scenario.banned = true;
    await table.getByRole('checkbox', { name: 'Select Mystery Release - 01.mkv' }).click();
    await page.getByRole('toolbar', { name: 'File actions' }).getByRole('button', { name: 'Rescan' }).click();
    const banner = page.getByTestId('anidb-udp-ban');
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toContainText('AniDB UDP Ban Detected!');
    await expect(banner).toContainText(/Automatic recheck at \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await snap(page, '43-anidb-ban-banner');
  });
});
