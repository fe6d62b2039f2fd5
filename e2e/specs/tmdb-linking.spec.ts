import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startDemo, type RunningDemo } from '../../fakes/src/demo/demo';
import { startFakeTmdb, type FakeTmdb } from '../../fakes/src/tmdb/index';
import {
  CLOCKWORK_MOVIE_ID,
  PAPER_COMET_MOVIE_ID,
  sampleMovies,
  sampleShows,
  TIDEWATER_SHOW_ID,
  TIDEWATER_STORY_ARCS_GROUP_ID,
} from '../../fakes/src/tmdb/sample-data';
import { loginThroughForm } from '../support/console';
import { snap as fullPageSnap } from '../support/screenshots';
import { freePort } from '../support/server';

const SERIES_NAME = 'Kiri no Toudai Yuubinkyoku';
const SHOW_TITLE = 'Lanterns of the Tidewater Line';
const OVA_NAME = 'Tetsu no Niwa';
const CLOCKWORK_TITLE = 'Clockwork Orchard: The Last Harvest';

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
  test('movie mode: link episodes to movies, an episode of one movie is kept from another, unlink, and save', async ({ page }) => {
    test.setTimeout(180_000);
    type MovieLink = { AnidbEpisodeID: number; TmdbMovieID: number };
    await page.goto(`${demo.baseUrl}/webui/login`);
    await loginThroughForm(page, { username: 'Default', password: '' });
    await page.goto(`${demo.baseUrl}/webui/collection`);
    await page
      .getByTestId('group-card')
      .filter({ hasText: /Tetsu no Niwa|Iron Garden/ })
      .first()
      .click();
    const card = page.locator(`[data-testid="series-card"][title="${OVA_NAME}"]`);
    // A group of one series opens the series itself.
    if (await card.isVisible().catch(() => false)) await card.click();
    await expect(page).toHaveURL(/\/webui\/collection\/series\/\d+\/overview$/);
    const ovaId = Number(/series\/(\d+)/.exec(page.url())![1]);
    const episodes = (await api(
      'GET',
      `/api/v3/Series/${ovaId}/Episode?pageSize=0&includeMissing=true&includeUnaired=true&type=Episode&type=Special&type=Other`,
    )) as {
      List: { IDs: { AniDB: number }; AniDB: { Title: string } | null; Name: string }[];
    };
    const [first, second] = episodes.List;
    const titleOf = (e: (typeof episodes.List)[number]) => e.AniDB?.Title ?? e.Name;
    const movieLinks = async () =>
      ((await api('GET', `/api/v3/Series/${ovaId}/TMDB/Movie/CrossReferences`)) as MovieLink[])
        .map((l) => [l.AnidbEpisodeID, l.TmdbMovieID])
        .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(await movieLinks()).toEqual([]);

    const sites = page.getByTestId('metadata-sites');
    await sites.getByRole('link', { name: 'Link TMDB' }).click();
    await expect(page).toHaveURL(new RegExp(`/collection/series/${ovaId}/tmdb-linking$`));
    // The type switch: Movie searches TMDB's movies.
    await page.getByRole('radio', { name: 'Movie' }).click();
    await expect(page.getByRole('radio', { name: 'Movie' })).toHaveAttribute('aria-checked', 'true');
    await page.getByLabel('Search TMDB').fill('Clockwork');
    const results = page.getByRole('list', { name: 'TMDB results' });
    await results.getByRole('button', { name: new RegExp(`Movie\\s*${CLOCKWORK_TITLE}\\s*2023`) }).click();
    await expect(page).toHaveURL(new RegExp(`tmdb-linking\\?type=Movie&id=${CLOCKWORK_MOVIE_ID}$`));
    await expect(page.getByTestId('linking-tmdb-title')).toHaveText(CLOCKWORK_TITLE);
    await expect(page.getByText(`TMDB Movie · ${CLOCKWORK_MOVIE_ID} · New Link`)).toBeVisible();

    // One row per AniDB episode, none linked; nothing staged, so Save is disabled with 'No links to save!'.
    const rows = page.getByTestId('link-row');
    await expect(rows).toHaveCount(episodes.List.length);
    await expect(page.getByRole('button', { name: 'Save Links' })).toBeDisabled();
    await expect(page.getByText('No links to save!')).toBeVisible();
    const row = (anidbId: number) => page.locator(`[data-testid="link-row"][data-anidb-id="${anidbId}"]`);
    await expect(row(first.IDs.AniDB)).toContainText('No Link');

    // Linking a row stages it (UO) and shows the movie; linking it again takes the stage back.
    await row(first.IDs.AniDB)
      .getByRole('button', { name: `Link ${titleOf(first)}` })
      .click();
    await expect(row(first.IDs.AniDB).getByTestId('rating-badge')).toHaveText('UO');
    await expect(row(first.IDs.AniDB)).toContainText(CLOCKWORK_TITLE);
    await expect(page.getByRole('button', { name: 'Save Links' })).toBeEnabled();
    await row(second.IDs.AniDB)
      .getByRole('button', { name: `Link ${titleOf(second)}` })
      .click();
    await row(second.IDs.AniDB)
      .getByRole('button', { name: `Unlink ${titleOf(second)}` })
      .click();
    await expect(row(second.IDs.AniDB).getByTestId('rating-badge')).toHaveText('None');
    await snap(page, '120-tmdb-movie-linking-staged');
    await page.getByRole('button', { name: 'Save Links' }).click();
    await expect(page).toHaveURL(new RegExp(`/collection/series/${ovaId}(/overview)?$`));
    await expect(sites.getByRole('link', { name: `Movie ${CLOCKWORK_MOVIE_ID}`, exact: true })).toBeVisible();
    expect(await movieLinks()).toEqual([[first.IDs.AniDB, CLOCKWORK_MOVIE_ID]]);
    const stored = (await api('GET', `/api/v3/Series/${ovaId}/TMDB/Movie/CrossReferences`)) as { Rating: string }[];
    expect(stored.map((l) => l.Rating)).toEqual(['User']);
    const series = (await api('GET', `/api/v3/Series/${ovaId}`)) as { IDs: { TMDB: { Movie: number[] } } };
    expect(series.IDs.TMDB.Movie).toEqual([CLOCKWORK_MOVIE_ID]);
    await snap(page, '121-series-tmdb-movie-linked');

    // A second movie: the episode linked to the first one is disabled with SPEC's text; another episode links.
    await sites.getByRole('link', { name: 'Add Link' }).click();
    await page.getByRole('radio', { name: 'Movie' }).click();
    await page.getByLabel('Search TMDB').fill(String(PAPER_COMET_MOVIE_ID));
    await results.getByRole('button', { name: new RegExp(`Paper Comet\\s*2020`) }).click();
    await expect(page).toHaveURL(new RegExp(`tmdb-linking\\?type=Movie&id=${PAPER_COMET_MOVIE_ID}$`));
    await expect(row(first.IDs.AniDB)).toHaveAttribute('title', 'This episode is already linked to a different movie!');
    await expect(row(first.IDs.AniDB).getByRole('button')).toBeDisabled();
    await row(second.IDs.AniDB)
      .getByRole('button', { name: `Link ${titleOf(second)}` })
      .click();
    await expect(row(second.IDs.AniDB)).toContainText('Paper Comet');
    await snap(page, '122-tmdb-movie-linking-other-movie');
    await page.getByRole('button', { name: 'Save Links' }).click();
    await expect(sites.getByRole('link', { name: `Movie ${PAPER_COMET_MOVIE_ID}`, exact: true })).toBeVisible();
    expect(await movieLinks()).toEqual([
      [first.IDs.AniDB, CLOCKWORK_MOVIE_ID],
      [second.IDs.AniDB, PAPER_COMET_MOVIE_ID],
    ]);

    // Editing the first movie's links: unlinking its only episode removes the movie from the series.
    await sites.getByRole('link', { name: `Edit Movie ${CLOCKWORK_MOVIE_ID} links` }).click();
    await expect(page.getByTestId('linking-tmdb-title')).toHaveText(CLOCKWORK_TITLE);
    // Stored links are not staged: the linked episode shows the movie, and there is nothing to save yet.
    await expect(row(first.IDs.AniDB)).toContainText(CLOCKWORK_TITLE);
    await expect(page.getByRole('button', { name: 'Save Links' })).toBeDisabled();
    await expect(page.getByText('No links to save!')).toBeVisible();
    await expect(row(second.IDs.AniDB)).toHaveAttribute('title', 'This episode is already linked to a different movie!');
    await row(first.IDs.AniDB)
      .getByRole('button', { name: `Unlink ${titleOf(first)}` })
      .click();
    await expect(row(first.IDs.AniDB).getByTestId('rating-badge')).toHaveText('UO');
    await expect(row(first.IDs.AniDB)).toContainText('No Link');
    await page.getByRole('button', { name: 'Save Links' }).click();
    await expect(page).toHaveURL(new RegExp(`/collection/series/${ovaId}(/overview)?$`));
    await expect(sites.getByRole('link', { name: `Movie ${CLOCKWORK_MOVIE_ID}`, exact: true })).toBeHidden();
    expect(await movieLinks()).toEqual([[second.IDs.AniDB, PAPER_COMET_MOVIE_ID]]);
  });
});
