import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { addImportFolderAndScan, completeFirstRunViaApi, LOCAL_USER, loginViaApi, startShoko, type ShokoServer } from '../support/server';

/**
 * The data disk fills up while the queue hashes (issue 49): the console, already logged in, keeps working and says
 * "Data disk full" with the space left and why the queue is paused; a new login says the disk is full; once space is
 * freed both notices go by themselves. The data folder is a small tmpfs: skipped where mounting one is not permitted.
 */
test.describe('a full data disk in the console', () => {
  let server: ShokoServer | undefined;
  let disk: string | undefined;
  let media: string | undefined;
  let key = '';
  const filler = () => path.join(disk!, 'filler');

  test.beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-e2e-small-disk-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', dir], { stdio: 'ignore' });
      disk = dir;
    } catch {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    }
    media = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-e2e-full-media-')));
    for (let n = 1; n <= 12; n++)
      fs.writeFileSync(path.join(media, `[Grp] Show - ${String(n).padStart(2, '0')}.mkv`), randomBytes(2 << 20));
    server = await startShoko({ env: { SHOKO_HOME: disk, SHOKO_QUEUE_RETRY_MAX_MS: '1000' } });
    await completeFirstRunViaApi(server);
    key = await loginViaApi(server);
  });

  test.afterAll(async () => {
    await server?.stop();
    if (disk) {
      execFileSync('umount', ['-l', disk], { stdio: 'ignore' });
      fs.rmSync(disk, { recursive: true, force: true });
    }
    if (media) fs.rmSync(media, { recursive: true, force: true });
  });

  test('says the disk is full and why the queue waits, keeps browsing, and clears once space is freed', async ({ page, browser }) => {
    test.skip(!disk, 'mount -t tmpfs is not permitted here');
    await page.goto(server!.url('/webui/dashboard'));
    await loginThroughForm(page);
    await addImportFolderAndScan(server!, key, { Name: 'Media', Path: media! });
    await expect.poll(() => server!.output().includes('Hashed '), { timeout: 30_000 }).toBe(true);

    // Fill the disk while the queue works.
    const fd = fs.openSync(filler(), 'a');
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(64 * 1024, 1));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
    } finally {
      fs.closeSync(fd);
    }

    await expect(page.getByTestId('queue-fault')).toContainText('The queue is paused: The data disk is full', { timeout: 30_000 });
    await expect(page.getByTestId('data-disk-full')).toContainText(/Data disk full \(\d+(\.\d)? (B|KB) free\)/);
    await page.reload();
    await expect(page.getByTestId('data-disk-full')).toBeVisible();
    await expect(page.getByText('Collection Statistics')).toBeVisible();
    await snap(page, 'full-disk-dashboard');
    await page.goto(server!.url('/webui/utilities/unrecognized/files'));
    await expect(page.getByTestId('data-disk-full')).toBeVisible();
    await snap(page, 'full-disk-unrecognized');

    // A new browser has no key yet: its login needs a new one written, and says why it cannot.
    const fresh = await browser.newPage();
    await fresh.goto(server!.url('/webui/login'));
    await fresh.getByLabel('Username').fill(LOCAL_USER.username);
    await fresh.getByLabel('Password').fill(LOCAL_USER.password);
    await fresh.getByRole('button', { name: 'Login' }).click();
    await expect(fresh.getByRole('alert')).toContainText('The data disk is full');
    await snap(fresh, 'full-disk-login');
    await fresh.close();

    fs.rmSync(filler());
    await expect(page.getByTestId('queue-fault')).toBeHidden({ timeout: 30_000 });
    await expect(page.getByTestId('data-disk-full')).toBeHidden({ timeout: 30_000 });
  });
});
