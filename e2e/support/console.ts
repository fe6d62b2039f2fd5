import { expect, type Page } from '@playwright/test';
import { ANIDB_USERS, LOCAL_USER, type ShokoServer } from './server';

/** Signs in through the login form (the page must be on /webui/login). */
export async function loginThroughForm(page: Page, user = LOCAL_USER) {
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).not.toHaveURL(/\/webui\/login/);
}

/**
 * Walks a fresh server's first-run wizard through the UI up to the Import Folders step: acknowledgement, local
 * account, AniDB account (the fake's user), metadata sources, start server.
 */
export async function walkFirstRunToImportFolders(page: Page, server: ShokoServer, user = LOCAL_USER) {
  await page.goto(server.url('/webui/firstrun'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(server.url('/webui/firstrun/local-account'));
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(server.url('/webui/firstrun/anidb-account'));
  const [anidbUser, anidbPassword] = Object.entries(ANIDB_USERS)[0];
  await page.getByLabel('Username').fill(anidbUser);
  await page.getByLabel('Password').fill(anidbPassword);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(server.url('/webui/firstrun/metadata-sources'));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(server.url('/webui/firstrun/start-server'));
  await page.getByRole('button', { name: 'Start Server' }).click();
  await expect(page.getByText('Server started!')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(server.url('/webui/firstrun/import-folders'));
}

/** Errors the page logs to the browser console or throws, from now on. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}
