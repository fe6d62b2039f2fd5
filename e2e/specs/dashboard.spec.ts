import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startDemo, type RunningDemo } from '../../fakes/src/demo/demo';
import { collectConsoleErrors, loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { completeFirstRunViaApi, freePort, LOCAL_USER, startShoko, type ShokoServer } from '../support/server';

const widget = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

/**
 * Errors the browser logs for other areas' lookups with nothing to find offline or on an empty server (the login
 * backdrop, 500 as the contract answers when there is no picture; the Web UI update check, 502 while GitHub cannot be
 * reached); they are not the dashboard's.
 */
const KNOWN_CONSOLE_ERRORS = [/(404|500) .*\/api\/v3\/Image\/Random\//, /(404|502) .*\/api\/v3\/WebUI\/LatestVersion/];

test.describe('dashboard on an empty server', () => {
  let server: ShokoServer;

  test.beforeAll(async () => {
    server = await startShoko();
    await completeFirstRunViaApi(server);
    // A configured server has its AniDB login; settings saves validate the whole document.
    const auth = await fetch(server.url('/api/auth'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: LOCAL_USER.username, pass: LOCAL_USER.password, device: 'e2e' }),
    });
    const { apikey } = (await auth.json()) as { apikey: string };
    const patch = [
      { op: 'replace', path: '/AniDb/Username', value: 'Default' },
      { op: 'replace', path: '/AniDb/Password', value: 'secret' },
    ];
    const saved = await fetch(server.url('/api/v3/Settings'), {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', apikey },
      body: JSON.stringify(patch),
    });
    expect(saved.status).toBe(200);
  });
  test.afterAll(async () => server?.stop());

  test('shows every empty text, honours Dashboard Settings across a reload, and runs an action from the Actions modal', async ({
    page,
  }) => {
    const consoleErrors = collectConsoleErrors(page);
    await page.goto(server.url('/webui/login'));
    await loginThroughForm(page);
    await expect(page).toHaveURL(/\/webui\/dashboard$/);
    for (const [name, text] of [
      ['Queue Processor', 'Queue is empty!'],
      ['Unrecognized Files', 'No unrecognized files. Good job!'],
      ['Import Folders', 'No Import Folders Added!'],
      ['Recently Imported', 'No Recently Imported Episodes!'],
      ['Continue Watching', 'No Episodes In Progress.'],
      ['Upcoming Anime', 'No Upcoming Anime.'],
      ['Recommended Anime', 'No Recommended Anime!'],
      // No internet here: the news panel says so instead of failing a request to the Shoko site.
      ['Shoko News', 'News is unavailable while the server has no internet connection.'],
    ]) {
      await expect(widget(page, name)).toContainText(text);
    }
    await expect(widget(page, 'Collection Statistics')).toContainText('Series');
    await snap(page, '80-dashboard-empty');
    expect(consoleErrors.filter((error) => !KNOWN_CONSOLE_ERRORS.some((known) => known.test(error)))).toEqual([]);

    // Hide Media Type and Next Up; the choice is stored in WebUI_Settings.dashboard and survives a reload.
    await page.getByRole('button', { name: 'Dashboard Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dashboard Settings' });
    await dialog.getByRole('switch', { name: 'Show Media Type' }).click();
    await dialog.getByRole('switch', { name: 'Show Next Up' }).click();
    await snap(page, '81-dashboard-settings');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(widget(page, 'Media Type')).toHaveCount(0);
    await page.reload();
    await expect(widget(page, 'Queue Processor')).toBeVisible();
    await expect(widget(page, 'Media Type')).toHaveCount(0);
    await expect(widget(page, 'Next Up')).toHaveCount(0);
    // No hole where Media Type was: Import Folders moved up beside Recently Imported.
    const placeOf = async (id: string) => {
      const found = await page.locator(`[data-widget="${id}"]`).boundingBox();
      if (!found) throw new Error(`${id} is not on the page`);
      return found;
    };
    await expect(async () => {
      const recentlyImported = await placeOf('recentlyImported');
      const importFolders = await placeOf('importFolders');
      expect(Math.round(importFolders.y)).toBe(Math.round(recentlyImported.y));
      expect(importFolders.x).toBeGreaterThan(recentlyImported.x + recentlyImported.width);
    }).toPass();
    await snap(page, '82-dashboard-hidden-widgets');

    // Pause the queue, run an action: the queued job shows in the top bar count and in the queue widget.
    const queue = widget(page, 'Queue Processor');
    await queue.getByRole('button', { name: 'Pause' }).click();
    await expect(queue.getByRole('button', { name: 'Resume' })).toBeVisible();
    await expect(page.getByTestId('queue-count')).toHaveText('0');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Actions' }).click();
    const actions = page.getByRole('dialog', { name: 'Actions' });
    await expect(actions.getByRole('tab')).toHaveText(['Import', 'AniDB', 'TMDB', 'Shoko', 'Images', 'Trakt', 'Plex']);
    await actions.getByRole('button', { name: 'Run Run Import' }).click();
    await expect(page.getByText('Running action "Run Import"')).toBeVisible();
    await expect(page.getByTestId('queue-count')).toHaveText('1');
    // An action without an integration says so instead of pretending.
    await actions.getByRole('tab', { name: 'AniDB' }).click();
    await actions.getByRole('button', { name: 'Run Update AniDB Calendar' }).click();
    await expect(page.getByText('The AniDB calendar is not fetched by this server yet.')).toBeVisible();
    // One-way actions ask first.
    await actions.getByRole('button', { name: 'Run OVERWRITE AniDB MyList' }).click();
    await expect(actions.getByRole('button', { name: 'Run Anyway' })).toBeVisible();
    await snap(page, '82-actions-modal');
    await actions.getByRole('button', { name: 'Cancel' }).click();
    await actions.getByRole('button', { name: 'Close' }).click();
    await expect(queue).toContainText('Run Import');
    await queue.getByRole('button', { name: 'Clear' }).click();
    await expect(queue).toContainText('Queue is empty!');
    await expect(page.getByTestId('queue-count')).toHaveText('0');
  });

  test('Shoko News shows the latest posts when the server reports internet access, and says so when the feed fails', async ({ page }) => {
    // Stand-ins for an online server: no live hub, so the REST connectivity answer counts; the feed itself is canned.
    // The console first opens the hub's WebSocket directly, then falls back to the negotiate request: both refused.
    await page.routeWebSocket(/\/signalr\/aggregate/, (ws) => ws.close());
    await page.route('**/signalr/aggregate/negotiate**', (route) => route.abort());
    await page.route('**/api/v3/Init/Connectivity', (route) =>
      route.fulfill({
        json: {
          NetworkAvailability: 'Internet',
          LastChangedAt: new Date().toISOString(),
          IsAniDBUdpReachable: true,
          IsAniDBHttpBanned: false,
          IsAniDBUdpBanned: false,
        },
      }),
    );
    const recent = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const posts = [
      {
        filename: 'server-9-9-0-released.mdx',
        meta: { title: 'Server 9.9.0 Released', quick: 'A made-up release.', date: recent },
        content: '',
      },
      { filename: 'an-older-post.mdx', meta: { title: 'An Older Post', quick: 'From last year.', date: '2024-06-30' }, content: '' },
    ];
    let feedRequests = 0;
    await page.route('https://shokoanime.com/api/getFiles**', (route) => {
      feedRequests += 1;
      return route.fulfill({ json: { results: posts, hasMore: false, totalCount: 2 } });
    });
    await page.goto(server.url('/webui/login'));
    await loginThroughForm(page);
    const news = widget(page, 'Shoko News');
    const items = news.getByRole('list', { name: 'News posts' }).getByRole('listitem');
    await expect(items).toHaveCount(2);
    await expect(items.nth(0).getByRole('link', { name: 'Server 9.9.0 Released' })).toHaveAttribute(
      'href',
      'https://shokoanime.com/blog/server-9-9-0-released',
    );
    await expect(items.nth(0)).toContainText('New!');
    await expect(items.nth(1)).toContainText('An Older Post');
    await expect(items.nth(1)).not.toContainText('New!');
    expect(feedRequests).toBe(1);
    await snap(page, '172-dashboard-news');

    // A failing feed is asked twice (one retry), then the panel says it could not load the news.
    await page.unroute('https://shokoanime.com/api/getFiles**');
    feedRequests = 0;
    await page.route('https://shokoanime.com/api/getFiles**', (route) => {
      feedRequests += 1;
      return route.fulfill({ status: 500, body: 'down' });
    });
    await page.reload();
    await expect(news).toContainText('The news could not be loaded.');
    expect(feedRequests).toBe(2);
  });

  test('edit mode: dragging and resizing on the grid, Save persists across a reload, Cancel restores, Reset to Default restores the defaults', async ({
    page,
  }) => {
    const cell = (id: string) => page.locator(`[data-widget="${id}"]`);
    // Measured from the grid's corner: a notice above the grid (no internet, a server notice) may appear at any time.
    // Both boxes are read in one frame: read one after the other, a notice drawn in between moved the grid under them.
    const box = async (id: string) => {
      const found = await cell(id).evaluate((element) => {
        const grid = element.closest('.dashboard-grid')?.getBoundingClientRect();
        const own = element.getBoundingClientRect();
        return grid ? { x: own.x - grid.x, y: own.y - grid.y, width: own.width, height: own.height } : null;
      });
      if (!found) throw new Error(`${id} is not on the page`);
      return {
        x: Math.round(found.x),
        y: Math.round(found.y),
        width: Math.round(found.width),
        height: Math.round(found.height),
      };
    };
    const boxes = async () => ({
      queueProcessor: await box('queueProcessor'),
      unrecognizedFiles: await box('unrecognizedFiles'),
      collectionBreakdown: await box('collectionBreakdown'),
    });
    /** Presses the mouse at `from`, moves it in small steps by (dx, dy) and lets go: what a user's drag does. */
    const drag = async (from: { x: number; y: number; width: number; height: number }, dx: number, dy: number) => {
      const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
      await page.mouse.move(start.x, start.y);
      await page.mouse.down();
      await page.mouse.move(start.x + dx, start.y + dy, { steps: 12 });
      await page.mouse.up();
    };
    const handle = async (id: string) => {
      const found = await cell(id).getByTestId('drag-handle').boundingBox();
      if (!found) throw new Error(`${id} has no drag handle`);
      return found;
    };
    const storedLayout = async () => {
      const auth = await fetch(server.url('/api/auth'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: LOCAL_USER.username, pass: LOCAL_USER.password, device: 'e2e-layout' }),
      });
      const { apikey } = (await auth.json()) as { apikey: string };
      const settings = (await (await fetch(server.url('/api/v3/Settings'), { headers: { apikey } })).json()) as { WebUI_Settings: string };
      return (
        JSON.parse(settings.WebUI_Settings) as {
          layout?: { dashboard?: Record<string, Array<{ i: string; x: number; y: number; w: number; h: number }>> };
        }
      ).layout?.dashboard;
    };
    const placed = (layout: Awaited<ReturnType<typeof storedLayout>>, id: string) => layout?.lg?.find((item) => item.i === id);
    const startEditing = async () => {
      await page.getByRole('button', { name: 'Dashboard Settings' }).click();
      await page.getByRole('dialog', { name: 'Dashboard Settings' }).getByRole('button', { name: 'Edit Layout' }).click();
      await expect(page.getByRole('status', { name: 'Dashboard edit mode' })).toBeVisible();
    };
    const editBar = page.getByRole('status', { name: 'Dashboard edit mode' });
    await page.goto(server.url('/webui/login'));
    await loginThroughForm(page);
    await expect(widget(page, 'Queue Processor')).toBeVisible();
    // The default grid: three small panels side by side in the first row, no handles outside edit mode.
    const defaults = await boxes();
    expect(defaults.unrecognizedFiles.y).toBe(defaults.queueProcessor.y);
    expect(defaults.collectionBreakdown.x).toBeGreaterThan(defaults.unrecognizedFiles.x);
    expect(defaults.unrecognizedFiles.x - defaults.queueProcessor.x).toBe(defaults.queueProcessor.width + 24);
    await expect(page.getByTestId('drag-handle')).toHaveCount(0);
    await expect(page.locator('.react-resizable-handle:visible')).toHaveCount(0);

    await startEditing();
    // Navigation is blocked while editing.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Collection' }).click();
    await expect(page.getByText('Save or cancel the dashboard layout first.')).toBeVisible();
    await expect(page).toHaveURL(/\/webui\/dashboard$/);

    // Drag the queue onto the third column: it takes that place and Collection Statistics moves below it.
    await drag(await handle('queueProcessor'), defaults.collectionBreakdown.x - defaults.queueProcessor.x, 0);
    await expect.poll(() => box('queueProcessor')).toEqual(defaults.collectionBreakdown);
    await expect
      .poll(async () => (await box('collectionBreakdown')).y)
      .toBeGreaterThan(defaults.collectionBreakdown.y + defaults.collectionBreakdown.height);
    await expect.poll(() => box('unrecognizedFiles')).toEqual(defaults.unrecognizedFiles);
    // Resize Unrecognized Files from its corner handle: five rows (of 24 px) taller.
    const corner = await cell('unrecognizedFiles').locator('.react-resizable-handle-se').boundingBox();
    expect(corner).not.toBeNull();
    await drag(corner!, 0, 5 * 24);
    await expect.poll(async () => (await box('unrecognizedFiles')).height).toBe(defaults.unrecognizedFiles.height + 5 * 24);
    const arranged = await boxes();
    await snap(page, '211-dashboard-grid-edit');
    await editBar.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Dashboard layout saved!')).toBeVisible();
    await expect(editBar).toBeHidden();
    // Stored in Shoko's shape: one list per breakpoint, react-grid-layout items keyed by Shoko's widget ids.
    const saved = await storedLayout();
    expect(Object.keys(saved ?? {})).toEqual(['lg', 'md', 'sm']);
    expect(placed(saved, 'queueProcessor')).toMatchObject({ x: 8, y: 0, w: 4, h: 18 });
    expect(placed(saved, 'unrecognizedFiles')).toMatchObject({ x: 4, y: 0, w: 4, h: 23 });
    await page.reload();
    await expect(widget(page, 'Queue Processor')).toBeVisible();
    await expect.poll(boxes).toEqual(arranged);

    // Cancel throws a change away.
    await startEditing();
    await drag(await handle('unrecognizedFiles'), defaults.queueProcessor.x - defaults.unrecognizedFiles.x, 0);
    await expect.poll(async () => (await box('unrecognizedFiles')).x).toBe(defaults.queueProcessor.x);
    await editBar.getByRole('button', { name: 'Cancel' }).click();
    await expect(editBar).toBeHidden();
    await expect.poll(boxes).toEqual(arranged);

    // Reset to Default saves the default grid.
    await startEditing();
    await editBar.getByRole('button', { name: 'Reset to Default' }).click();
    await expect(editBar).toBeHidden();
    await expect.poll(boxes).toEqual(defaults);
    expect(placed(await storedLayout(), 'queueProcessor')).toMatchObject({ x: 0, y: 0, w: 4, h: 18 });
    await page.reload();
    await expect(widget(page, 'Queue Processor')).toBeVisible();
    await expect.poll(boxes).toEqual(defaults);
    await snap(page, '210-dashboard-grid');

    // The keyboard arranges too: Tab to a widget's handle; Shift+ArrowDown makes it two rows (48 px) taller.
    await startEditing();
    await cell('queueProcessor').getByTestId('drag-handle').focus();
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(async () => (await box('queueProcessor')).height).toBe(defaults.queueProcessor.height + 48);
    await editBar.getByRole('button', { name: 'Save' }).click();
    await expect(editBar).toBeHidden();
    expect(placed(await storedLayout(), 'queueProcessor')).toMatchObject({ x: 0, y: 0, w: 4, h: 20 });
    await startEditing();
    await editBar.getByRole('button', { name: 'Reset to Default' }).click();
    await expect(editBar).toBeHidden();
    await expect.poll(boxes).toEqual(defaults);

    // 800 px wide: the six-column grid (two small panels a row), still arrangeable.
    await page.setViewportSize({ width: 800, height: 900 });
    await expect.poll(async () => (await box('queueProcessor')).width).toBeLessThan(400);
    expect((await box('unrecognizedFiles')).y).toBe((await box('queueProcessor')).y);
    await snap(page, '212-dashboard-grid-800');
    await startEditing();
    await expect(page.getByTestId('drag-handle').first()).toBeVisible();
    await snap(page, '213-dashboard-grid-edit-800');
    await editBar.getByRole('button', { name: 'Cancel' }).click();

    // 390 px wide: one column; edit mode says the widgets cannot be arranged this narrow.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => (await box('unrecognizedFiles')).x).toBe((await box('queueProcessor')).x);
    expect((await box('unrecognizedFiles')).y).toBeGreaterThan((await box('queueProcessor')).y);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await snap(page, '214-dashboard-grid-390');
    // Also when the page opens this narrow.
    await page.reload();
    await expect(widget(page, 'Queue Processor')).toBeVisible();
    await startEditing();
    await expect(editBar).toContainText('Widen the window to at least 640 px to move or resize them.');
    await expect(page.getByTestId('drag-handle')).toHaveCount(0);
    await snap(page, '215-dashboard-grid-edit-390');
    await editBar.getByRole('button', { name: 'Cancel' }).click();
    await expect(editBar).toBeHidden();
  });
});

