import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { completeFirstRunViaApi, LOCAL_USER, repoRoot, startShoko, type ShokoServer } from '../support/server';
import type { DatabaseModule, SyntheticCollectionModule, SyntheticStoreModule } from '../support/server-modules';

/** The built server's own modules write the seed straight into its database (the server runs meanwhile; SQLite WAL). */
async function seedCollection(home: string) {
  const dist = path.join(repoRoot, 'server', 'dist');
  const { openDatabase }: DatabaseModule = await import(path.join(dist, 'db', 'database.js'));
  const { generateCollection }: SyntheticCollectionModule = await import(path.join(dist, 'domains', 'groups', 'synthetic.js'));
  const { insertSeries }: SyntheticStoreModule = await import(path.join(dist, 'domains', 'groups', 'synthetic.store.js'));
  const db = openDatabase({ home, databaseUrl: null });
  try {
    // Enough synthetic groups for more than one page of 50, then invented series with known names.
    await generateCollection(db.kysely, { series: 70, files: 700, seed: 7, userIds: [1] });
    const named = await insertSeries(db.kysely, [
      {
        animeId: 1,
        title: 'Aaron Academy',
        airDate: '2020-01-05',
        endDate: '2020-03-29',
        tags: [
          { id: 1000, name: 'action' },
          { id: 2001, name: 'school' },
        ],
        episodes: [
          { id: 11, file: true, watchedBy: [1] },
          { id: 12, file: true },
          { id: 13, file: true },
        ],
        groupName: 'Aaron Academy Saga',
      },
      {
        animeId: 3,
        title: 'Aardvark Chronicle',
        type: 'Movie',
        airDate: '2015-07-10',
        endDate: '2015-07-10',
        tags: [{ id: 1002, name: 'drama' }],
        episodes: [{ id: 31, file: true }],
      },
    ]);
    const groupId = named.get(1)!.groupId;
    await insertSeries(db.kysely, [
      {
        animeId: 2,
        title: 'Aaron Academy II',
        airDate: '2022-04-02',
        endDate: '2022-06-25',
        tags: [{ id: 1000, name: 'action' }],
        episodes: [{ id: 21, file: true }, { id: 22 }],
        groupId,
      },
    ]);
    return { groupId };
  } finally {
    await db.close();
  }
}

async function apiKey(server: ShokoServer): Promise<string> {
  const res = await fetch(server.url('/api/auth'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: LOCAL_USER.username, pass: LOCAL_USER.password, device: 'e2e' }),
  });
  return ((await res.json()) as { apikey: string }).apikey;
}

const cards = (page: Page) => page.getByTestId('group-card');

