import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { startDemo, type RunningDemo } from '../../fakes/src/demo/demo';
import { loginThroughForm } from './console';
import { freePort } from './server';

export interface DemoSession {
  demo: RunningDemo;
  /** A desktop page logged in as the demo's admin (Default, empty password), allowed to use the clipboard. */
  page: Page;
  /** Closes the page, stops the demo and removes its folder. */
  close(): Promise<void>;
}

/** The offline demo library in a fresh temporary folder, with a logged-in page: the set-up of the demo-based specs. */
export async function openDemoSession(browser: Browser, name: string): Promise<DemoSession> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `shoko-${name}-`));
  const demo = await startDemo({ home, port: await freePort(), stdio: 'pipe' });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demo.baseUrl });
  const page = await context.newPage();
  await page.goto(`${demo.baseUrl}/webui/login`);
  await loginThroughForm(page, { username: 'Default', password: '' });
  return {
    demo,
    page,
    close: async () => {
      await context.close();
      await demo.stop();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}
