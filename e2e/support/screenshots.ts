import path from 'node:path';
import type { Page } from '@playwright/test';
import { repoRoot } from './server';

/** Saves a full-page screenshot to e2e/screenshots/<name>.png (gitignored) for a human to look at. */
export async function snap(page: Page, name: string) {
  await page.screenshot({ path: path.join(repoRoot, 'e2e', 'screenshots', `${name}.png`), fullPage: true });
}
