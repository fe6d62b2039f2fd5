import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { completeFirstRunViaApi, LOCAL_USER, repoRoot, startShoko, type ShokoServer } from '../support/server';
import type { DatabaseModule, SyntheticStoreModule } from '../support/server-modules';

/** One series with a group, written by the built server's own modules. */
async function seedSeries(home: string): Promise<{ seriesId: number; groupId: number }> {
  const dist = path.join(repoRoot, 'server', 'dist');
  const { openDatabase }: DatabaseModule = await import(path.join(dist, 'db', 'database.js'));
  const { insertSeries }: SyntheticStoreModule = await import(path.join(dist, 'domains', 'groups', 'synthetic.store.js'));
  const db = openDatabase({ home, databaseUrl: null });
  try {
    const written = await insertSeries(db.kysely, [
      {
        animeId: 1,
        title: 'Gentle Meadow',
        airDate: '2019-04-01',
        tags: [{ id: 3001, name: 'slice of life' }],
        episodes: [{ id: 11, file: true }],
      },
    ]);
    return written.get(1)!;
  } finally {
    await db.close();
  }
}

async function post(server: ShokoServer, key: string, pathname: string, body: unknown) {
  return fetch(server.url(pathname), {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: key },
    body: JSON.stringify(body),
  });
}

/** Issue 44: a family member's account sees no controls for changes the server keeps for admins. */
test.describe('a non-admin account in the console', () => {
  test.describe.configure({ mode: 'serial' });
  let server: ShokoServer;
  let seriesId: number;
  let groupId: number;
  let adminKey: string;

  test.beforeAll(async () => {
    server = await startShoko();
    await completeFirstRunViaApi(server);
    ({ seriesId, groupId } = await seedSeries(server.home));
    const login = await post(server, '', '/api/auth', { user: LOCAL_USER.username, pass: LOCAL_USER.password, device: 'e2e' });
    adminKey = ((await login.json()) as { apikey: string }).apikey;
    expect((await post(server, adminKey, '/api/v3/User', { Username: 'family', Password: 'family-pw', IsAdmin: false })).status).toBe(200);
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test('hides the admin controls: utilities, log, queue control, edits, settings; actions cannot run', async ({ page }) => {
    await page.goto(server.url('/webui/login'));
    await loginThroughForm(page, { username: 'family', password: 'family-pw' });
    await page.goto(server.url('/webui/dashboard'));
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Collection' })).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Utilities' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Log' })).toHaveCount(0);
    const queue = page.getByTestId('widget-queue');
    await expect(queue).toBeVisible();
    await expect(queue.getByRole('button', { name: 'Pause' })).toHaveCount(0);
    await expect(queue.getByRole('button', { name: 'Clear' })).toHaveCount(0);
    await expect(queue.getByText('What the queue is working on is shown to administrators.')).toBeVisible();
    await snap(page, '440-non-admin-dashboard');

    await nav.getByRole('button', { name: 'Actions' }).click();
    const actions = page.getByRole('dialog', { name: 'Actions' });
    await expect(actions.getByRole('button', { name: 'Run Run Import' })).toBeDisabled();
    await expect(actions.getByText('Only administrators can run this action.').first()).toBeVisible();
    await snap(page, '441-non-admin-actions');
    await actions.getByRole('button', { name: 'Close' }).click();

    await page.goto(server.url(`/webui/collection/series/${seriesId}/overview`));
    await expect(page.getByText('Gentle Meadow').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit custom tags' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Link TMDB' })).toHaveCount(0);
    await snap(page, '442-non-admin-series');
    await page.goto(server.url(`/webui/collection/series/${seriesId}/credits`));
    await expect(page.getByRole('button', { name: /Force Refresh/ })).toHaveCount(0);
    await page.goto(server.url(`/webui/collection/series/${seriesId}/tags`));
    await expect(page.getByRole('button', { name: /Edit Custom Tags/ })).toHaveCount(0);
    await page.goto(server.url(`/webui/collection/series/${seriesId}/images/posters`));
    await expect(page.getByRole('button', { name: 'Set As Preferred' })).toHaveCount(0);
    await page.goto(server.url(`/webui/collection/group/${groupId}`));
    await expect(page.getByTestId('group-title')).toHaveText('Gentle Meadow');
    await expect(page.getByRole('button', { name: /Edit Group/ })).toHaveCount(0);

    await page.goto(server.url('/webui/settings/import'));
    await expect(page.getByTestId('settings-admin-only')).toBeVisible();
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    await expect(sections.getByRole('link')).toHaveText(['General', 'API Keys']);
    await snap(page, '443-non-admin-settings');
    await page.getByRole('link', { name: 'Manage your API keys' }).click();
    await expect(page).toHaveURL(/\/settings\/api-keys$/);
    await expect(page.getByTestId('settings-admin-only')).toHaveCount(0);
    await snap(page, '444-non-admin-api-keys');
  });

  test('keeps its own collection view and dashboard widgets across visits, apart from the server settings', async ({ page }) => {
    await page.goto(server.url('/webui/login'));
    await loginThroughForm(page, { username: 'family', password: 'family-pw' });
    await page.goto(server.url('/webui/collection'));
    await expect(page.getByText('Gentle Meadow').first()).toBeVisible();
    const saved = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().endsWith('/api/v3/User/Current/WebUISettings'),
    );
    await page.getByRole('button', { name: 'Switch to list view' }).click();
    expect((await saved).status()).toBe(200);

    await page.reload();
    await expect(page.getByTestId('group-row').filter({ hasText: 'Gentle Meadow' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Switch to poster view' })).toBeVisible();
    await snap(page, '445-non-admin-own-list-view');

    await page.goto(server.url('/webui/dashboard'));
    const mediaType = page.getByRole('region', { name: 'Media Type', exact: true });
    await expect(mediaType).toBeVisible();
    // The import folders are shown without the admin's controls.
    await expect(page.getByRole('list', { name: 'Import folders' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Import Folder' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Dashboard Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dashboard Settings' });
    await dialog.getByRole('switch', { name: 'Show Media Type' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(page.getByTestId('widget-queue')).toBeVisible();
    await expect(mediaType).toHaveCount(0);
    await snap(page, '446-non-admin-own-dashboard');

    // Its own General page: theme and notifications, saved to its own settings; the server's logs and updates are not its.
    await page.goto(server.url('/webui/settings/general'));
    await expect(page.getByRole('combobox', { name: 'Theme' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upload Theme' })).toHaveCount(0);
    await expect(page.getByText('Log Options')).toHaveCount(0);
    await page.getByRole('combobox', { name: 'Position' }).selectOption('top-right');
    const savedGeneral = page.waitForResponse(
      (response) => response.request().method() === 'PUT' && response.url().endsWith('/api/v3/User/Current/WebUISettings'),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await savedGeneral).status()).toBe(200);
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Position' })).toHaveValue('top-right');
    await snap(page, '447-non-admin-own-general');

    const serverSettings = await fetch(server.url('/api/v3/Settings'), { headers: { apikey: adminKey } });
    const webui = ((await serverSettings.json()) as { WebUI_Settings: string }).WebUI_Settings;
    expect(webui.includes('"view":"list"')).toBe(false);
    expect(webui.includes('"hideMediaType":true')).toBe(false);
    expect(webui.includes('"toastPosition":"top-right"')).toBe(false);
  });
});
