import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { groupPageQuery } from '@/api/collection';
import { groupSeriesQuery, previewBody, searchCondition } from '@/api/filters';
import { prefetchCollectionFirstPage, prefetchGroupSeries } from './prefetch';

vi.mock('@/lib/session', () => ({ getSession: () => ({ apikey: 'key', username: 'u', rememberUser: false }), getApiKey: () => 'key' }));

const page = (randomImages: boolean) => ({ Total: 1, List: [{ Name: randomImages ? 'random' : 'preferred' }] });
let requested: string[] = [];
let settings: { release: () => void; webui: string };

const webuiWith = (showRandomPoster: boolean) => JSON.stringify({ collection: { image: { showRandomPoster } } });

beforeEach(() => {
  requested = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  settings = { release, webui: '' };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = decodeURIComponent(url);
      requested.push(path);
      let body: unknown = [];
      // The account and its settings answer only when the test says so: start-up is slow to give them.
      if (path.includes('/User/Current')) {
        await released;
        body = { ID: 1, IsAdmin: true };
      } else if (path.includes('/Settings')) {
        await released;
        body = { WebUI_Settings: settings.webui };
      } else if (path.includes('/Filter/Preview/Group?')) body = page(path.includes('randomImages=true'));
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const groupRequests = () => requested.filter((url) => url.includes('/Filter/Preview/Group'));

describe('collection loader', () => {
  it('asks for the first groups before the settings have answered', async () => {
    const client = new QueryClient();
    const done = prefetchCollectionFirstPage(client);
    await vi.waitFor(() => expect(groupRequests()).toEqual([expect.stringContaining('randomImages=false')]));
    settings.release();
    await done;
    expect(client.getQueryData(groupPageQuery({}, false, 1).queryKey)).toEqual(page(false));
    // The settings keep the default: the page is not asked for twice.
    expect(groupRequests()).toHaveLength(1);
  });

  it('asks for the random posters too once the settings turn them on', async () => {
    const client = new QueryClient();
    settings.webui = webuiWith(true);
    const done = prefetchCollectionFirstPage(client);
    await vi.waitFor(() => expect(groupRequests()).toHaveLength(1));
    settings.release();
    await done;
    expect(client.getQueryData(groupPageQuery({}, true, 1).queryKey)).toEqual(page(true));
    expect(groupRequests()).toEqual([expect.stringContaining('randomImages=false'), expect.stringContaining('randomImages=true')]);
  });

  it('uses the settings already at hand for the first request', async () => {
    const client = new QueryClient();
    client.setQueryData(['users', 'current'], { ID: 1, IsAdmin: true });
    client.setQueryData(['settings'], { WebUI_Settings: webuiWith(true) });
    await prefetchCollectionFirstPage(client);
    expect(groupRequests()).toEqual([expect.stringContaining('randomImages=true')]);
  });
});

describe('group loader', () => {
  it("asks for the group's series at once and again with random posters once the settings turn them on", async () => {
    const client = new QueryClient();
    settings.webui = webuiWith(true);
    const done = prefetchGroupSeries(client, 7, 'abc');
    const series = () => requested.filter((url) => url.includes('/Filter/Preview/Group/7/Series'));
    await vi.waitFor(() => expect(series()).toEqual([expect.stringContaining('randomImages=false')]));
    settings.release();
    await done;
    expect(series()).toEqual([expect.stringContaining('randomImages=false'), expect.stringContaining('randomImages=true')]);
    expect(client.getQueryData(groupSeriesQuery(7, previewBody([searchCondition('abc')])).queryKey)).toEqual([]);
  });
});