test.describe('dashboard with the demo collection', () => {
  let demo: RunningDemo;
  let home: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-dashboard-'));
    demo = await startDemo({ home, port: await freePort(), stdio: 'pipe' });
  });
  test.afterAll(async () => {
    await demo?.stop();
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('renders the widgets with real data, desktop and 390 px wide', async ({ page }) => {
    await page.goto(`${demo.baseUrl}/webui/login`);
    await loginThroughForm(page, { username: 'Default', password: '' });
    await expect(widget(page, 'Unrecognized Files')).toContainText('Mystery Release - 01.mkv');
    const stats = widget(page, 'Collection Statistics');
    await expect(stats.getByText('Unrecognized Files')).toBeVisible();
    await expect(stats.locator('div', { hasText: /^Unrecognized Files1$/ })).toBeVisible();
    await expect(stats.locator('div', { hasText: /^Series[1-9]\d*$/ })).toBeVisible();
    await expect(widget(page, 'Media Type').getByRole('listitem').filter({ hasText: 'TV Series' })).toContainText('3 · 60%');
    await expect(widget(page, 'Import Folders').getByRole('list', { name: 'Import folders' }).getByRole('listitem').first()).toBeVisible();
    const recent = widget(page, 'Recently Imported');
    await expect(recent.getByTestId('poster-card').first()).toBeVisible();
    await snap(page, '83-dashboard-demo');

    await recent.getByRole('button', { name: 'Series' }).click();
    await expect(recent.getByRole('list', { name: 'Recently imported series' }).getByTestId('poster-card').first()).toBeVisible();
    await expect(widget(page, 'Upcoming Anime')).toContainText('No Upcoming Anime.');

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(widget(page, 'Queue Processor')).toBeVisible();
    // The grid follows the new width a frame later.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await snap(page, '84-dashboard-demo-390');
  });

  test('a player scrobbling a position puts the episode under Continue Watching with its progress', async ({ page }) => {
    const consoleErrors = collectConsoleErrors(page);
    const api = (pathname: string) => fetch(`${demo.baseUrl}/api/v3/${pathname}`, { headers: { apikey: demo.apiKey } });
    const recent = (await (await api('Dashboard/RecentlyAddedEpisodes?pageSize=1')).json()) as {
      List: Array<{ SeriesTitle: string; Title: string; IDs: { ShokoFile: number } }>;
    };
    const [episode] = recent.List;
    await page.goto(`${demo.baseUrl}/webui/login`);
    await loginThroughForm(page, { username: 'Default', password: '' });
    const continueWatching = widget(page, 'Continue Watching');
    await expect(continueWatching).toContainText('No Episodes In Progress.');

    // What a player sends when paused half-way through the (short) demo file: the position in ticks of 100 ns.
    const { Duration } = (await (await api(`File/${episode.IDs.ShokoFile}`)).json()) as { Duration: string };
    const [hours, minutes, seconds] = Duration.split(':').map(Number);
    const length = hours * 3600 + minutes * 60 + seconds;
    expect(length).toBeGreaterThan(0);
    const scrobble = await api(
      `File/${episode.IDs.ShokoFile}/Scrobble?event=pause&resumePosition=${Math.round((length / 2) * 10_000_000)}`,
    );
    expect(scrobble.status).toBe(202);
    await page.reload();
    const card = continueWatching.getByTestId('poster-card');
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(episode.SeriesTitle);
    await expect(card).toContainText(episode.Title);
    const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
    await expect(card.getByTestId('watch-progress')).toHaveText(`${clock(length / 2)} / ${clock(length)}`);
    await expect(card.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
    await expect(widget(page, 'Shoko News')).toContainText('News is unavailable');
    await snap(page, '170-dashboard-continue-watching');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(card).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await snap(page, '171-dashboard-continue-watching-390');

    // Finishing the episode ends the session.
    expect((await api(`File/${episode.IDs.ShokoFile}/Scrobble?event=stop&watched=true`)).status).toBe(202);
    await page.reload();
    await expect(continueWatching).toContainText('No Episodes In Progress.');
    expect(consoleErrors.filter((error) => !KNOWN_CONSOLE_ERRORS.some((known) => known.test(error)))).toEqual([]);
  });
});
