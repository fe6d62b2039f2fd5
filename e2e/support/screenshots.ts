import path from 'node:path';
import type { Page } from '@playwright/test';
import { repoRoot } from './server';

/**
 * Saves a full-page screenshot to e2e/screenshots/<name>.png (gitignored) for a human to look at. E2E_SCREENSHOTS=0
 * skips them (about 150 full-page pictures a run).
 */
export async function snap(page: Page, name: string) {
  if (process.env.E2E_SCREENSHOTS === '0') return;
  await page.screenshot({ path: path.join(repoRoot, 'e2e', 'screenshots', `${name}.png`), fullPage: true });
}
