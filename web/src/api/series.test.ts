import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { groupQuery } from './collection';
import { nextUpEpisodeQuery, seriesCastQuery, seriesOverviewQuery, seriesTagsQuery } from './series';

vi.mock('@/lib/session', () => ({ getSession: () => ({ apikey: 'key', username: 'u', rememberUser: false }), getApiKey: () => 'key' }));

const group = { IDs: { ID: 7 }, Name: 'The group' };
const overview = { Extra: {}, Tags: [{ ID: 1, Name: 'tag' }], Group: group, NextUpEpisode: null, Related: [], Similar: [], Cast: [] };
let requested: string[] = [];
let client: QueryClient;

beforeEach(() => {
  requested = [];
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      requested.push(decodeURIComponent(url).replace(/^.*\/api\/v3\//, ''));
      await new Promise((resolve) => setTimeout(resolve, 20));
      const body = url.includes('/Overview') ? overview : [{ ID: 2, Name: 'own' }];
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('the series overview call', () => {
  it('puts each panel under the query of its own route, the group under the group', async () => {
    await client.fetchQuery(seriesOverviewQuery(12));
    expect(client.getQueryData(seriesTagsQuery(12).queryKey)).toEqual(overview.Tags);
    expect(client.getQueryData(nextUpEpisodeQuery(12).queryKey)).toBeNull();
    expect(client.getQueryData(groupQuery(7).queryKey)).toEqual(group);
    expect(requested).toEqual(['WebUI/Series/12/Overview']);
  });

  it('a panel asked for while the call is on its way waits for its answer instead of asking again', async () => {
    void client.prefetchQuery(seriesOverviewQuery(12));
    const [tags, next] = await Promise.all([client.fetchQuery(seriesTagsQuery(12)), client.fetchQuery(nextUpEpisodeQuery(12))]);
    expect([tags, next]).toEqual([overview.Tags, null]);
    expect(requested).toEqual(['WebUI/Series/12/Overview']);
  });

  it('a panel asked for with no call on its way asks its own route', async () => {
    expect(await client.fetchQuery(seriesCastQuery(12))).toEqual([{ ID: 2, Name: 'own' }]);
    expect(requested).toEqual(['Series/12/Cast']);
  });
});
