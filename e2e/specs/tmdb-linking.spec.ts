import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startDemo, type RunningDemo } from '../../fakes/src/demo/demo';
import { startFakeTmdb, type FakeTmdb } from '../../fakes/src/tmdb/index';
import { sampleMovies, sampleShows, TIDEWATER_SHOW_ID, TIDEWATER_STORY_ARCS_GROUP_ID } from '../../fakes/src/tmdb/sample-data';
import { loginThroughForm } from '../support/console';
import { snap as fullPageSnap } from '../support/screenshots';
import { freePort } from '../support/server';

const SERIES_NAME = 'Kiri no Toudai Yuubinkyoku';
const SHOW_TITLE = 'Lanterns of the Tidewater Line';

async function snap(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await fullPageSnap(page, name);
}

/** The TMDB linking page against the offline demo, with the TMDB fake standing in for TMDB. */
test.describe('TMDB linking', () => {
  test.use({ actionTimeout: 15_000 });
  let demo: RunningDemo;
  let tmdb: FakeTmdb;
  let home: string;
  let seriesId: number;
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${demo.baseUrl}${url}`, {
      method,
      headers: { apikey: demo.apiKey, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  };

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    tmdb = await startFakeTmdb({ shows: sampleShows, movies: sampleMovies });
    process.env.SHOKO_TMDB_URL = tmdb.url;
    process.env.SHOKO_TMDB_IMAGE_URL = tmdb.imageUrl;
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-tmdb-linking-'));
    demo = await startDemo({ home, port: await freePort(), stdio: 'pipe' });
    // The demo imported its collection without TMDB; the key is set now, so nothing was linked automatically.
    await api('PATCH', '/api/v3/Settings?skipValidation=true', [
      { op: 'replace', path: '/TMDB/UserApiKey', value: 'TESTKEY' },
      { op: 'replace', path: '/TMDB/AutoDownloadAlternateOrdering', value: true },
    ]);
  });

  test.afterAll(async () => {
    await demo?.stop();
    await tmdb?.close();
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('search a show, stage a link override, save it, and change the ordering', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(`${demo.baseUrl}/webui/login`);
    await loginThroughForm(page, { username: 'Default', password: '' });
    await page.goto(`${demo.baseUrl}/webui/collection`);
    await page
      .getByTestId('group-card')
      .filter({ hasText: /Kiri no Toudai|Foggy Lighthouse/ })
      .first()
      .click();
    await page.locator(`[data-testid="series-card"][title="${SERIES_NAME}"]`).click();
    await expect(page).toHaveURL(/\/webui\/collection\/series\/\d+\/overview$/);
    seriesId = Number(/series\/(\d+)/.exec(page.url())![1]);
    const sites = page.getByTestId('metadata-sites');
    await sites.getByRole('link', { name: 'Link TMDB' }).click();
    await expect(page).toHaveURL(new RegExp(`/collection/series/${seriesId}/tmdb-linking$`));

    // The link-select panel: a title search lists the TMDB fake's shows.
    await page.getByLabel('Search TMDB').fill('Lanterns');
    const results = page.getByRole('list', { name: 'TMDB results' });
    await expect(results.getByRole('button', { name: new RegExp(`${SHOW_TITLE} 2022`) })).toBeVisible();
    await page.getByLabel('Search TMDB').fill('no such show anywhere');
    await expect(page.getByText('No results found!')).toBeVisible();
    await page.getByLabel('Search TMDB').fill('Lanterns');
    await expect(results.getByRole('button', { name: new RegExp(`${SHOW_TITLE} 2022`) })).toBeVisible();
    await snap(page, '113-tmdb-link-select');
    await results.getByRole('button', { name: new RegExp(`${SHOW_TITLE} 2022`) }).click();
    await expect(page).toHaveURL(new RegExp(`tmdb-linking\\?type=Show&id=${TIDEWATER_SHOW_ID}$`));
    await expect(page.getByTestId('linking-tmdb-title')).toHaveText(SHOW_TITLE);

    // Two columns, one row per AniDB episode, each with a rating badge of the automatic preview.
    const rows = page.getByTestId('link-row');
    await expect(rows).toHaveCount(6);
    for (const badge of await page.getByTestId('rating-badge').allTextContents())
      expect(['DT', '~DT', 'D', 'T', '~T', 'UO', 'BG', 'None']).toContain(badge);

    // Stage an override: the second episode goes to TMDB S01E04.
    const second = rows.nth(1);
    await second.getByRole('button', { name: /Edit link of/ }).click();
    const picker = page.getByRole('dialog');
    await picker.getByLabel('Search TMDB episodes').fill('S1E4');
    await expect(picker.getByRole('list', { name: 'TMDB episodes' }).getByRole('button')).toHaveCount(1);
    await snap(page, '115-tmdb-episode-picker');
    await picker.getByRole('button', { name: /Where the Last Lantern Sails/ }).click();
    await expect(picker).toBeHidden();
    await expect(second.getByTestId('rating-badge')).toHaveText('UO');
    await expect(second.getByTestId('tmdb-episode')).toContainText('S01E04');
    await snap(page, '114-tmdb-linking-staged');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, '118-tmdb-linking-mobile');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Save Links' }).click();
    await expect(page).toHaveURL(new RegExp(`/collection/series/${seriesId}(/overview)?$`));
    await expect(sites.getByRole('link', { name: `Show ${TIDEWATER_SHOW_ID}`, exact: true })).toBeVisible();
    const links = (await api('GET', `/api/v3/Series/${seriesId}/TMDB/Show/CrossReferences/Episode?pageSize=0`)) as {
      List: { TmdbEpisodeID: number; Rating: string }[];
    };
    expect(links.List.filter((l) => l.Rating === 'UserVerified').map((l) => l.TmdbEpisodeID)).toEqual([9100104]);
    await snap(page, '116-series-tmdb-linked');

    // Reopened for the linked show: nothing staged, so Save is disabled with 'No links to save!'.
    await sites.getByRole('link', { name: `Edit Show ${TIDEWATER_SHOW_ID} links` }).click();
    await expect(page.getByTestId('link-row')).toHaveCount(6);
    await expect(page.getByRole('button', { name: 'Save Links' })).toBeDisabled();
    await expect(page.getByText('No links to save!')).toBeVisible();

    // A save the server refuses keeps the page and says so.
    await page.route('**/api/v3/Series/*/TMDB/Show/CrossReferences/Episode', (route) => route.fulfill({ status: 500, body: 'boom' }));
    await page
      .getByTestId('link-row')
      .nth(0)
      .getByRole('button', { name: /Edit link of/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'No Link' }).click();
    await expect(page.getByTestId('link-row').nth(0).getByTestId('rating-badge')).toHaveText('UO');
    await page.getByRole('button', { name: 'Save Links' }).click();
    await expect(page.getByText('Failed to save links!')).toBeVisible();
    await expect(page).toHaveURL(/tmdb-linking\?type=Show/);
    await page.unroute('**/api/v3/Series/*/TMDB/Show/CrossReferences/Episode');

    // TMDb Show Settings: the ordering in use cannot be chosen; another one can, and is saved.
    await page.getByRole('button', { name: 'TMDb Show Settings' }).click();
    const modal = page.getByRole('dialog', { name: 'TMDb Show Settings' });
    const inUse = modal.getByRole('radio', { name: /Seasons/ });
    await expect(inUse).toContainText('In Use');
    await expect(inUse).toHaveAttribute('aria-disabled', 'true');
    await expect(modal.getByRole('button', { name: 'Save' })).toBeDisabled();
    await modal.getByRole('radio', { name: /Story Arcs/ }).click();
    await expect(modal.getByRole('button', { name: 'Save' })).toBeEnabled();
    await snap(page, '117-tmdb-show-settings');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, '119-tmdb-show-settings-mobile');
    await page.setViewportSize({ width: 1280, height: 900 });
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Ordering has been updated!')).toBeVisible();
    const show = (await api('GET', `/api/v3/Tmdb/Show/${TIDEWATER_SHOW_ID}`)) as { AlternateOrderingID: string };
    expect(show.AlternateOrderingID).toBe(TIDEWATER_STORY_ARCS_GROUP_ID);
  });
});
