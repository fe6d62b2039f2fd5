import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { groupSeriesQuery, previewBody, searchCondition } from '@/api/filters';
import { fileListQuery, fileSearchParams, kindListParams, UNRECOGNIZED_PAGE_SIZE } from '@/api/files';
import { releaseSeriesQuery, releaseTogglesOf } from '@/api/releaseManagement';
import {
  episodeFiltersOf,
  nextUpEpisodeQuery,
  relatedAnimeQuery,
  seriesCastQuery,
  seriesEpisodesQuery,
  seriesExtraQuery,
  seriesOverviewQuery,
  seriesQuery,
  seriesTagsQuery,
  similarAnimeQuery,
} from '@/api/series';
import {
  prefetchEpisodesRoute,
  prefetchFileSearchRoute,
  prefetchGroupRoute,
  prefetchReleaseRoute,
  prefetchSeriesOverviewRoute,
  prefetchSeriesRoute,
  prefetchUnrecognizedRoute,
} from './landing';
import { queryClient } from './queryClient';

vi.mock('@/lib/session', () => ({ getSession: () => ({ apikey: 'key', username: 'u', rememberUser: false }), getApiKey: () => 'key' }));

const page = { Total: 0, List: [] };
const overview = {
  Extra: { SourceMaterial: 'Original Work' },
  Tags: [],
  Group: null,
  NextUpEpisode: null,
  Related: [],
  Similar: [],
  Cast: [],
};
let requested: string[] = [];

