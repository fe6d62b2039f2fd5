import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startDemo, type RunningDemo } from '../../fakes/src/demo/demo';
import { collectConsoleErrors, loginThroughForm, walkFirstRunToImportFolders } from '../support/console';
import { startReverseProxy, type ReverseProxy } from '../support/proxy';
import { snap } from '../support/screenshots';
import { freePort, startShoko, type ShokoServer } from '../support/server';

/**
 * The console under SHOKO_BASE_PATH=/shoko behind a reverse proxy that forwards only /shoko/* (WebSockets included):
 * every request the browser makes must stay under the prefix, or the proxy answers 404 and records it.
 */
const PREFIX = '/shoko';

/**
 * Lookups with nothing to find yet or offline: the login backdrop on an empty server, GitHub for console updates, and
 * AniDB posters still on their way (the demo's pictures come one every 4 s, as AniDB's are paced).
 */
const KNOWN_ERRORS = /\/api\/v3\/(Image\/Random\/|WebUI\/LatestVersion|Image\/AniDB\/Poster\/)/;

test.describe('first run under a base path', () => {
  let server: ShokoServer;
  let proxy: ReverseProxy;

  test.beforeAll(async () => {
    server = await startShoko({ basePath: PREFIX, env: { SHOKO_TRUSTED_PROXIES: 'loopback' } });
    const { hostname, port } = new URL(server.baseUrl);
    proxy = await startReverseProxy({ prefix: PREFIX, upstream: { host: hostname, port: Number(port) } });
  });
  test.afterAll(async () => {
    await proxy?.close();
    await server?.stop();
  });

  test('the wizard runs through the proxy up to the import folders', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const viaProxy: ShokoServer = { ...server, baseUrl: `${proxy.origin}${PREFIX}`, url: (p) => `${proxy.origin}${PREFIX}${p}` };
    // The bare prefix leads to the console, whose login page offers a fresh install the first run.
    await page.goto(`${proxy.origin}${PREFIX}/`);
    await expect(page).toHaveURL(`${proxy.origin}${PREFIX}/webui/login`);
    await expect(page.locator('base')).toHaveAttribute('href', `${PREFIX}/webui/`);
    await expect(page.getByText('This server has not been set up yet.')).toBeVisible();
    await snap(page, 'base-path-01-login-fresh');
    await walkFirstRunToImportFolders(page, viaProxy);
    await snap(page, 'base-path-02-firstrun-import-folders');
    expect(proxy.outside).toEqual([]);
    expect(errors.filter((e) => !KNOWN_ERRORS.test(e))).toEqual([]);
  });
});

test.describe('the console under a base path', () => {
  let demo: RunningDemo;
  let home: string;
  let proxy: ReverseProxy;

  test.beforeAll(async () => {
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-basepath-'));
    demo = await startDemo({ home, port: await freePort(), stdio: 'pipe', basePath: PREFIX });
    const { hostname, port } = new URL(demo.baseUrl);
    proxy = await startReverseProxy({ prefix: PREFIX, upstream: { host: hostname, port: Number(port) } });
  });
  test.afterAll(async () => {
    await proxy?.close();
    await demo?.stop();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  test('logs in, browses with pictures, hears the hubs over a WebSocket and never leaves the prefix', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const at = (pathname: string) => `${proxy.origin}${PREFIX}${pathname}`;
    const hubFrames: string[] = [];
    const sockets: string[] = [];
    page.on('websocket', (socket) => {
      sockets.push(new URL(socket.url()).pathname);
      socket.on('framereceived', (frame) => hubFrames.push(String(frame.payload)));
    });

    await page.goto(at('/webui/dashboard'));
    await expect(page).toHaveURL(at('/webui/login?redirectTo=%2Fdashboard'));
    await loginThroughForm(page, { username: 'Default', password: '' });
    await expect(page).toHaveURL(at('/webui/dashboard'));
    await expect(page.getByRole('region', { name: 'Queue Processor', exact: true })).toBeVisible();

    // The aggregate hub connects through the proxy's WebSocket and sends its state.
    await expect.poll(() => sockets).toContain(`${PREFIX}/signalr/aggregate`);
    await expect.poll(() => hubFrames.some((frame) => frame.includes('Queue:OnConnected'))).toBe(true);
    // …and a change made elsewhere reaches the page over it: pausing the queue through the API flips the widget.
    const queue = page.getByRole('region', { name: 'Queue Processor', exact: true });
    const paused = await fetch(at('/api/v3/Queue/Pause'), { method: 'POST', headers: { apikey: demo.apiKey } });
    expect(paused.status).toBeLessThan(300);
    await expect(queue.getByRole('button', { name: 'Resume' })).toBeVisible();
    await fetch(at('/api/v3/Queue/Resume'), { method: 'POST', headers: { apikey: demo.apiKey } });
    await expect(queue.getByRole('button', { name: 'Pause' })).toBeVisible();
    await snap(page, 'base-path-03-dashboard');

    // The collection's posters come from the server's image routes under the prefix.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collection' }).click();
    await expect(page).toHaveURL(at('/webui/collection'));
    const card = page.locator(`a[href^="${PREFIX}/webui/collection/series/"]`).first();
    await expect(card).toBeVisible();
    const poster = page.locator(`img[src^="${PREFIX}/api/v3/Image/"]`).first();
    await expect(poster).toBeVisible();
    await expect.poll(() => poster.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    await snap(page, 'base-path-04-collection');

    // A deep link loaded afresh (the server's index.html with its <base>) works too.
    const seriesHref = (await card.getAttribute('href'))!;
    await page.goto(`${proxy.origin}${seriesHref}`);
    // The series route sends its index on to the overview tab, sooner or later after the load.
    await expect(page).toHaveURL(new RegExp(`^${(proxy.origin + seriesHref).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/overview)?$`));
    await expect(page.getByRole('heading').first()).toBeVisible();
    await snap(page, 'base-path-05-series');

    // The log streams over the logging hub; the renamer's editor loads its lazy chunks and workers relative to <base>.
    await page.goto(at('/webui/log'));
    await expect.poll(() => sockets).toContain(`${PREFIX}/signalr/logging`);
    await expect(page.getByText(/Web console: http/).first()).toBeVisible();
    await snap(page, 'base-path-06-log');
    await page.goto(at('/webui/utilities/renamer'));
    await expect(page.locator('.monaco-editor').first()).toBeVisible({ timeout: 60_000 });
    await snap(page, 'base-path-07-renamer');

    expect(proxy.outside).toEqual([]);
    expect(proxy.forwarded.some((line) => line.startsWith(`GET ${PREFIX}/webui/assets/`))).toBe(true);
    expect(errors.filter((e) => !KNOWN_ERRORS.test(e))).toEqual([]);
  });
});
