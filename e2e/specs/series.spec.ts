import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startDemo, type RunningDemo } from '../../fakes/src/demo/demo';
import { loginThroughForm } from '../support/console';
import { snap as fullPageSnap } from '../support/screenshots';
import { freePort } from '../support/server';

const SERIES_NAME = 'Kiri no Toudai Yuubinkyoku';

/** Full-page screenshots from the top, so the sticky navigation bar stays where it belongs. */
async function snap(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await fullPageSnap(page, name);
}

/** Opens the demo's first series (in a group with its sequel) from the collection, as a user would. */
async function openSeriesFromCollection(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/webui/collection`);
  await page
    .getByTestId('group-card')
    .filter({ hasText: /Kiri no Toudai|Foggy Lighthouse/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/webui\/collection\/group\/\d+$/);
  await page.locator(`[data-testid="series-card"][title="${SERIES_NAME}"]`).click();
  await expect(page).toHaveURL(/\/webui\/collection\/series\/\d+\/overview$/);
  await expect(page.getByTestId('series-title')).toHaveText(SERIES_NAME);
}

/** The series page of the offline demo's invented collection, tab by tab. */
test.describe('the series page', () => {
  test.use({ actionTimeout: 15_000 });
  let demo: RunningDemo;
  let home: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-series-'));
    demo = await startDemo({ home, port: await freePort(), stdio: 'pipe' });
  });

  test.afterAll(async () => {
    await demo?.stop();
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('header, tabs, watched state, preferred poster and a custom tag', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(`${demo.baseUrl}/webui/login`);
    await loginThroughForm(page, { username: 'Default', password: '' });
    await openSeriesFromCollection(page, demo.baseUrl);
    const seriesUrl = page.url().replace(/\/overview$/, '');

    // Header: breadcrumb through the group (it holds two series), information and user stats.
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(breadcrumb.getByRole('link')).toHaveCount(2);
    await expect(breadcrumb.getByRole('link').first()).toHaveText('Collection');
    const info = page.getByTestId('series-information');
    await expect(info).toContainText('TV Series');
    await expect(info).toContainText('Apr 6, 2021');
    await expect(info).toContainText('Finished');
    await expect(info).toContainText('3 Episodes | 2 Specials');
    await expect(info).toContainText('24 Minutes/Episode');
    await expect(info).toContainText('Studio Kazamidori');
    await expect(page.getByTestId('series-description')).toContainText('delivers letters nobody wrote');
    await expect(page.getByTestId('series-description')).not.toContainText('anidb.net');
    const watchedCount = page.getByTestId('series-watched-count');
    await expect(watchedCount).toHaveText('0 / 4');

    // Overview: metadata sites, on deck, related and similar anime, actors.
    await expect(page.getByTestId('metadata-sites')).toContainText('9001');
    await expect(page.getByTestId('episode-on-deck')).toContainText('Episode 1');
    await expect(page.getByRole('list', { name: 'Related Anime' })).toContainText('Sequel');
    // The demo's anime list no similar anime.
    await expect(page.getByRole('list', { name: 'Similar Anime' })).toHaveText('No similar anime.');
    await expect(page.getByRole('list', { name: 'Top actors' })).toContainText('Hayase Mio');
    await snap(page, '100-series-overview');

    // Series rating: 8 stars, shown in the user stats.
    await page.getByRole('radiogroup', { name: 'Series rating' }).getByRole('radio', { name: '8 stars' }).click();
    await expect(page.getByTestId('series-user-stats')).toContainText(/8( \(Temp\))?/);
    await expect(page.getByRole('radiogroup', { name: 'Series rating' }).getByRole('radio', { name: '8 stars' })).toHaveAttribute(
      'aria-checked',
      'true',
    );

    // Episodes: filters live in the URL; marking one watched updates the row, the stats and the on-deck episode.
    await page.getByRole('navigation', { name: 'Series tabs' }).getByRole('link', { name: 'Episodes' }).click();
    await expect(page).toHaveURL(/\/episodes$/);
    const rows = page.getByTestId('episode-row');
    await expect(rows).toHaveCount(3);
    await expect(page.getByTestId('episode-total')).toHaveText('3 Episodes');
    await expect(rows.first()).toContainText('Episode 1');
    await snap(page, '101-series-episodes');
    const first = rows.first();
    await first.getByRole('button', { name: /^Mark watched:/ }).click();
    await expect(first.getByTestId('episode-watched-state')).toHaveText(/^Watched /);
    await expect(watchedCount).toHaveText('1 / 4');
    // Rate the episode.
    await first.getByRole('radio', { name: '7 stars' }).click();
    await expect(first.getByRole('radio', { name: '7 stars' })).toHaveAttribute('aria-checked', 'true');

    // Excluding watched episodes drops it from the list and the URL says so.
    const toolbar = page.getByRole('toolbar', { name: 'Episode filters' });
    await toolbar.getByLabel('Watched').selectOption('false');
    await expect(page).toHaveURL(/includeWatched=false/);
    await expect(rows).toHaveCount(2);
    await toolbar.getByLabel('Watched').selectOption('true');
    await expect(rows).toHaveCount(3);

    // Hiding an episode drops it from the default list; Hidden = Only shows it, and Unhide brings it back.
    await rows
      .filter({ hasText: 'Letter Number 3' })
      .getByRole('button', { name: /^Hide:/ })
      .click();
    await expect(rows).toHaveCount(2);
    await toolbar.getByLabel('Hidden').selectOption('only');
    await expect(page).toHaveURL(/includeHidden=only/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Hidden');
    await rows
      .first()
      .getByRole('button', { name: /^Unhide:/ })
      .click();
    await expect(page.getByTestId('episodes-empty')).toBeVisible();
    await toolbar.getByLabel('Hidden').selectOption('false');
    await expect(rows).toHaveCount(3);

    // Specials, then a search with no match.
    await toolbar.getByLabel('Type').selectOption('Special');
    await expect(page).toHaveURL(/type=Special/);
    await expect(rows.first()).toContainText('Special 1');
    await toolbar.getByLabel('Search episodes').fill('nothing like this');
    await expect(page).toHaveURL(/search=nothing/);
    await expect(page.getByTestId('episodes-empty')).toBeVisible();
    await toolbar.getByLabel('Search episodes').fill('');
    await expect(page).not.toHaveURL(/search=/);
    await expect(rows.first()).toContainText('Special 1');

    // Watch Options: mark every filtered special watched.
    await toolbar.getByRole('button', { name: 'Watch Options' }).click();
    const watchOptions = page.getByRole('dialog', { name: 'Watch Options' });
    await expect(watchOptions.getByRole('button', { name: 'Mark Selected Watched' })).toBeDisabled();
    await snap(page, '102-series-watch-options');
    await watchOptions.getByRole('button', { name: 'Mark All Watched' }).click();
    await expect(watchOptions).toBeHidden();
    await expect(watchedCount).toHaveText('2 / 4');

    // On deck moved on to episode 2.
    await page.getByRole('navigation', { name: 'Series tabs' }).getByRole('link', { name: 'Overview' }).click();
    await expect(page.getByTestId('episode-on-deck')).toContainText('Episode 2');

    // Credits: characters with their voice actors, staff with a role filter.
    await page.getByRole('navigation', { name: 'Series tabs' }).getByRole('link', { name: 'Credits' }).click();
    const credits = page.getByTestId('credit-card');
    await expect(credits.filter({ hasText: 'Hayase Mio' })).toContainText('Minase Kaori');
    await snap(page, '103-series-credits');
    await page.getByRole('group', { name: 'Credit type' }).getByRole('button', { name: 'Staff' }).click();
    await expect(credits.filter({ hasText: 'Aomine Tsukasa' })).toBeVisible();
    await page.getByRole('toolbar', { name: 'Credit filters' }).getByLabel('Role').selectOption({ label: 'Music' });
    await expect(credits).toHaveCount(1);
    await expect(credits.first()).toContainText('Kuroda Hibiki');
    await page.getByRole('toolbar', { name: 'Credit filters' }).getByLabel('Search credits').fill('nobody at all');
    await expect(page.getByTestId('credits-empty')).toHaveText('No credits match the filters.');
    await page.getByRole('toolbar', { name: 'Credit filters' }).getByRole('button', { name: 'Force Refresh' }).click();
    await expect(page.getByText('AniDB refresh queued!')).toBeVisible();

    // Images: the tab opens on posters; select one and set it as preferred.
    await page.getByRole('navigation', { name: 'Series tabs' }).getByRole('link', { name: 'Images' }).click();
    await expect(page).toHaveURL(/\/images\/posters$/);
    const setPreferred = page.getByRole('button', { name: 'Set As Preferred' });
    await expect(setPreferred).toBeDisabled();
    const poster = page.getByRole('listbox', { name: 'Posters' }).getByRole('option').first();
    await poster.click();
    await expect(poster).toHaveAttribute('aria-selected', 'true');
    await expect(setPreferred).toBeEnabled();
    await setPreferred.click();
    await expect(poster).toContainText('Preferred');
    await expect(setPreferred).toBeDisabled();
    await snap(page, '104-series-images');
    // Reset To Default drops the preference again; the header keeps showing a poster either way.
    await page.getByRole('button', { name: 'Reset To Default' }).click();
    await expect(poster).not.toContainText('Preferred');
    await expect(page.getByRole('button', { name: 'Reset To Default' })).toHaveCount(0);
    await setPreferred.click();
    await expect(poster).toContainText('Preferred');
    await page
      .getByRole('navigation', { name: 'Image types' })
      .getByRole('link', { name: /Backdrops/ })
      .click();
    await expect(page).toHaveURL(/\/images\/backdrops$/);
    await expect(page.getByTestId('images-empty')).toHaveText('No backdrops found!');

    // Tags: AniDB tags without spoilers by default; a custom tag is created and lands on the series.
    await page.getByRole('navigation', { name: 'Series tabs' }).getByRole('link', { name: 'Tags' }).click();
    const tagCards = page.getByTestId('tag-card');
    await expect(tagCards.filter({ hasText: 'lighthouse' })).toBeVisible();
    await expect(tagCards.filter({ hasText: 'ghost protagonist' })).toHaveCount(0);
    await page.getByLabel('Show Spoilers').check();
    await expect(tagCards.filter({ hasText: 'ghost protagonist' })).toBeVisible();
    await tagCards.filter({ hasText: 'coming of age' }).click();
    await expect(page.getByTestId('tag-details')).toContainText('Tag Description Not Available.');
    await page.getByRole('dialog', { name: 'Tag Details' }).getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Edit Custom Tags', exact: true }).click();
    const custom = page.getByRole('dialog', { name: 'Custom Tags' });
    await custom.getByRole('button', { name: 'Create New Tag' }).click();
    await expect(custom.getByRole('button', { name: 'Create' })).toBeDisabled();
    await custom.getByLabel('Name').fill('Foggy Favourites');
    await custom.getByLabel('Description').fill('Comfort watching.');
    await custom.getByRole('button', { name: 'Create' }).click();
    await expect(custom.getByRole('button', { name: 'Remove Foggy Favourites' })).toBeVisible();
    await snap(page, '105-series-custom-tags');
    // Edit mode: Save needs a changed name or description; Cancel goes back to the list.
    await custom.getByRole('button', { name: 'Edit Foggy Favourites' }).click();
    await expect(custom.getByRole('button', { name: 'Save' })).toBeDisabled();
    await custom.getByLabel('Description').fill('Comfort watching on rainy days.');
    await expect(custom.getByRole('button', { name: 'Save' })).toBeEnabled();
    await custom.getByRole('button', { name: 'Save' }).click();
    await expect(custom.getByRole('button', { name: 'Create New Tag' })).toBeVisible();
    await custom.getByRole('button', { name: 'Close' }).click();
    await expect(tagCards.filter({ hasText: 'Foggy Favourites' })).toContainText('User');
    await expect(tagCards.filter({ hasText: 'Foggy Favourites' })).toContainText('Comfort watching on rainy days.');
    await page.getByLabel('Tag source').selectOption('User');
    await expect(tagCards).toHaveCount(1);
    await expect(page.getByRole('list', { name: 'Top tags' })).toContainText('Foggy Favourites');
    await snap(page, '106-series-tags');

    // Files: release groups, then the missing view.
    await page.getByRole('navigation', { name: 'Series tabs' }).getByRole('link', { name: 'Files' }).click();
    await expect(page.getByTestId('file-group').filter({ hasText: 'Lantern Subs' })).toBeVisible();
    await expect(page.getByTestId('files-overview')).toContainText('Lantern Subs');
    await snap(page, '107-series-files');
    await page
      .getByRole('group', { name: 'Files view' })
      .getByRole('button', { name: /Missing Files/ })
      .click();
    await expect(page.getByTestId('missing-empty')).toHaveText('You have no missing episodes or specials. Well done!');

    // The state survives a reload.
    await page.goto(`${seriesUrl}/episodes`);
    await expect(page.getByTestId('episode-row').first().getByTestId('episode-watched-state')).toHaveText(/^Watched /);
    await expect(page.getByTestId('series-watched-count')).toHaveText('2 / 4');

    // The season opens the collection under an In Season live filter.
    await page.getByTestId('series-information').getByRole('button', { name: 'Spring 2021' }).click();
    await expect(page).toHaveURL(/\/webui\/collection\/filter\/live$/);
    await expect(page.getByRole('list', { name: 'Conditions' })).toContainText('In Season: 2021 Spring');
    await expect(page.getByTestId('group-card').filter({ hasText: 'Kiri no Toudai Yuubinkyoku' })).toBeVisible();
    await expect(page.getByTestId('group-card').filter({ hasText: 'Sora-iro Sanpo' })).toHaveCount(0);

    // A phone-sized screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${seriesUrl}/overview`);
    await expect(page.getByTestId('series-title')).toBeVisible();
    await snap(page, '108-series-overview-390');
    await page.goto(`${seriesUrl}/episodes`);
    await expect(page.getByTestId('episode-row').first()).toBeVisible();
    await snap(page, '109-series-episodes-390');
  });

  test('a series with missing episodes links from its stats to the missing ones', async ({ page }) => {
    await page.goto(`${demo.baseUrl}/webui/login`);
    await loginThroughForm(page, { username: 'Default', password: '' });
    // A group of one series opens the series itself.
    await page.goto(`${demo.baseUrl}/webui/collection`);
    await page
      .getByTestId('group-card')
      .filter({ hasText: /Sora-iro Sanpo|Sky-Coloured Strolls/ })
      .click();
    await expect(page).toHaveURL(/\/webui\/collection\/series\/\d+\/overview$/);
    await expect(page.getByTestId('series-title')).toBeVisible();
    await page.getByTestId('series-user-stats').getByRole('link').click();
    await expect(page).toHaveURL(/\/episodes\?includeMissing=only$/);
    await expect(page.getByTestId('episode-row')).not.toHaveCount(0);
    await expect(page.getByTestId('episode-row').first()).toContainText('Missing');
    await page.getByRole('navigation', { name: 'Series tabs' }).getByRole('link', { name: 'Files' }).click();
    await page
      .getByRole('group', { name: 'Files view' })
      .getByRole('button', { name: /Missing Files/ })
      .click();
    await expect(page.getByRole('list', { name: 'Missing episodes' })).toContainText('Episode 3');
    await snap(page, '110-series-missing-files');

    // An unknown series id: 'Series Not Found' and back to the collection.
    await page.goto(`${demo.baseUrl}/webui/collection/series/999999`);
    await expect(page.getByText('Series Not Found')).toBeVisible();
    await expect(page).toHaveURL(/\/webui\/collection$/);
  });
});