beforeEach(() => {
  requested = [];
  queryClient.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      requested.push(decodeURIComponent(url));
      // The settings document the group loader reads for its random posters; every list answers empty.
      const body = url.includes('/Settings')
        ? { WebUI_Settings: '' }
        : url.includes('/Series?') && url.includes('Group')
          ? []
          : url.includes('/Overview')
            ? overview
            : page;
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const at = (path: string) => new Request(`http://localhost/webui/${path}`);

// Each route's loader must fill the very query its page reads, or the page asks the server a second time.
describe('route loaders', () => {
  it('release management: the first page of the category under the toggles in the URL', async () => {
    prefetchReleaseRoute({
      params: { itemType: 'duplicates' },
      request: at('utilities/release-management/duplicates?onlyFinishedSeries=true'),
    });
    const toggles = releaseTogglesOf(new URLSearchParams('onlyFinishedSeries=true'));
    expect(toggles).toEqual({ ignoreVariations: true, collecting: false, onlyFinishedSeries: true });
    await vi.waitFor(() => expect(queryClient.getQueryData(releaseSeriesQuery('DuplicateFiles', toggles, 1).queryKey)).toEqual(page));
    expect(requested).toEqual([expect.stringContaining('/api/v3/ReleaseManagement/DuplicateFiles/Series?')]);
    expect(requested[0]).toContain('onlyFinishedSeries=true');
    expect(requested[0]).toContain('page=1');
  });

  it('unrecognized files: the first page in the default order', async () => {
    prefetchUnrecognizedRoute();
    const key = fileListQuery(kindListParams(UNRECOGNIZED_PAGE_SIZE, 'Unrecognized', null, '')).queryKey;
    await vi.waitFor(() => expect(queryClient.getQueryData(key)).toEqual({ pages: [page], pageParams: [1] }));
    expect(requested).toEqual([expect.stringContaining('/api/v3/File?pageSize=200&page=1')]);
    expect(requested[0]).toContain('include_only=Unrecognized');
  });

  it('file search: the newest files with their cross-references, before anything is typed', async () => {
    prefetchFileSearchRoute();
    expect(fileSearchParams(null, '')).toEqual({ pageSize: 50, include: ['XRefs'], sortOrder: ['-7'] });
    expect(fileSearchParams(null, 'abc')).toEqual({ pageSize: 50, include: ['XRefs'], sortOrder: [], search: 'abc' });
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(fileListQuery(fileSearchParams(null, '')).queryKey)).toEqual({ pages: [page], pageParams: [1] }),
    );
    expect(requested).toEqual([expect.stringContaining('/api/v3/File?pageSize=50&page=1&include=XRefs&sortOrder=-7')]);
  });

  it('episodes tab: the first episodes under the filters in the URL', async () => {
    prefetchEpisodesRoute({ params: { seriesId: '12' }, request: at('collection/series/12/episodes?type=Special&includeWatched=only') });
    const filters = episodeFiltersOf(new URLSearchParams('type=Special&includeWatched=only'));
    expect(filters).toMatchObject({ type: 'Special', includeWatched: 'only', includeMissing: 'false', search: '' });
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(seriesEpisodesQuery(12, filters).queryKey)).toEqual({ pages: [page], pageParams: [1] }),
    );
    expect(requested).toEqual([expect.stringContaining('/api/v3/Series/12/Episode?')]);
  });

  it('the overview tab: the series and, in one call, every panel beside it (not the import folders)', async () => {
    prefetchSeriesRoute({ params: { seriesId: '12' }, request: at('collection/series/12/overview') });
    prefetchSeriesOverviewRoute({ params: { seriesId: '12' } });
    const panels = [
      seriesExtraQuery(12),
      seriesTagsQuery(12),
      nextUpEpisodeQuery(12),
      relatedAnimeQuery(12),
      similarAnimeQuery(12),
      seriesCastQuery(12),
    ];
    await vi.waitFor(() => expect(queryClient.getQueryState(seriesOverviewQuery(12).queryKey)?.status).toBe('success'));
    expect(panels.map((q) => queryClient.getQueryData(q.queryKey))).toEqual([overview.Extra, [], null, [], [], []]);
    expect(requested.map((url) => url.replace(/^.*\/api\/v3\//, '')).sort()).toEqual(
      ['Series/12?includeDataFrom=AniDB&includeDataFrom=TMDB', 'WebUI/Series/12/Overview'].sort(),
    );
  });

  it('other series tabs: the series and the extras and tags of its header', async () => {
    prefetchSeriesRoute({ params: { seriesId: '12' }, request: at('collection/series/12/credits') });
    const queries = [seriesQuery(12), seriesExtraQuery(12), seriesTagsQuery(12)];
    await vi.waitFor(() => expect(queries.map((q) => queryClient.getQueryState(q.queryKey)?.status)).toEqual(queries.map(() => 'success')));
    expect(requested.map((url) => url.replace(/^.*\/api\/v3\//, '')).sort()).toEqual(
      ['Series/12/Tags?onlyVerified=false', 'Series/12?includeDataFrom=AniDB&includeDataFrom=TMDB', 'WebUI/Series/12'].sort(),
    );
  });

  it('group page: the group and its series under the search in the URL, not under a saved filter', async () => {
    prefetchGroupRoute({ params: { groupId: '7' }, request: at('collection/group/7?qs=%20abc%20') });
    const key = groupSeriesQuery(7, previewBody([searchCondition('abc')])).queryKey;
    await vi.waitFor(() => expect(queryClient.getQueryData(key)).toEqual([]));
    expect(requested).toEqual(
      expect.arrayContaining([
        expect.stringContaining('/api/v3/Group/7'),
        expect.stringContaining('/api/v3/Filter/Preview/Group/7/Series?'),
      ]),
    );

    requested = [];
    prefetchGroupRoute({ params: { groupId: '8', filterId: '3' }, request: at('collection/group/8/filter/3') });
    await vi.waitFor(() => expect(requested).toEqual([expect.stringContaining('/api/v3/Group/8')]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requested.some((url) => url.includes('Filter/Preview'))).toBe(false);
  });

  it('asks for nothing for an id that is not a number', async () => {
    prefetchEpisodesRoute({ params: { seriesId: 'abc' }, request: at('collection/series/abc/episodes') });
    prefetchGroupRoute({ params: { groupId: 'x' }, request: at('collection/group/x') });
    prefetchSeriesRoute({ params: { seriesId: 'x' }, request: at('collection/series/x') });
    prefetchSeriesOverviewRoute({ params: { seriesId: '1.5' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requested).toEqual([]);
  });
});
