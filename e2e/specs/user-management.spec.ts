import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { completeFirstRunViaApi, LOCAL_USER, repoRoot, startShoko, type ShokoServer } from '../support/server';
import type { DatabaseModule, SyntheticStoreModule } from '../support/server-modules';

/** Two series, one of them carrying the tag the new user will be restricted from (written by the built server's own modules). */
async function seedTaggedSeries(home: string) {
  const dist = path.join(repoRoot, 'server', 'dist');
  const { openDatabase }: DatabaseModule = await import(path.join(dist, 'db', 'database.js'));
  const { insertSeries }: SyntheticStoreModule = await import(path.join(dist, 'domains', 'groups', 'synthetic.store.js'));
  const db = openDatabase({ home, databaseUrl: null });
  try {
    await insertSeries(db.kysely, [
      {
        animeId: 1,
        title: 'Gentle Meadow',
        airDate: '2019-04-01',
        endDate: '2019-06-30',
        tags: [{ id: 3001, name: 'slice of life' }],
        episodes: [{ id: 11, file: true }],
      },
      {
        animeId: 2,
        title: 'Grim Harvest',
        airDate: '2021-01-05',
        endDate: '2021-03-30',
        tags: [{ id: 3002, name: 'gore' }],
        episodes: [{ id: 21, file: true }],
      },
    ]);
  } finally {
    await db.close();
  }
}

async function login(server: ShokoServer, user: string, pass: string) {
  return fetch(server.url('/api/auth'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user, pass, device: 'e2e-check' }),
  });
}

async function apiKey(server: ShokoServer, user = LOCAL_USER.username, pass = LOCAL_USER.password): Promise<string> {
  const res = await login(server, user, pass);
  expect(res.status).toBe(200);
  return ((await res.json()) as { apikey: string }).apikey;
}

