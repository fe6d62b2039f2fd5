import { expect, test } from '@playwright/test';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { completeFirstRunViaApi, LOCAL_USER, startShoko, type ShokoServer } from '../support/server';

/**
 * The Queue Processor widget says how long the AniDB work in the queue takes at AniDB's pace. HTTP is not pointed at a
 * fake here, so the server paces as toward AniDB itself (the default settings: 2 s apart for 10 s, then 6 s); the queue
 * is paused, so nothing is sent.
 */
test.describe('AniDB work left in the queue view', () => {
  let server: ShokoServer;
  let apikey: string;
  const api = (method: string, pathname: string, body?: unknown) =>
    fetch(server.url(pathname), {
      method,
      headers: body === undefined ? { apikey } : { 'content-type': 'application/json', apikey },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  test.beforeAll(async () => {
    server = await startShoko();
    await completeFirstRunViaApi(server);
    const auth = await fetch(server.url('/api/auth'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: LOCAL_USER.username, pass: LOCAL_USER.password, device: 'e2e' }),
    });
    apikey = ((await auth.json()) as { apikey: string }).apikey;
    expect((await api('POST', '/api/v3/Queue/Pause')).status).toBe(200);
    for (let animeId = 30_001; animeId <= 30_300; animeId++)
      expect((await api('POST', `/api/v3/Series/AniDB/${animeId}/Refresh?createSeriesEntry=true`)).status).toBe(200);
  });
  test.afterAll(async () => server?.stop());

  test('shows the anime queued and the time they take at the pace of the settings', async ({ page }) => {
    await page.goto(server.url('/webui/login'));
    await loginThroughForm(page);
    const widget = page.getByRole('region', { name: 'Queue Processor', exact: true });
    // 300 downloads: 7 in the first 12 s, then one every 6 s (1,770 s); then at least their posters, 4 s apart (1,196 s).
    await expect(widget.getByTestId('anidb-work-left')).toHaveText(
      "AniDB work left: about 49 min at AniDB's pace (300 anime · 300 pictures)",
    );
    await snap(page, 'anidb-work-left');
  });
});
