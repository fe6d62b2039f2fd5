import { expect, test, type Page } from '@playwright/test';
import { startFakePlex, type FakePlex } from '../../fakes/src/plex';
import { startFakeTrakt, type FakeTrakt } from '../../fakes/src/trakt';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { completeFirstRunViaApi, LOCAL_USER, startShoko, type ShokoServer } from '../support/server';

let server: ShokoServer;
let trakt: FakeTrakt;
let plex: FakePlex;
let apiKey: string;

const TRAKT_APP = { id: 'e2e-trakt-client', secret: 'e2e-trakt-secret' };

async function settings() {
  const response = await fetch(server.url('/api/v3/Settings'), { headers: { apikey: apiKey } });
  return (await response.json()) as { TraktTv: Record<string, unknown>; Plex: { Server: string; Libraries: number[] } };
}

test.beforeAll(async () => {
  // Trakt's 5 s poll interval scaled down; the server learns the fakes' addresses from its environment.
  trakt = await startFakeTrakt({ clientId: TRAKT_APP.id, clientSecret: TRAKT_APP.secret, interval: 0.2 });
  plex = await startFakePlex();
  const overrides: Record<string, string> = {
    SHOKO_TRAKT_URL: trakt.url,
    SHOKO_TRAKT_CLIENT_ID: TRAKT_APP.id,
    SHOKO_TRAKT_CLIENT_SECRET: TRAKT_APP.secret,
    SHOKO_PLEXTV_URL: plex.url,
    SHOKO_PLEX_APP_URL: plex.url,
  };
  const previous = Object.fromEntries(Object.keys(overrides).map((name) => [name, process.env[name]]));
  Object.assign(process.env, overrides);
  try {
    server = await startShoko();
  } finally {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  await completeFirstRunViaApi(server);
  const login = await fetch(server.url('/api/auth'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: LOCAL_USER.username, pass: LOCAL_USER.password, device: 'e2e-setup' }),
  });
  apiKey = ((await login.json()) as { apikey: string }).apikey;
  // Settings pages save only with an AniDB account set.
  const patched = await fetch(server.url('/api/v3/Settings'), {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', apikey: apiKey },
    body: JSON.stringify([
      { op: 'replace', path: '/AniDb/Username', value: 'tester' },
      { op: 'replace', path: '/AniDb/Password', value: 'secret' },
    ]),
  });
  expect(patched.status).toBe(200);
});

test.afterAll(async () => {
  await server?.stop();
  await trakt?.close();
  await plex?.close();
});

test.describe.configure({ mode: 'serial' });

async function openIntegrations(page: Page) {
  await page.goto(server.url('/webui/settings/integrations'));
  await expect(page).toHaveURL(/\/webui\/login/);
  await loginThroughForm(page);
  await expect(page).toHaveURL(server.url('/webui/settings/integrations'));
  // The server here has no internet: the realtime hub's first state brings the banner, which pushes the page down. A
  // click aimed before it arrives lands beside its button, so wait for it first.
  await expect(page.getByTestId('no-internet')).toBeVisible();
}

