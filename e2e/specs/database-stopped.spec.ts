import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { addImportFolderAndScan, completeFirstRunViaApi, loginViaApi, repoRoot, startShoko, type ShokoServer } from '../support/server';

interface Cluster {
  url: string;
  shutDown(): Promise<void>;
  startAgain(): Promise<void>;
  stop(): void;
}

/**
 * PostgreSQL stopped while the queue hashes (issue 49): the console, already open, says the database does not answer
 * and why the queue is paused; once PostgreSQL is started again both notices go by themselves. The cluster is the
 * test's own (scripts/pg-cluster.mjs); skipped without the PostgreSQL binaries.
 */
test.describe('a stopped database in the console', () => {
  let cluster: Cluster | undefined;
  let server: ShokoServer | undefined;
  let media: string | undefined;
  let key = '';

  test.beforeAll(async () => {
    const clusters = (await import(path.join(repoRoot, 'scripts', 'pg-cluster.mjs'))) as {
      findPostgresBin(): string | null;
      startPostgres(): Promise<Cluster>;
    };
    if (!clusters.findPostgresBin()) return;
    cluster = await clusters.startPostgres();
    media = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-e2e-db-stop-media-')));
    for (let n = 1; n <= 24; n++)
      fs.writeFileSync(path.join(media, `[Grp] Show - ${String(n).padStart(2, '0')}.mkv`), randomBytes(2 << 20));
    server = await startShoko({ env: { SHOKO_DB: cluster.url, SHOKO_QUEUE_RETRY_MAX_MS: '1000' } });
    await completeFirstRunViaApi(server);
    key = await loginViaApi(server);
  });

  test.afterAll(async () => {
    await server?.stop();
    cluster?.stop();
    if (media) fs.rmSync(media, { recursive: true, force: true });
  });

  test('says the database does not answer and why the queue waits, and clears once it is back', async ({ page }) => {
    test.skip(!cluster, 'the PostgreSQL binaries are not installed (Debian package: postgresql)');
    await page.goto(server!.url('/webui/dashboard'));
    await loginThroughForm(page);
    await expect(page.getByText('Collection Statistics')).toBeVisible();
    await addImportFolderAndScan(server!, key, { Name: 'Media', Path: media! });
    await expect.poll(() => server!.output().includes('Hashed '), { timeout: 30_000 }).toBe(true);

    await cluster!.shutDown();
    await expect(page.getByTestId('queue-fault')).toContainText('The queue is paused: The database connection was lost', {
      timeout: 30_000,
    });
    await expect(page.getByTestId('database-unreachable')).toContainText('The PostgreSQL database does not answer', { timeout: 30_000 });
    // The queue's widget does not call a paused queue empty.
    await expect(page.getByTestId('widget-queue')).not.toContainText('Queue is empty!');
    await snap(page, 'database-stopped-dashboard');

    await cluster!.startAgain();
    await expect(page.getByTestId('database-unreachable')).toBeHidden({ timeout: 30_000 });
    await expect(page.getByTestId('queue-fault')).toBeHidden({ timeout: 30_000 });
    // The queue carries on by itself: every file is hashed.
    const get = async <T>(pathname: string) => (await (await fetch(server!.url(pathname), { headers: { apikey: key } })).json()) as T;
    await expect
      .poll(async () => (await get<{ TotalCount: number; Fault: unknown }>('/api/v3/Queue')).TotalCount, { timeout: 60_000 })
      .toBe(0);
    const files = await get<{ Total: number; List: Array<{ Hashes: { ED2K: string } }> }>('/api/v3/File?pageSize=0&include=Ignored');
    expect({ total: files.Total, unhashed: files.List.filter((file) => !file.Hashes.ED2K).length }).toEqual({ total: 24, unhashed: 0 });
  });
});