test.describe('collection browsing', () => {
  let server: ShokoServer;
  let groupId: number;
  let presetId: number;

  test.beforeAll(async () => {
    server = await startShoko();
    await completeFirstRunViaApi(server);
    ({ groupId } = await seedCollection(server.home));
    const key = await apiKey(server);
    // A finished first run has AniDB credentials; without them saving any setting (the view mode) fails validation.
    const settings = await fetch(server.url('/api/v3/Settings?skipValidation=true'), {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', apikey: key },
      body: JSON.stringify([
        { op: 'replace', path: '/AniDb/Username', value: 'Default' },
        { op: 'replace', path: '/AniDb/Password', value: 'secret' },
      ]),
    });
    expect(settings.ok).toBe(true);
    const preset = await fetch(server.url('/api/v3/Filter'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', apikey: key },
      body: JSON.stringify({
        Name: 'Action Shows',
        ApplyAtSeriesLevel: true,
        Expression: { Type: 'HasTag', Parameter: 'action' },
        Sorting: { Type: 'Name', IsInverted: false },
      }),
    });
    expect(preset.ok).toBe(true);
    presetId = ((await preset.json()) as { IDs: { ID: number } }).IDs.ID;
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test('browse, search, presets, live filter, poster/list and group rename', async ({ page }) => {
    test.setTimeout(180_000);
    await page.goto(server.url('/webui/login'));
    await loginThroughForm(page);
    await page.goto(server.url('/webui/collection'));

    // Browse: the first page of 50 groups, sorted by name (the invented "Aa…" names come first).
    await expect(page.getByRole('heading', { name: 'Entire Collection' })).toBeVisible();
    await expect(cards(page).nth(0)).toContainText('Aardvark Chronicle');
    await expect(cards(page).nth(1)).toContainText('Aaron Academy Saga');
    const total = page.getByTestId('collection-total');
    await expect(total).toHaveText(/\d+ Items/);
    const count = Number((await total.textContent())!.replace(/\D/g, ''));
    expect(count).toBeGreaterThan(50);
    await expect(cards(page).nth(1)).toContainText('4 Episodes');
    // Unwatched = local episodes − watched (one of four is watched).
    await expect(cards(page).nth(1).getByTitle('Unwatched episodes')).toHaveText('3');
    await snap(page, '50-collection-posters');

    // Search: zero results, then a match; clearing restores everything.
    const search = page.getByLabel('Search collection');
    await search.fill('  zzzqqq  ');
    await expect(page.getByTestId('collection-empty')).toHaveText('Your search for zzzqqq returned zero results.');
    await snap(page, '51-collection-search-empty');
    await search.fill('aardvark');
    await expect(total).toHaveText('1 Item');
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText('Aardvark Chronicle');
    await search.fill('');
    await expect(total).toHaveText(`${count} Items`);

    // Open a preset from the Filter Presets modal.
    await page.getByRole('button', { name: 'Filter presets' }).click();
    const presets = page.getByRole('dialog', { name: 'Filter Presets' });
    await expect(presets.getByRole('tab', { name: 'Filters' })).toHaveAttribute('aria-selected', 'true');
    await presets.getByRole('button', { name: /^Action Shows \d+$/ }).click();
    await expect(page).toHaveURL(new RegExp(`/webui/collection/filter/${presetId}$`));
    await expect(page.getByRole('heading', { name: 'Action Shows' })).toBeVisible();
    await expect(cards(page).first()).toContainText('Aaron Academy Saga');
    await expect(page.getByText('Aardvark Chronicle')).toHaveCount(0);
    await snap(page, '52-collection-preset');

    // Live filter: the filter toggle goes to filter/live; Add needs a criterion.
    await page.goto(server.url('/webui/collection'));
    await page.getByRole('button', { name: 'Toggle filter' }).click();
    await expect(page).toHaveURL(/\/webui\/collection\/filter\/live$/);
    await expect(page.getByRole('complementary', { name: 'Filter sidebar' })).toBeVisible();
    await page.getByRole('button', { name: 'Add Condition' }).click();
    const add = page.getByRole('dialog', { name: 'Add Condition' });
    await expect(add.getByRole('button', { name: 'Add', exact: true })).toBeDisabled();
    await add.getByLabel('Criterion').selectOption({ label: 'Has Tag' });
    await expect(add.getByRole('button', { name: 'Add', exact: true })).toBeDisabled();
    await add.getByLabel('Search values').fill('dra');
    await add.getByLabel('drama', { exact: true }).check();
    await snap(page, '53-collection-add-condition');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Conditions' })).toContainText('Has Tag: drama');
    // The unfiltered page stays on screen until the filtered one arrives: wait for a total other than the unfiltered one
    // (and not the '…' shown while nothing is loaded).
    await expect(total).toHaveText(new RegExp(`^(?!${count} )[\\d,]+ Items?$`));
    await expect(cards(page).first()).toBeVisible();
    const filtered = Number((await total.textContent())!.replace(/\D/g, ''));
    expect(filtered).toBeGreaterThan(0);
    expect(filtered).toBeLessThan(count);
    await expect(page.getByText('Aaron Academy Saga')).toHaveCount(0);

    // Poster/list toggle: list rows show type and top tags; the choice is saved to the settings.
    await page.getByRole('button', { name: 'Close filter' }).click();
    await expect(page).toHaveURL(/\/webui\/collection$/);
    await page.getByRole('button', { name: 'Switch to list view' }).click();
    const firstRow = page.getByTestId('group-row').nth(1);
    await expect(firstRow).toContainText('Aaron Academy Saga');
    await expect(firstRow).toContainText('TV Series');
    await expect(firstRow.getByLabel('Tags')).toContainText('action');
    await snap(page, '54-collection-list');
    await page.reload();
    await expect(page.getByTestId('group-row').first()).toBeVisible();
    await page.getByRole('button', { name: 'Switch to poster view' }).click();
    await expect(cards(page).first()).toBeVisible();

    // Group page with its timeline; Edit Group renames, and a cancelled rename restores the name.
    await cards(page).nth(1).click();
    await expect(page).toHaveURL(new RegExp(`/webui/collection/group/${groupId}$`));
    await expect(page.getByTestId('group-title')).toHaveText('Aaron Academy Saga');
    await expect(page.getByTestId('series-card')).toHaveCount(2);
    const timeline = page.getByRole('complementary', { name: 'Timeline' });
    await expect(timeline.getByRole('link')).toHaveText(['Aaron Academy', 'Aaron Academy II']);
    await page.getByRole('button', { name: 'Edit Group' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Group' });
    await expect(edit.getByTestId('group-name-value')).toHaveText('Aaron Academy Saga');
    await edit.getByRole('button', { name: 'Edit name' }).click();
    await edit.getByLabel('Group name').fill('Something Else');
    await edit.getByRole('button', { name: 'Cancel rename' }).click();
    await expect(edit.getByTestId('group-name-value')).toHaveText('Aaron Academy Saga');
    await edit.getByRole('button', { name: 'Edit name' }).click();
    await edit.getByLabel('Group name').fill('Aaron Academy Collection');
    await snap(page, '55-edit-group-rename');
    await edit.getByRole('button', { name: 'Confirm name' }).click();
    await expect(edit.getByTestId('group-name-value')).toHaveText('Aaron Academy Collection');
    await edit.getByRole('tab', { name: 'Series' }).click();
    await expect(edit.getByRole('list', { name: 'Group series' }).getByRole('listitem')).toHaveCount(2);
    await edit.getByRole('button', { name: 'Set Aaron Academy II as main series' }).click();
    await expect(edit.getByRole('button', { name: 'Aaron Academy II is the main series' })).toBeVisible();
    // File Actions asks the server to rename/move the files of every series of the group.
    await edit.getByRole('tab', { name: 'File Actions' }).click();
    await edit.getByRole('button', { name: 'Rename/Move Files' }).click();
    await expect(edit.getByText('Files have been queued for renaming and moving.')).toBeVisible();
    await snap(page, '59-edit-group-file-actions');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('group-title')).toHaveText('Aaron Academy Collection');

    // The group page search (qs) narrows its series.
    await page.getByLabel('Search series').fill('II');
    await expect(page.getByTestId('series-card')).toHaveCount(1);
    await expect(page).toHaveURL(/qs=II/);
    await snap(page, '56-collection-group');
  });

  test('the collection fits a 390 px wide screen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(server.url('/webui/login'));
    await loginThroughForm(page);
    await page.goto(server.url('/webui/collection'));
    await expect(cards(page).first()).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await snap(page, '57-collection-mobile');
    await page.goto(server.url(`/webui/collection/group/${groupId}`));
    await expect(page.getByTestId('series-card').first()).toBeVisible();
    await snap(page, '58-group-mobile');
  });
});