test('Trakt: Get Code, activation on trakt, linked options saved, Unlink', async ({ page }) => {
  await openIntegrations(page);
  await expect(page.getByRole('heading', { name: 'Trakt Options' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Plex Options' })).toBeVisible();
  await snap(page, '192-integrations-unlinked');

  // Hold the code request a moment so the busy label can be seen.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/trakt/code', async (route) => {
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Get Code' }).click();
  await expect(page.getByRole('button', { name: 'Requesting...' })).toBeDisabled();
  release();

  await expect(page.getByRole('button', { name: /^Trakt Code:/ })).toBeVisible();
  expect(trakt.devices).toHaveLength(1);
  const { userCode } = trakt.devices[0];
  await expect(page.getByRole('button', { name: `Trakt Code: ${userCode}` })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Click here to activate' })).toHaveAttribute('href', `${trakt.url}/activate`);
  await expect(page.getByText(/You have approximately 10 minutes/)).toBeVisible();
  await snap(page, '193-trakt-code');

  // The user enters the code on trakt.tv; the server's background poll stores the token and the page notices.
  trakt.approve(userCode);
  await expect(page.getByText('Token valid until')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Get Code' })).toHaveCount(0);
  const issued = trakt.tokens[0];
  expect((await settings()).TraktTv).toMatchObject({ TokenExpirationDate: String(issued.createdAt + issued.expiresIn), AuthToken: '' });

  // The draft follows the settings the token arrived in: nothing is left unsaved.
  await expect(page.getByText('Unsaved Changes')).toHaveCount(0);
  // Linked but not enabled: nothing can be synced yet.
  await expect(page.getByRole('button', { name: 'Sync Now' })).toBeDisabled();
  await page.getByRole('switch', { name: 'Enabled' }).click();
  await page.getByLabel('Sync Frequency').selectOption({ label: 'Once a Week' });
  await page.getByRole('switch', { name: 'Auto Link' }).click();
  await page.getByLabel('Update Frequency').selectOption({ label: 'Once a Month' });
  await expect(page.getByText('Unsaved Changes')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved!')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Sync Frequency')).toHaveValue('5');
  await expect(page.getByLabel('Update Frequency')).toHaveValue('6');
  await expect(page.getByRole('switch', { name: 'Enabled' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Auto Link' })).toBeChecked();
  await snap(page, '194-trakt-linked');

  // Sync Now: the server asks Trakt for the account's watched shows and movies with the linked token.
  await page.getByRole('button', { name: 'Sync Now' }).click();
  await expect(page.getByText('Trakt sync queued.')).toBeVisible();
  await expect.poll(() => trakt.requests.filter((r) => r === 'GET /sync/watched/shows').length).toBeGreaterThanOrEqual(1);
  await expect.poll(() => trakt.requests.filter((r) => r === 'GET /sync/watched/movies').length).toBeGreaterThanOrEqual(1);
  expect(trakt.violations).toEqual([]);

  await page.getByRole('button', { name: 'Unlink' }).first().click();
  await expect(page.getByRole('button', { name: 'Get Code' })).toBeVisible();
  expect((await settings()).TraktTv).toMatchObject({
    Enabled: false,
    TokenExpirationDate: '',
    SyncFrequency: 1,
    AutoLink: false,
    UpdateFrequency: 4,
  });
  await page.reload();
  await expect(page.getByRole('button', { name: 'Get Code' })).toBeVisible();
});

test('Plex: Authenticate, Login on app.plex.tv, server and Shoko libraries, Unlink clears them', async ({ page, context }) => {
  await openIntegrations(page);
  const plexPanel = page.locator('section', { has: page.getByRole('heading', { name: 'Plex Options' }) });
  await expect(plexPanel.getByLabel('Server')).toBeDisabled();
  await plexPanel.getByRole('button', { name: 'Authenticate' }).click();
  const login = plexPanel.getByRole('button', { name: 'Login' });
  await expect(login).toBeVisible();
  expect(plex.pins).toHaveLength(1);

  const popupPromise = context.waitForEvent('page');
  await login.click();
  const popup = await popupPromise;
  await expect(page.getByText('Checking Plex login status!')).toBeVisible();
  await expect(popup).toHaveURL(new RegExp(`^${plex.url}/auth#\\?clientID=.+&code=${plex.pins[0].code}$`));
  await snap(page, '195-plex-checking');

  // Polling every second: nothing changes until the user approves on Plex's page.
  const polls = () => plex.requests.filter((r) => r === 'tv GET /api/v2/pins/' + plex.pins[0].id).length;
  await expect.poll(polls).toBeGreaterThanOrEqual(2);
  await popup.getByRole('button', { name: 'Approve' }).click();
  await expect(popup.getByText('Signed in.')).toBeVisible();
  await popup.close();

  await expect(plexPanel.getByRole('button', { name: 'Unlink' })).toBeVisible();
  await expect(page.getByText('Checking Plex login status!')).toBeHidden();
  await expect(plexPanel.getByLabel('Server')).toBeEnabled();
  await plexPanel.getByLabel('Server').selectOption({ label: 'HomeMedia' });
  await expect(plexPanel.getByText('Libraries')).toBeVisible();
  await expect(plexPanel.getByLabel('Anime (ShokoMetadata)')).toBeVisible();
  await expect(plexPanel.getByLabel('Anime', { exact: true })).toBeVisible();
  // Libraries of Plex's own agents are not offered.
  await expect(plexPanel.getByLabel('TV', { exact: true })).toHaveCount(0);
  await plexPanel.getByLabel('Anime', { exact: true }).check();
  await expect.poll(async () => (await settings()).Plex).toEqual({ Server: 'pms-0001', Libraries: [3] });

  await page.reload();
  await expect(plexPanel.getByLabel('Server')).toHaveValue('pms-0001');
  await expect(plexPanel.getByLabel('Anime', { exact: true })).toBeChecked();
  await expect(plexPanel.getByLabel('Anime (ShokoMetadata)')).not.toBeChecked();
  await snap(page, '196-plex-linked');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, '197-integrations-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  await plexPanel.getByRole('button', { name: 'Unlink' }).click();
  await expect(plexPanel.getByRole('button', { name: 'Authenticate' })).toBeVisible();
  await expect(plexPanel.getByText('Libraries')).toHaveCount(0);
  await expect(plexPanel.getByLabel('Server')).toBeDisabled();
  await expect.poll(async () => (await settings()).Plex).toEqual({ Server: '', Libraries: [] });
  // The page's draft follows the saved settings: nothing is left unsaved.
  await expect(page.getByText('Unsaved Changes')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await snap(page, '198-plex-unlinked');
});
