import { expect, test } from '@playwright/test';
import { snap } from '../support/screenshots';
import { ANIDB_USERS, LOCAL_USER, startShoko, type ShokoServer } from '../support/server';

let server: ShokoServer;

test.beforeAll(async () => {
  server = await startShoko();
});

test.afterAll(async () => {
  await server?.stop();
});

test('a fresh server walks through the first run, shows its log, and logs out and in again', async ({ page }) => {
  await page.goto(server.url('/webui'));
  await expect(page).toHaveURL(server.url('/webui/login'));
  const continueButton = page.getByRole('button', { name: 'Continue' });
  await expect(continueButton).toBeVisible();
  await expect(page.getByTestId('server-version')).toContainText('Server version:');
  await snap(page, '01-login-waiting');

  await continueButton.click();
  await expect(page).toHaveURL(server.url('/webui/firstrun/acknowledgement'));
  await expect(page.getByRole('heading', { name: 'Welcome to Shoko' })).toBeVisible();
  await snap(page, '02-firstrun-acknowledgement');
  await page.getByRole('button', { name: 'Continue' }).click();

  // Local account: prefilled with the server's default user name.
  await expect(page).toHaveURL(server.url('/webui/firstrun/local-account'));
  const username = page.getByLabel('Username');
  await expect(username).toHaveValue('Default');
  await username.fill('');
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await username.fill(LOCAL_USER.username);
  await page.getByLabel('Password').fill(LOCAL_USER.password);
  await snap(page, '03-firstrun-local-account');
  await page.getByRole('button', { name: 'Next' }).click();

  // AniDB account, checked against the fake AniDB UDP server.
  await expect(page).toHaveURL(server.url('/webui/firstrun/anidb-account'));
  await expect(page.getByRole('link', { name: /Local Account/ })).toHaveAttribute('data-saved', 'true');
  const next = page.getByRole('button', { name: 'Next' });
  await expect(next).toBeDisabled();
  const [anidbUser, anidbPassword] = Object.entries(ANIDB_USERS)[0];
  await page.getByLabel('Username').fill(anidbUser);
  await page.getByLabel('Password').fill(`${anidbPassword}-wrong`);
  await next.click();
  await expect(page.getByRole('alert')).toHaveText('Incorrect Username/Password!');
  await snap(page, '04-firstrun-anidb-account-wrong');
  await page.getByLabel('Password').fill(anidbPassword);
  await next.click();

  await expect(page).toHaveURL(server.url('/webui/firstrun/metadata-sources'));
  await expect(page.getByText('Series title language')).toBeVisible();
  await snap(page, '05-firstrun-metadata-sources');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page).toHaveURL(server.url('/webui/firstrun/start-server'));
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await snap(page, '06-firstrun-start-server');
  await page.getByRole('button', { name: 'Start Server' }).click();
  await expect(page.getByText('Server started!')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Back' })).toBeDisabled();
  await snap(page, '07-firstrun-server-started');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page).toHaveURL(server.url('/webui/firstrun/import-folders'));
  await snap(page, '08-firstrun-import-folders');
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page).toHaveURL(server.url('/webui/firstrun/data-collection'));
  await expect(page.getByTestId('error-reporting-state')).toContainText('disabled');
  await snap(page, '09-firstrun-data-collection');
  await page.getByRole('button', { name: 'Finish' }).click();

  await expect(page).toHaveURL(server.url('/webui/dashboard'));
  const welcome = page.getByRole('dialog', { name: 'Welcome to Shoko!' });
  await expect(welcome).toBeVisible();
  await snap(page, '10-dashboard-welcome');
  await welcome.getByRole('button', { name: 'Set Me Free!' }).click();
  await expect(welcome).toBeHidden();
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(page.getByTestId('current-user')).toContainText(LOCAL_USER.username);
  await snap(page, '11-shell-dashboard');

  // The Welcome modal shows only once.
  await page.reload();
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The log page streams the server log over SignalR.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log' }).click();
  await expect(page).toHaveURL(server.url('/webui/log'));
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const lines = page.getByTestId('log-lines');
  await expect(lines.locator('[data-index]').first()).toBeVisible();
  await expect(lines).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  await expect(lines).toContainText('Server started');
  await snap(page, '12-log');

  // Logout, then log back in and land where we were.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(server.url('/webui/login?redirectTo=%2Flog'));
  await snap(page, '13-login-form');
  await page.getByLabel('Username').fill(LOCAL_USER.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid Username or Password. Try again.');
  await snap(page, '14-login-failed');
  await page.getByLabel('Password').fill(LOCAL_USER.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(server.url('/webui/log'));
});
