import { expect, type Page } from '@playwright/test';
import { LOCAL_USER } from './server';

/** Signs in through the login form (the page must be on /webui/login). */
export async function loginThroughForm(page: Page, user = LOCAL_USER) {
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).not.toHaveURL(/\/webui\/login/);
}