async function getJson<T>(server: ShokoServer, key: string, pathname: string): Promise<T> {
  const res = await fetch(server.url(pathname), { headers: { apikey: key } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

interface UserDto {
  ID: number;
  Username: string;
  IsAdmin: boolean;
  CommunitySites: string[];
  RestrictedTags: number[];
  Avatar: string;
}

/** A PNG drawn by the browser, wider than the 512 px the server accepts, so the crop editor has to shrink it. */
async function drawPng(page: Page, width: number, height: number): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ([w, h]) => {
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#2a6fdb';
      context.fillRect(0, 0, w, h);
      context.fillStyle = '#f5c542';
      context.beginPath();
      context.arc(w / 2, h / 2, Math.min(w, h) / 3, 0, Math.PI * 2);
      context.fill();
      return canvas.toDataURL('image/png');
    },
    [width, height] as const,
  );
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

test.describe('Settings › User Management and Collection', () => {
  test.describe.configure({ mode: 'serial' });
  let server: ShokoServer;
  let adminKey: string;

  test.beforeAll(async () => {
    server = await startShoko();
    await completeFirstRunViaApi(server);
    await seedTaggedSeries(server.home);
    adminKey = await apiKey(server);
    // A finished first run has AniDB credentials; settings pages keep Save disabled without a username.
    const settings = await fetch(server.url('/api/v3/Settings?skipValidation=true'), {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', apikey: adminKey },
      body: JSON.stringify([
        { op: 'replace', path: '/AniDb/Username', value: 'Default' },
        { op: 'replace', path: '/AniDb/Password', value: 'secret' },
      ]),
    });
    expect(settings.ok).toBe(true);
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test('create, rename, promote, restrict, change password, avatar, delete', async ({ page, browser }) => {
    test.setTimeout(180_000);
    await page.goto(server.url('/webui/login'));
    await loginThroughForm(page);
    await page.goto(server.url('/webui/settings/user-management'));
    const users = page.getByRole('list', { name: 'Users' });
    await expect(users.getByText(LOCAL_USER.username)).toBeVisible();
    await expect(page.getByRole('heading', { name: `User Options — ${LOCAL_USER.username}` })).toBeVisible();
    // The only admin cannot lose the flag, and deleting oneself is refused with the notice.
    await expect(page.getByRole('switch', { name: 'Administrator' })).toBeDisabled();
    await users.getByRole('button', { name: `Delete ${LOCAL_USER.username}` }).click();
    await expect(page.getByText('Woah there buddy!')).toBeVisible();
    await expect(
      page.getByText("You just tried to delete yourself from the matrix. That's not the way to go about doing it."),
    ).toBeVisible();
    await snap(page, '140-user-management-self-delete');

    // Create a user.
    await page.getByRole('button', { name: 'Add User' }).click();
    const add = page.getByRole('dialog', { name: 'Add User' });
    await expect(add.getByRole('button', { name: 'Create' })).toBeDisabled();
    await add.getByLabel('Username').fill(LOCAL_USER.username);
    await add.getByLabel('Password').fill('first-pw');
    await add.getByRole('button', { name: 'Create' }).click();
    await expect(add.getByText('The username is unavailable.')).toBeVisible();
    await add.getByLabel('Username').fill('viewer');
    await add.getByRole('button', { name: 'Create' }).click();
    await expect(add).toHaveCount(0);
    await expect(users.getByText('viewer')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'User Options — viewer' })).toBeVisible();

    // Rename and promote; the unsaved notice shows until saved.
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await expect(save).toBeDisabled();
    await page.getByLabel('Display Name').fill('watcher');
    await expect(page.getByText('Unsaved Changes')).toBeVisible();
    await expect(page.getByText('Please save before leaving this page.')).toBeVisible();
    await page.getByRole('switch', { name: 'Administrator' }).click();
    await page.getByRole('switch', { name: 'AniDB User' }).click();
    await save.click();
    await expect(page.getByText('User saved!')).toBeVisible();
    await expect(page.getByText('Unsaved Changes')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'User Options — watcher' })).toBeVisible();
    let all = await getJson<UserDto[]>(server, adminKey, '/api/v3/User');
    const watcher = all.find((u) => u.Username === 'watcher')!;
    expect(watcher).toMatchObject({ IsAdmin: true, CommunitySites: ['AniDB'] });
    // With a second admin, the first one's flag may change again.
    await users.getByRole('button', { name: `Edit ${LOCAL_USER.username}` }).click();
    await expect(page.getByRole('switch', { name: 'Administrator' })).toBeEnabled();
    await users.getByRole('button', { name: 'Edit watcher' }).click();

    // Demote again and restrict from the 'gore' tag.
    await page.getByRole('switch', { name: 'Administrator' }).click();
    await expect(page.getByText('No Restricted Tags!')).toBeVisible();
    await page.getByLabel('Search Tags').fill('gor');
    await page.getByRole('button', { name: 'Restrict gore' }).click();
    await expect(page.getByRole('list', { name: 'Restricted tags' }).getByText('gore')).toBeVisible();
    await expect(page.getByText('No Restricted Tags!')).toHaveCount(0);
    await snap(page, '141-user-management-edit');
    await save.click();
    await expect(page.getByText('User saved!').first()).toBeVisible();
    all = await getJson<UserDto[]>(server, adminKey, '/api/v3/User');
    expect(all.find((u) => u.ID === watcher.ID)).toMatchObject({ Username: 'watcher', IsAdmin: false, RestrictedTags: [3002] });

    // Change the password; the field shows its own notice until Change is pressed.
    const change = page.getByRole('button', { name: 'Change', exact: true });
    await expect(change).toBeDisabled();
    await page.getByLabel('New Password').fill('second-pw');
    await expect(page.getByText('Password field changed!')).toBeVisible();
    await expect(page.getByText('Click on the "Change" button to save your new password')).toBeVisible();
    await change.click();
    await expect(page.getByText('Password changed!')).toBeVisible();
    await expect(page.getByText('Password field changed!')).toHaveCount(0);
    expect((await login(server, 'watcher', 'first-pw')).status).toBe(401);

    // Avatar: an unreadable file closes the editor; a real picture is cropped to a WebP of at most 512 px.
    const avatarInput = page.getByLabel('Avatar file');
    await avatarInput.setInputFiles({ name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
    await expect(page.getByText('Image load failed!')).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Edit Avatar' })).toHaveCount(0);
    await avatarInput.setInputFiles({ name: 'wide.png', mimeType: 'image/png', buffer: await drawPng(page, 1600, 1200) });
    const editor = page.getByRole('dialog', { name: 'Edit Avatar' });
    await expect(editor.getByRole('button', { name: 'Save' })).toBeEnabled();
    const zoom = editor.getByRole('slider', { name: 'Zoom' });
    await expect(zoom).toHaveAttribute('min', '0.01');
    await expect(zoom).toHaveAttribute('max', '2');
    await expect(zoom).toHaveValue('0.21');
    await snap(page, '142-user-management-avatar-editor');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(editor).toHaveCount(0);
    await save.click();
    await expect(users.getByRole('img', { name: "watcher's avatar" })).toBeVisible();
    const withAvatar = await getJson<UserDto>(server, adminKey, `/api/v3/User/${watcher.ID}`);
    expect(withAvatar.Avatar).toMatch(/^data:image\/webp;base64,/);
    const side = await page.evaluate(async (src) => {
      const image = new Image();
      image.src = src;
      await image.decode();
      return [image.naturalWidth, image.naturalHeight];
    }, withAvatar.Avatar);
    expect(side[0]).toBe(side[1]);
    expect(side[0]).toBeLessThanOrEqual(512);
    expect(side[0]).toBeGreaterThan(256);
    await snap(page, '143-user-management');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, '144-user-management-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    // The restricted user logs in with the new password and does not see the series with the tag.
    const other = await browser.newPage();
    await other.goto(server.url('/webui/login'));
    await loginThroughForm(other, { username: 'watcher', password: 'second-pw' });
    await other.goto(server.url('/webui/collection'));
    const cards = other.getByTestId('group-card');
    await expect(cards.filter({ hasText: 'Gentle Meadow' })).toBeVisible();
    await expect(cards).toHaveCount(1);
    await expect(other.getByText('Grim Harvest')).toHaveCount(0);
    await snap(other, '145-restricted-user-collection');
    // The admin still sees both.
    const adminView = await getJson<{ Total: number }>(server, adminKey, '/api/v3/Group?pageSize=10');
    expect(adminView.Total).toBe(2);
    await other.close();

    // Remove the avatar, then delete the user: their key stops working.
    await page.getByRole('button', { name: 'Remove Avatar' }).click();
    await save.click();
    await expect(users.getByRole('img', { name: "watcher's avatar" })).toHaveCount(0);
    expect((await getJson<UserDto>(server, adminKey, `/api/v3/User/${watcher.ID}`)).Avatar).toBe('');
    const watcherKey = await apiKey(server, 'watcher', 'second-pw');
    await users.getByRole('button', { name: 'Delete watcher' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete User' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(users.getByText('watcher')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: `User Options — ${LOCAL_USER.username}` })).toBeVisible();
    expect((await fetch(server.url('/api/v3/User/Current'), { headers: { apikey: watcherKey } })).status).toBe(401);
  });
  test('Collection settings: the options persist after reload and the default view applies to the collection', async ({ page }) => {
    await page.goto(server.url('/webui/settings/collection'));
    await loginThroughForm(page);
    await expect(page).toHaveURL(server.url('/webui/settings/collection'));
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await expect(save).toBeDisabled();
    await expect(page.getByLabel('Default View')).toHaveValue('poster');
    const topTags = page.getByRole('switch', { name: 'Show Top Tags' });
    await expect(topTags).toBeChecked();

    await page.getByLabel('Default View').selectOption({ label: 'List' });
    await topTags.click();
    await page.getByRole('switch', { name: 'Show Random Backdrop' }).click();
    await expect(page.getByText('Unsaved Changes')).toBeVisible();
    await snap(page, '150-settings-collection-unsaved');
    await save.click();
    await expect(page.getByText('Settings saved!')).toBeVisible();
    await expect(page.getByText('Unsaved Changes')).toHaveCount(0);
    await expect(save).toBeDisabled();

    await page.reload();
    await expect(page.getByLabel('Default View')).toHaveValue('list');
    await expect(page.getByRole('switch', { name: 'Show Top Tags' })).not.toBeChecked();
    await expect(page.getByRole('switch', { name: 'Show Random Backdrop' })).toBeChecked();
    await expect(page.getByRole('switch', { name: 'Show Item Type' })).toBeChecked();
    await snap(page, '151-settings-collection');
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, '152-settings-collection-390');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Stored inside WebUI_Settings without losing the console's other settings.
    const stored = await getJson<{ WebUI_Settings: string }>(server, adminKey, '/api/v3/Settings');
    const webui = JSON.parse(stored.WebUI_Settings) as {
      theme: string;
      collection: { view: string; list: { showTopTags: boolean; showItemType: boolean } };
    };
    expect(webui.theme).toBe('theme-shoko-gray');
    expect(webui.collection.view).toBe('list');
    expect(webui.collection.list).toMatchObject({ showTopTags: false, showItemType: true });

    // The collection opens in list view, with item types but without top tags.
    await page.goto(server.url('/webui/collection'));
    const row = page.getByTestId('group-row').filter({ hasText: 'Gentle Meadow' });
    await expect(row).toBeVisible();
    await expect(row).toContainText('TV Series');
    await expect(row.getByLabel('Tags')).toHaveCount(0);
  });

  test("changing one's own password with revoke logs out after the notice; the new password works", async ({ page }) => {
    await page.goto(server.url('/webui/settings/user-management'));
    await loginThroughForm(page);
    await expect(page.getByRole('heading', { name: `User Options — ${LOCAL_USER.username}` })).toBeVisible();
    await page.getByLabel('New Password').fill('rotated-pw');
    await page.getByRole('button', { name: 'Change', exact: true }).click();
    await expect(page.getByText('Password changed! You will be logged out in a few seconds.')).toBeVisible();
    // The notice comes first; the page stays until the delayed logout.
    await expect(page).toHaveURL(server.url('/webui/settings/user-management'));
    await expect(page).toHaveURL(/\/webui\/login/, { timeout: 15_000 });
    expect((await login(server, LOCAL_USER.username, LOCAL_USER.password)).status).toBe(401);
    await loginThroughForm(page, { username: LOCAL_USER.username, password: 'rotated-pw' });
    await expect(page).toHaveURL(server.url('/webui/settings/user-management'));
  });
});
