import { expect, test, type Page } from '@playwright/test';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { completeFirstRunViaApi, LOCAL_USER, startShoko, type ShokoServer } from '../support/server';

let server: ShokoServer;

test.beforeAll(async () => {
  server = await startShoko();
  await completeFirstRunViaApi(server);
});

test.afterAll(async () => {
  await server?.stop();
});

async function openLoggedIn(page: Page, pathname = '/webui/dashboard') {
  await page.goto(server.url(pathname));
  await expect(page).toHaveURL(/\/webui\/login/);
  await loginThroughForm(page);
}

test('the auth guard sends visitors to login with the encoded path, search and hash', async ({ page }) => {
  await page.goto(server.url('/webui/log?level=Info&q=a%20b#bottom'));
  await expect(page).toHaveURL(server.url(`/webui/login?redirectTo=${encodeURIComponent('/log?level=Info&q=a%20b#bottom')}`));
  await expect(page.getByRole('button', { name: 'Login' })).toBeDisabled();
  await loginThroughForm(page);
  await expect(page).toHaveURL(server.url('/webui/log?level=Info&q=a%20b#bottom'));
});

test('the root path logs in without redirectTo and lands on the dashboard', async ({ page }) => {
  await page.goto(server.url('/webui'));
  await expect(page).toHaveURL(server.url('/webui/login'));
  await loginThroughForm(page);
  await expect(page).toHaveURL(server.url('/webui/dashboard'));
});

test('remember me keeps the session for new tabs', async ({ context, page }) => {
  await page.goto(server.url('/webui/login'));
  await page.getByLabel('Username').fill(LOCAL_USER.username);
  await page.getByLabel('Password').fill(LOCAL_USER.password);
  await page.getByLabel('Remember Me').check();
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(server.url('/webui/dashboard'));
  const second = await context.newPage();
  await second.goto(server.url('/webui/log'));
  await expect(second).toHaveURL(server.url('/webui/log'));
});

test('without remember me the session stays in its tab', async ({ context, page }) => {
  await openLoggedIn(page);
  const second = await context.newPage();
  await second.goto(server.url('/webui/log'));
  await expect(second).toHaveURL(server.url('/webui/login?redirectTo=%2Flog'));
});

test('an old server is sent to the unsupported page', async ({ page }) => {
  await page.route('**/api/v3/Init/Version', (route) =>
    route.fulfill({
      json: { Server: { Version: '5.2.9.0', ReleaseChannel: 'Stable' }, WebUI: { Version: '0.1.0', ReleaseChannel: 'Stable' } },
    }),
  );
  await page.route('**/api/v3/WebUI/Update**', (route) =>
    route.fulfill({ status: 400, contentType: 'text/plain', body: 'No stable release is available.' }),
  );
  await page.goto(server.url('/webui/login'));
  await expect(page).toHaveURL(server.url('/webui/unsupported'));
  await expect(page.getByText('STOP!')).toBeVisible();
  await expect(page.getByText('You Shall Not Pass!')).toBeVisible();
  await expect(page.getByText('5.2.9.0')).toBeVisible();
  await expect(page.getByText('5.3.3.0')).toBeVisible();
  await page.getByRole('button', { name: 'Force update to Stable Web UI' }).click();
  await expect(page.getByRole('alert')).toHaveText('No stable release is available.');
  await snap(page, '20-unsupported');
});

test('the unsupported page sends a supported server back to the console', async ({ page }) => {
  await page.goto(server.url('/webui/unsupported'));
  await expect(page).toHaveURL(/\/webui\/login/);
});

test('the top navigation reaches every area', async ({ page }) => {
  await openLoggedIn(page);
  const nav = page.getByRole('navigation', { name: 'Main' });

  await nav.getByRole('link', { name: 'Collection' }).click();
  await expect(page).toHaveURL(server.url('/webui/collection'));

  const utilities: [string, string][] = [
    ['Unrecognized Files', '/webui/utilities/unrecognized/files'],
    ['Release Management', '/webui/utilities/release-management/multiples'],
    ['Series Without Files', '/webui/utilities/series-without-files'],
    ['File Search', '/webui/utilities/file-search'],
    ['Renamer', '/webui/utilities/renamer'],
  ];
  for (const [label, url] of utilities) {
    await nav.getByRole('button', { name: 'Utilities' }).click();
    await page.getByRole('menuitem', { name: label }).click();
    await expect(page).toHaveURL(server.url(url));
  }

  // The menu by keyboard: Enter opens it on the first item, the arrows and End move, Escape closes it and gives the
  // focus back; a click outside closes it. (The pointer is moved off the menu's place first: an item under it takes
  // the focus.)
  const utilitiesButton = nav.getByRole('button', { name: 'Utilities' });
  await page.mouse.move(5, 400);
  await utilitiesButton.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Unrecognized Files' })).toBeFocused();
  await expect(utilitiesButton).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Manually Linked Files' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByRole('menuitem', { name: 'Renamer' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: 'Unrecognized Files' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(utilitiesButton).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('menuitem', { name: 'Renamer' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(server.url('/webui/utilities/renamer'));
  await expect(page.getByRole('menu')).toHaveCount(0);
  await utilitiesButton.click();
  await expect(page.getByRole('menu', { name: 'Utilities' })).toBeVisible();
  await page.getByRole('heading').first().click();
  await expect(page.getByRole('menu')).toHaveCount(0);

  await nav.getByRole('button', { name: 'Actions' }).click();
  const actions = page.getByRole('dialog', { name: 'Actions' });
  await expect(actions).toBeVisible();
  await actions.getByRole('button', { name: 'Close' }).click();
  await expect(actions).toBeHidden();

  // Dashboard Settings only on the dashboard.
  await expect(page.getByRole('button', { name: 'Dashboard Settings' })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('button', { name: 'Dashboard Settings' }).click();
  await expect(page.getByRole('dialog', { name: 'Dashboard Settings' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(server.url('/webui/settings/general'));
  await expect(page.getByTestId('queue-count')).toBeVisible();
  await snap(page, '21-settings-general');
});

test('redirects of the route table', async ({ page }) => {
  await openLoggedIn(page);
  const cases: [string, string][] = [
    ['/webui/', '/webui/dashboard'],
    ['/webui/utilities', '/webui/utilities/unrecognized/files'],
    ['/webui/utilities/unrecognized', '/webui/utilities/unrecognized/files'],
    ['/webui/utilities/release-management', '/webui/utilities/release-management/multiples'],
    ['/webui/settings', '/webui/settings/general'],
    // An unknown series: its images tab redirects to posters, then the series page goes back up to the collection.
    ['/webui/collection/series/12/images', '/webui/collection'],
    ['/webui/firstrun', '/webui/firstrun/acknowledgement'],
  ];
  for (const [from, to] of cases) {
    await page.goto(server.url(from));
    await expect(page).toHaveURL(server.url(to));
  }
  await page.goto(server.url('/webui/utilities/release-management/anything-else'));
  await expect(page.getByRole('link', { name: 'Multiples' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('No series with multiple releases!')).toBeVisible();
});

test('the shell works on a 390 px wide phone screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLoggedIn(page);
  await expect(page.getByTestId('dashboard')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await snap(page, '22-mobile-dashboard');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await snap(page, '23-mobile-menu');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log' }).click();
  await expect(page).toHaveURL(server.url('/webui/log'));
  await snap(page, '24-mobile-log');
});
