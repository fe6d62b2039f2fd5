// The endpoint list of first visits (first-visit.bench.mjs, and import-shoko.bench.mjs right after an import made
// through the server): every list and page endpoint the console and the client suites open on a collection, with the
// ids they visit found first. `call` is a started server's, `apikey` a logged-in user's.
import fs from 'node:fs';
import { longestSeriesIds } from './collections.mjs';
import { percentile } from './lib.mjs';

/**
 * The endpoints by name, each `(i) => Promise` (i varies the page or search word), and what the catalogue walk needs:
 * the groups to visit, the filter catalogue's expressions and sort criteria.
 */
export async function firstVisitEndpoints(call, apikey) {
  const get = (url) => call('GET', `/api/v3/${url}`, undefined, apikey);
  const post = (url, body) => call('POST', `/api/v3/${url}`, body, apikey);
  // Ids to visit, found before any measurement.
  const bigSeries = await longestSeriesIds(call, apikey, 20);
  const groups = (await post('Filter/Preview/Group?pageSize=100&page=1', {})).List;
  const multiGroups = groups.filter((g) => g.Size > 1).map((g) => g.IDs.ID);
  const groupIds = multiGroups.length ? multiGroups : groups.map((g) => g.IDs.ID);
  const releaseSeries = {};
  for (const type of ['MultipleReleases', 'DuplicateFiles', 'MissingEpisodes'])
    releaseSeries[type] = (await get(`ReleaseManagement/${type}/Series?pageSize=20&page=1`)).List.map((s) => s.IDs.ID);
  const expressions = await get('Filter/Expressions');
  const sortings = await get('Filter/SortingCriteria');
  const words = ['kaze', 'hoshi', 'academy', 'tsuki', 'sora', 'melody'];
  // The presets a new collection starts with (issue 46) and the sub-filters of its Years and Tags directories.
  const presets = (await get('Filter?includeEmpty=true&pageSize=0')).List;
  const childrenOf = async (name) => {
    const directory = presets.find((f) => f.Name === name && f.IsDirectory);
    return directory ? (await get(`Filter/${directory.IDs.ID}/Filter?pageSize=0`)).List.map((f) => f.IDs.ID) : [];
  };
  const directoryIds = presets.filter((f) => f.IsDirectory).map((f) => f.IDs.ID);
  const yearFilters = await childrenOf('Years');
  const tagFilters = await childrenOf('Tags');
  const pick = (list, i) => list[i % list.length];
  const toggles = 'ignoreVariations=true&collecting=false&onlyFinishedSeries=false';

  const endpoints = {
    'Dashboard/Stats': () => get('Dashboard/Stats'),
    'Dashboard/SeriesSummary': () => get('Dashboard/SeriesSummary'),
    'Dashboard/RecentlyAddedEpisodes': () => get('Dashboard/RecentlyAddedEpisodes?pageSize=20&includeRestricted=false'),
    'Dashboard/RecentlyAddedSeries': () => get('Dashboard/RecentlyAddedSeries?pageSize=20&includeRestricted=false'),
    'Dashboard/ContinueWatchingEpisodes': () => get('Dashboard/ContinueWatchingEpisodes?pageSize=20&includeRestricted=false'),
    'Dashboard/NextUpEpisodes': () => get('Dashboard/NextUpEpisodes?pageSize=20&onlyUnwatched=true&includeRestricted=false'),
    'Dashboard/AniDBCalendar': () => get('Dashboard/AniDBCalendar?showAll=false&includeRestricted=false'),
    'Dashboard/CalendarEpisodes': () => get('Dashboard/CalendarEpisodes?startDate=2020-01-01&endDate=2020-01-31'),
    'Dashboard/TopTags': () => get('Dashboard/TopTags?pageSize=10'),
    'Series/AniDB/RecommendedForYou': () => get('Series/AniDB/RecommendedForYou?pageSize=20&includeRestricted=false'),
    'File (dashboard: unrecognized, newest)': () =>
      get('File?pageSize=20&include_only=Unrecognized&sortOrder=-FileID&include=AbsolutePaths'),
    'File (first pages)': (i) =>
      get(`File?pageSize=100&page=${1 + (i % 10)}&sortOrder=ImportFolderName&sortOrder=FileName&sortOrder=RelativePath`),
    'File (deep pages, 800-999)': (i) =>
      get(`File?pageSize=100&page=${800 + ((i * 13) % 200)}&sortOrder=ImportFolderName&sortOrder=FileName&sortOrder=RelativePath`),
    'File (default order, deep)': (i) => get(`File?pageSize=100&page=${800 + ((i * 13) % 200)}`),
    'File (unrecognized)': (i) => get(`File?pageSize=100&page=${1 + (i % 5)}&include_only=Unrecognized&include=AbsolutePaths`),
    'File (manual links)': () => get('File?pageSize=50&page=1&include_only=ManualLinks&include=XRefs'),
    'File/Search': (i) => get(`File/Search/${pick(words, i)}?pageSize=100&page=1`),
    'File?pageSize=0 (client suites)': () => get('File?pageSize=0'),
    'ReleaseManagement/MultipleReleases/Series': (i) =>
      get(`ReleaseManagement/MultipleReleases/Series?${toggles}&pageSize=50&page=${1 + (i % 3)}`),
    'ReleaseManagement/DuplicateFiles/Series': (i) =>
      get(`ReleaseManagement/DuplicateFiles/Series?${toggles}&pageSize=50&page=${1 + (i % 3)}`),
    'ReleaseManagement/MissingEpisodes/Series': (i) =>
      get(`ReleaseManagement/MissingEpisodes/Series?${toggles}&pageSize=50&page=${1 + (i % 3)}`),
    'ReleaseManagement/MissingEpisodes/Series (collecting)': (i) =>
      get(
        `ReleaseManagement/MissingEpisodes/Series?ignoreVariations=true&collecting=true&onlyFinishedSeries=true&pageSize=50&page=${1 + (i % 3)}`,
      ),
    ...Object.fromEntries(
      Object.entries(releaseSeries)
        .filter(([, ids]) => ids.length)
        .map(([type, ids]) => [
          `ReleaseManagement/${type}/Series/{id}/Episodes`,
          (i) => get(`ReleaseManagement/${type}/Series/${pick(ids, i)}/Episodes?${toggles}&pageSize=50&page=1`),
        ]),
    ),
    'Series/WithoutFiles': (i) => get(`Series/WithoutFiles?pageSize=50&page=${1 + (i % 3)}`),
    'Series/WithManuallyLinkedFiles': () => get('Series/WithManuallyLinkedFiles?pageSize=50&page=1'),
    'Series/Search': (i) => get(`Series/Search?query=${pick(words, i)}&fuzzy=false&limit=10`),
    'Series/Search (fuzzy)': (i) => get(`Series/Search?query=${pick(words, i)}&fuzzy=true&limit=10`),
    'Filter/Preview/Group (console search)': (i) =>
      post('Filter/Preview/Group?pageSize=50&page=1', {
        ApplyAtSeriesLevel: true,
        Expression: { Type: 'AnyContains', Left: { Type: 'NamesSelector' }, Parameter: pick(words, i) },
        Sorting: { Type: 'Name', IsInverted: false },
      }),
    'Filter/Preview/Group/Letters': () => post('Filter/Preview/Group/Letters', {}),
    'Filter (presets, web UI)': () => get('Filter?includeEmpty=true&pageSize=0'),
    'Filter (presets, default)': () => get('Filter'),
    ...(directoryIds.length && {
      'Filter/{id}/Filter (a directory)': (i) => get(`Filter/${pick(directoryIds, i)}/Filter?pageSize=0`),
    }),
    ...(yearFilters.length && {
      'Filter/{id}/Group (a year)': (i) => get(`Filter/${pick(yearFilters, i)}/Group?pageSize=50&page=1`),
    }),
    ...(tagFilters.length && {
      'Filter/{id}/Group (a tag)': (i) => get(`Filter/${pick(tagFilters, i * 7)}/Group?pageSize=50&page=1`),
    }),
    'Group?topLevelOnly (client suites)': (i) => get(`Group?pageSize=50&page=${1 + (i % 10)}&includeEmpty=false&topLevelOnly=true`),
    'Series (list)': (i) => get(`Series?pageSize=50&page=${1 + (i % 10)}`),
    'Episode?includeWatched=Only&includeFiles (client suites)': (i) =>
      get(`Episode?pageSize=100&page=${1 + (i % 10)}&includeWatched=Only&includeFiles=true`),
    'Series/{id}/Episode (console tab)': (i) => get(`Series/${pick(bigSeries, i)}/Episode?pageSize=26&page=1&includeDataFrom=AniDB`),
    'Series/{id}/Episode?includeFiles (Shokofin)': (i) =>
      get(`Series/${pick(bigSeries, i)}/Episode?pageSize=0&includeFiles=true&includeMediaInfo=false&includeAbsolutePaths=true`),
    'Series/{id}/File': (i) => get(`Series/${pick(bigSeries, i)}/File?pageSize=0&include=XRefs&includeDataFrom=AniDB`),
    'WebUI/Series/{id}/FileSummary': (i) => get(`WebUI/Series/${pick(bigSeries, i)}/FileSummary`),
    'Filter/Preview/Group/{id}/Series (group page)': (i) =>
      post(`Filter/Preview/Group/${pick(groupIds, i)}/Series?includeDataFrom=AniDB&recursive=true&includeMissing=true`, {}),
  };
  return { endpoints, groupIds, expressions, sortings, pick };
}

/**
 * Times `runs` requests of one kind (each a first visit: nothing is cached); `request(i)` varies page or text.
 * BENCH_REQUEST_TRACE=<file> appends a line per request: when it ended (epoch ms), its ms and `name`.
 */
export async function time(request, runs, name = '') {
  const times = [];
  let error = null;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    try {
      await request(i);
    } catch (e) {
      error = String(e.message ?? e).slice(0, 160);
      break;
    }
    times.push(performance.now() - started);
    const trace = process.env.BENCH_REQUEST_TRACE;
    if (trace) fs.appendFileSync(trace, `${Date.now()} ${times.at(-1).toFixed(1)} ${name.replaceAll(' ', '_')}\n`);
  }
  const first = times[0];
  times.sort((a, b) => a - b);
  return times.length
    ? {
        first: +first.toFixed(1),
        p50: +percentile(times, 50).toFixed(1),
        p95: +percentile(times, 95).toFixed(1),
        runs: times.length,
        error,
      }
    : { first: null, p50: null, p95: null, runs: 0, error };
}
