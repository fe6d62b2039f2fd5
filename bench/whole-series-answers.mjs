// Whole-series answers of two server builds compared byte for byte on a kept generated collection (issue 45): every
// include combination of Series/{id}/Episode, Series/{id}/File and WebUI/Series/{id}/FileSummary that the console,
// the official web UI, Shokofin and Shoko Relay send, on the longest series (1,500 / 1,000 / 700 episodes) and a
// short one. Each build answers every request once; the answers' SHA-1 (a problem body's traceId left out) must match.
//   BENCH_BEFORE_DIST=<dir>   the build to compare against (a copy of server/dist from before the change)
//   BENCH_AFTER_DIST=<dir>    the build under test (default server/dist)
//   BENCH_ANSWERS_DBS=sqlite,postgres   BENCH_ANSWERS_SIZE=100k|400k   (BENCH_PG_URL, BENCH_DATA_DIR as for first-visit)
import crypto from 'node:crypto';
import path from 'node:path';
import { keptCollection, longestSeriesIds, root, SIZES, startServer } from './collections.mjs';

const size = SIZES[process.env.BENCH_ANSWERS_SIZE ?? '100k'];
if (!size) throw new Error(`BENCH_ANSWERS_SIZE must be one of ${Object.keys(SIZES).join(', ')}`);
const DBS = (process.env.BENCH_ANSWERS_DBS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
const before = process.env.BENCH_BEFORE_DIST;
if (!before) throw new Error('BENCH_BEFORE_DIST must name the build to compare against');
const after = process.env.BENCH_AFTER_DIST ?? path.join(root, 'server', 'dist');

/** Every subset of `items`. */
const subsets = (items) => items.reduce((all, item) => [...all, ...all.map((s) => [...s, item])], [[]]);

function episodeQueries() {
  const queries = [];
  for (const dataFrom of ['', 'AniDB', 'AniDB,TMDB', 'AniDB,TvDB'])
    for (const flags of subsets(['includeMediaInfo', 'includeAbsolutePaths', 'includeXRefs']))
      for (const files of [true, false]) {
        if (!files && flags.some((f) => f !== 'includeXRefs')) continue;
        const parts = ['pageSize=0', ...(files ? ['includeFiles=true'] : []), ...flags.map((f) => `${f}=true`)];
        if (dataFrom) parts.push(`includeDataFrom=${dataFrom}`);
        queries.push(parts.join('&'));
      }
  return [
    ...queries,
    // Shokofin, Shoko Relay, the console's tab, release management.
    'pageSize=0&includeHidden=true&includeMissing=true&includeDataFrom=AniDB,TvDB&includeXRefs=true',
    'pageSize=0&page=1&includeFiles=true',
    'pageSize=1&page=1&includeFiles=true&includeMediaInfo=false&includeAbsolutePaths=true&fuzzy=true',
    'pageSize=26&page=2&includeDataFrom=AniDB&includeFiles=true',
    'pageSize=150&page=3&includeFiles=true&includeXRefs=true',
    'pageSize=0&includeMissing=only&includeFiles=true',
    'pageSize=0&includeMissing=false&includeWatched=false&includeFiles=true&type=Episode',
    'pageSize=0&includeManuallyLinked=only&includeFiles=true',
    'pageSize=0&type=Special,Other&includeFiles=true&includeXRefs=true',
  ];
}

function fileQueries() {
  const queries = [];
  for (const include of subsets(['XRefs', 'MediaInfo', 'AbsolutePaths']))
    for (const dataFrom of ['', 'AniDB'])
      queries.push(
        [
          'pageSize=0',
          ...(include.length ? [`include=${include.join(',')}`] : []),
          ...(dataFrom ? [`includeDataFrom=${dataFrom}`] : []),
        ].join('&'),
      );
  return [
    ...queries,
    'pageSize=0&includeXRefs=true&includeDataFrom=AniDB',
    'pageSize=25&page=2&include=XRefs',
    'pageSize=25&page=1&include_only=ManualLinks&include=XRefs',
    'pageSize=0&sortOrder=FileName&sortOrder=-FileSize',
    'pageSize=0&include=Ignored',
    'pageSize=100&page=3&sortOrder=-FileID',
  ];
}

function summaryQueries() {
  const criteria = ['GroupName', 'FileVersion', 'FileSource', 'FileLocation', 'VideoResolution', 'AudioLanguages', 'SubtitleLanguages'];
  criteria.push('FileIsDeprecated', 'ImportFolder', 'ED2K', 'MultipleLocations', 'VideoCodecs');
  return [
    '',
    ...criteria.map((c) => `groupBy=${c}&includeEpisodeDetails=true&includeLocationDetails=true`),
    'groupBy=GroupName,FileVersion,FileSource,FileLocation,AudioLanguages,SubtitleLanguages&includeLocationDetails=true',
    'groupBy=GroupName,FileVersion,FileLocation,AudioLanguages,SubtitleLanguages,VideoResolution',
    'groupBy=GroupName,FileSource,FileVersion,ImportFolder,VideoCodecs,VideoResolution,AudioLanguages,SubtitleLanguages,VideoHasChapters&includeEpisodeDetails=true',
    'groupBy=ImportFolder,FileLocation,MultipleLocations&includeEpisodeDetails=true&includeLocationDetails=true',
    'type=&includeMissingFutureEpisodes=true&includeMissingUnknownEpisodes=true',
    'type=Special,Other&groupBy=GroupName',
  ];
}

async function answers(dist, home, databaseUrl) {
  process.env.BENCH_SERVER_DIST = dist;
  const server = await startServer(home, databaseUrl, { SHOKO_READ_CACHE: 'off' });
  const result = new Map();
  try {
    await server.waitStarted();
    const { apikey } = await server.call('POST', '/api/auth', { user: 'bench', pass: 'bench', device: 'bench' });
    const longest = await longestSeriesIds(server.call, apikey, 5000);
    const series = [...longest.slice(0, 3), longest[Math.floor(longest.length / 2)]];
    const urls = series.flatMap((id) => [
      ...episodeQueries().map((q) => `/api/v3/Series/${id}/Episode?${q}`),
      ...fileQueries().map((q) => `/api/v3/Series/${id}/File?${q}`),
      ...summaryQueries().map((q) => `/api/v3/WebUI/Series/${id}/FileSummary${q ? `?${q}` : ''}`),
    ]);
    for (const url of urls) {
      const res = await fetch(server.base + url, { headers: { apikey } });
      const text = (await res.text()).replace(/"traceId":"[^"]*"/, '');
      result.set(url, `${res.status} ${text.length} ${crypto.createHash('sha1').update(text).digest('hex')}`);
    }
  } finally {
    await server.stop();
  }
  return result;
}

let failed = false;
for (const db of DBS) {
  const { home, databaseUrl, release } = await keptCollection(db, size);
  try {
    const a = await answers(before, home, databaseUrl);
    const b = await answers(after, home, databaseUrl);
    const differing = [...a].filter(([url, digest]) => b.get(url) !== digest);
    const statuses = [...a.values()].reduce((n, d) => ({ ...n, [d.split(' ')[0]]: (n[d.split(' ')[0]] ?? 0) + 1 }), {});
    console.log(`${db} ${size.files}: ${a.size} answers, ${differing.length} differ (statuses ${JSON.stringify(statuses)})`);
    for (const [url, digest] of differing.slice(0, 20)) console.log(`  ${url}\n    before ${digest}\n    after  ${b.get(url)}`);
    if (differing.length) failed = true;
  } finally {
    release();
  }
}
process.exit(failed ? 1 : 0);
