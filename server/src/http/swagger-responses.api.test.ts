import fs from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_PLEX_SERVER_ID, startFakePlex, type FakePlex } from '../../../fakes/src/plex.js';
import { login, setEnv, type TestServer } from '../test/harness.js';
import { seedTmdbLinks, TMDB_LINKS } from '../test/seed-tmdb.js';
import { startServerWithTmdbFake, type TmdbFakeServer } from '../test/tmdb-fake-server.js';
import { CLIENT_USER, startDemoCollection, type DemoCollection } from '../test/demo-collection.js';

interface MediaType {
  schema?: object;
}
interface Operation {
  responses: Record<string, { description: string; content?: Record<string, MediaType> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, object> };
}

/**
 * Every object schema of the document without an `additionalProperties` rule gets `false`, so a field the route
 * sends but the document does not name fails too (the document describes the answers exactly).
 */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjects);
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.type === 'object' && schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
  Object.values(schema).forEach(closeObjects);
}

/**
 * The document /swagger/v3/swagger.json serves (objects closed) and `call`, which sends a request with `key` and checks
 * the answer against the document's description of `method path`: the status is one the document lists, a JSON body
 * validates against the documented schema, a text answer is text, an empty answer is empty.
 */
async function openApiChecker(server: TestServer, key: string) {
  const res = await server.request({ method: 'GET', url: '/swagger/v3/swagger.json' });
  if (res.statusCode !== 200) throw new Error(`swagger.json: ${res.statusCode} ${JSON.stringify(res.headers)} ${res.body.slice(0, 300)}`);
  const document = res.json() as Document;
  closeObjects(document);
  const ajv = new Ajv({ strict: false, allErrors: true });
  const validators = new Map<string, ValidateFunction>();

  /** Checks one answer against the document's description of `method path`, returning the parsed JSON body. */
  function expectDocumented(method: string, path: string, res: LightMyRequestResponse): unknown {
    const operation = document.paths[path]?.[method.toLowerCase()];
    expect(operation, `${method} ${path} is documented`).toBeDefined();
    const documented = operation.responses[String(res.statusCode)];
    expect(
      documented,
      `${method} ${path} answered ${res.statusCode} (${res.body.slice(0, 200)}), documented: ${Object.keys(operation.responses)}`,
    ).toBeDefined();
    const contentType = String(res.headers['content-type'] ?? '').split(';')[0];
    if (!documented.content) {
      expect(res.body, `${method} ${path}: documented as empty`).toBe('');
      return undefined;
    }
    const mediaTypes = Object.keys(documented.content);
    // JSON unless the document also allows the media type sent (a theme answers JSON or its stylesheet).
    if (mediaTypes.includes('application/json') && (contentType === 'application/json' || !mediaTypes.includes(contentType))) {
      expect(contentType, `${method} ${path}: content type`).toBe('application/json');
      const id = `${method} ${path} ${res.statusCode}`;
      let validate = validators.get(id);
      if (!validate) {
        validate = ajv.compile({ ...documented.content['application/json'].schema, components: document.components });
        validators.set(id, validate);
      }
      const body: unknown = res.json();
      expect(validate(body) ? [] : validate.errors, `${method} ${path}: body matches the documented schema`).toEqual([]);
      return body;
    }
    if (mediaTypes.includes('text/plain') && contentType === 'text/plain') return res.body;
    // An empty body is allowed where the document says the answer may be text (the actions).
    if (mediaTypes.includes('text/plain') && res.body === '') return res.body;
    expect(
      mediaTypes.some(
        (type) => type === '*/*' || type === contentType || (type.endsWith('/*') && contentType.startsWith(type.slice(0, -1))),
      ),
      `${method} ${path}: ${contentType} is one of ${mediaTypes}`,
    ).toBe(true);
    return undefined;
  }

  /** Calls a route and checks its answer; `path` is the documented path the URL belongs to. */
  async function call(method: string, path: string, url: string, body?: unknown) {
    const res = await server.request({ method, url, key, body });
    return expectDocumented(method, path, res) as never;
  }

  return { document, ajv, call, check: expectDocumented };
}

/** The answers of real routes on the demo collection (files imported, matched against the AniDB fakes). */
describe('OpenAPI responses match what the routes send', () => {
  let demo: DemoCollection;
  let document: Document;
  let ajv: Ajv;
  let call: Awaited<ReturnType<typeof openApiChecker>>['call'];

  beforeAll(async () => {
    demo = await startDemoCollection();
    const key = await login(demo.server, CLIENT_USER.user, CLIENT_USER.pass, 'swagger-check');
    ({ document, ajv, call } = await openApiChecker(demo.server, key));
  }, 180_000);
  afterAll(() => demo?.close());

  it('a field or type the document does not name fails the check', async () => {
    const seriesID = [...demo.seriesByAnime.values()][0];
    const series = (await call('GET', '/api/v3/Series/{seriesID}', `/api/v3/Series/${seriesID}`)) as Record<string, unknown>;
    const schema = document.paths['/api/v3/Series/{seriesID}'].get.responses['200'].content!['application/json'].schema!;
    const validate = ajv.compile({ ...schema, components: document.components });
    expect(validate(series)).toBe(true);
    expect(validate({ ...series, Unexpected: true })).toBe(false);
    expect(validate({ ...series, Size: 'one' })).toBe(false);
  });

  it('groups, series, episodes, tags and filters', async () => {
    const series = await call('GET', '/api/v3/Series', '/api/v3/Series?pageSize=0');
    const seriesList = (series as { List: Array<{ IDs: { ID: number; AniDB: number; ParentGroup: number } }> }).List;
    expect(seriesList.length).toBeGreaterThan(1);
    for (const { IDs } of seriesList) {
      await call('GET', '/api/v3/Series/{seriesID}', `/api/v3/Series/${IDs.ID}?includeDataFrom=AniDB,TMDB`);
      await call(
        'GET',
        '/api/v3/Series/{seriesID}/Episode',
        `/api/v3/Series/${IDs.ID}/Episode?pageSize=0&includeFiles=true&includeMediaInfo=true&includeXRefs=true&includeDataFrom=AniDB`,
      );
      await call('GET', '/api/v3/Series/{seriesID}/Group', `/api/v3/Series/${IDs.ID}/Group`);
      await call('GET', '/api/v3/Series/{seriesID}/Tags', `/api/v3/Series/${IDs.ID}/Tags`);
      await call('GET', '/api/v3/Series/{seriesID}/Tags/User', `/api/v3/Series/${IDs.ID}/Tags/User`);
      await call('GET', '/api/v3/Series/{seriesID}/Relations', `/api/v3/Series/${IDs.ID}/Relations`);
      await call('GET', '/api/v3/Series/{seriesID}/AniDB/Relations', `/api/v3/Series/${IDs.ID}/AniDB/Relations`);
      await call('GET', '/api/v3/Series/{seriesID}/NextUpEpisode', `/api/v3/Series/${IDs.ID}/NextUpEpisode?includeFiles=true`);
      await call('GET', '/api/v3/Series/{seriesID}/AutoMatchSettings', `/api/v3/Series/${IDs.ID}/AutoMatchSettings`);
      await call('GET', '/api/v3/Series/AniDB/{anidbID}/Series', `/api/v3/Series/AniDB/${IDs.AniDB}/Series`);
      await call('GET', '/api/v3/Series/AniDB/{anidbID}/Episode', `/api/v3/Series/AniDB/${IDs.AniDB}/Episode`);
      await call('GET', '/api/v3/Series/AniDB/{anidbID}/Relations', `/api/v3/Series/AniDB/${IDs.AniDB}/Relations`);
      await call('GET', '/api/v3/Group/{groupID}', `/api/v3/Group/${IDs.ParentGroup}`);
      await call('GET', '/api/v3/Group/{groupID}/Series', `/api/v3/Group/${IDs.ParentGroup}/Series?includeDataFrom=AniDB`);
      await call('GET', '/api/v3/Group/{groupID}/Group', `/api/v3/Group/${IDs.ParentGroup}/Group`);
      await call('GET', '/api/v3/Group/{groupID}/Relations', `/api/v3/Group/${IDs.ParentGroup}/Relations`);
      await call('GET', '/api/v3/Group/{groupID}/MainSeries', `/api/v3/Group/${IDs.ParentGroup}/MainSeries`);
    }
    const [first] = seriesList;
    await call('GET', '/api/v3/Series/Search', `/api/v3/Series/Search?query=kiri`);
    await call('GET', '/api/v3/Series/Search/{query}', `/api/v3/Series/Search/kiri`);
    await call('GET', '/api/v3/Series/StartsWith/{query}', `/api/v3/Series/StartsWith/k`);
    await call('GET', '/api/v3/Series/Years', '/api/v3/Series/Years');
    await call('GET', '/api/v3/Series/Seasons', '/api/v3/Series/Seasons');
    await call('GET', '/api/v3/Series/AniDB/Relations', '/api/v3/Series/AniDB/Relations');
    await call('GET', '/api/v3/Series/WithoutFiles', '/api/v3/Series/WithoutFiles');
    await call('GET', '/api/v3/Series/WithManuallyLinkedFiles', '/api/v3/Series/WithManuallyLinkedFiles');
    await call('PUT', '/api/v3/Series/{seriesID}/AutoMatchSettings', `/api/v3/Series/${first.IDs.ID}/AutoMatchSettings`, { TMDB: true });
    const patchName = (path: string, value: unknown) => [{ op: 'replace', path, value }];
    await call(
      'PATCH',
      '/api/v3/Series/{seriesID}/AutoMatchSettings',
      `/api/v3/Series/${first.IDs.ID}/AutoMatchSettings`,
      patchName('/TMDB', false),
    );
    const [filePath] = [...demo.fileByPath.keys()];
    await call('GET', '/api/v3/Series/PathEndsWith/{*}', `/api/v3/Series/PathEndsWith/${encodeURIComponent(filePath.split('/').pop()!)}`);
    await call('POST', '/api/v3/Series/{seriesID}/Vote', `/api/v3/Series/${first.IDs.ID}/Vote`, { Value: 8, MaxValue: 10 });

    await call('GET', '/api/v3/Group', '/api/v3/Group?pageSize=0');
    await call('GET', '/api/v3/Group/Letters', '/api/v3/Group/Letters');
    const created = (await call('POST', '/api/v3/Group', '/api/v3/Group', { Name: 'Swagger check', SeriesIDs: [first.IDs.ID] })) as {
      IDs: { ID: number };
    };
    await call('PUT', '/api/v3/Group/{groupID}', `/api/v3/Group/${created.IDs.ID}`, { Name: 'Swagger check 2', SeriesIDs: [first.IDs.ID] });
    await call('PATCH', '/api/v3/Group/{groupID}', `/api/v3/Group/${created.IDs.ID}`, patchName('/Name', 'Swagger check 3'));
    await call('POST', '/api/v3/WebUI/GroupView', '/api/v3/WebUI/GroupView', { GroupIDs: [created.IDs.ID], TagFilter: 0 });
    await call('POST', '/api/v3/Group/{groupID}/Recalculate', `/api/v3/Group/${created.IDs.ID}/Recalculate`);

    const episodes = (await call(
      'GET',
      '/api/v3/Episode',
      '/api/v3/Episode?pageSize=0&includeFiles=true&includeXRefs=true&includeDataFrom=AniDB',
    )) as {
      List: Array<{ IDs: { ID: number; AniDB: number } }>;
    };
    const episode = episodes.List[0].IDs;
    await call(
      'GET',
      '/api/v3/Episode/{episodeID}',
      `/api/v3/Episode/${episode.ID}?includeDataFrom=AniDB&includeFiles=true&includeMediaInfo=true`,
    );
    await call('GET', '/api/v3/Episode/{episodeID}/AniDB', `/api/v3/Episode/${episode.ID}/AniDB`);
    await call('GET', '/api/v3/Episode/{episodeID}/Series', `/api/v3/Episode/${episode.ID}/Series`);
    await call('GET', '/api/v3/Episode/AniDB', '/api/v3/Episode/AniDB?pageSize=5');
    await call('GET', '/api/v3/Episode/AniDB/{anidbEpisodeID}', `/api/v3/Episode/AniDB/${episode.AniDB}`);
    await call('GET', '/api/v3/Episode/AniDB/{anidbEpisodeID}/Episode', `/api/v3/Episode/AniDB/${episode.AniDB}/Episode`);
    await call('GET', '/api/v3/Episode/WithNoFiles', '/api/v3/Episode/WithNoFiles');
    await call('POST', '/api/v3/Episode/{episodeID}/Watched/{watched}', `/api/v3/Episode/${episode.ID}/Watched/true`);
    await call('POST', '/api/v3/Episode/{episodeID}/Vote', `/api/v3/Episode/${episode.ID}/Vote`, { Value: 7, MaxValue: 10 });

    const tags = (await call('GET', '/api/v3/Tag/AniDB', '/api/v3/Tag/AniDB?pageSize=0')) as { List: Array<{ ID: number }> };
    await call('GET', '/api/v3/Tag/AniDB/{tagID}', `/api/v3/Tag/AniDB/${tags.List[0].ID}`);
    const tag = (await call('POST', '/api/v3/Tag/User', '/api/v3/Tag/User', { Name: 'swagger-check', Description: 'A tag.' })) as {
      ID: number;
    };
    await call('GET', '/api/v3/Tag/User', '/api/v3/Tag/User');
    await call('POST', '/api/v3/Series/{seriesID}/Tags/User', `/api/v3/Series/${first.IDs.ID}/Tags/User`, { IDs: [tag.ID] });
    await call('GET', '/api/v3/Tag/User/{tagID}', `/api/v3/Tag/User/${tag.ID}`);
    await call('PUT', '/api/v3/Tag/User/{tagID}', `/api/v3/Tag/User/${tag.ID}`, { Name: 'swagger-check-2' });
    await call('PATCH', '/api/v3/Tag/User/{tagID}', `/api/v3/Tag/User/${tag.ID}`, patchName('/Name', 'swagger-check-3'));
    await call('DELETE', '/api/v3/Series/{seriesID}/Tags/User', `/api/v3/Series/${first.IDs.ID}/Tags/User`, { IDs: [tag.ID] });
    await call('DELETE', '/api/v3/Tag/User/{tagID}', `/api/v3/Tag/User/${tag.ID}`);

    await call('GET', '/api/v3/Filter/Expressions', '/api/v3/Filter/Expressions');
    await call('GET', '/api/v3/Filter/SortingCriteria', '/api/v3/Filter/SortingCriteria');
    const expression = { Type: 'And', Left: { Type: 'HasWatchedEpisodes' }, Right: { Type: 'Not', Left: { Type: 'IsFinished' } } };
    const filter = (await call('POST', '/api/v3/Filter', '/api/v3/Filter', {
      Name: 'Swagger check',
      Expression: expression,
      Sorting: { Type: 'Name', IsInverted: false, Next: { Type: 'AddedDate', IsInverted: true } },
    })) as { IDs: { ID: number } };
    const filterID = filter.IDs.ID;
    await call('GET', '/api/v3/Filter', '/api/v3/Filter?pageSize=0&showHidden=true');
    await call('GET', '/api/v3/Filter/{filterID}', `/api/v3/Filter/${filterID}?withConditions=true`);
    await call('PUT', '/api/v3/Filter/{filterID}', `/api/v3/Filter/${filterID}`, { Name: 'Swagger check 2', Expression: expression });
    await call('PATCH', '/api/v3/Filter/{filterID}', `/api/v3/Filter/${filterID}`, patchName('/Name', 'Swagger check 3'));
    await call('GET', '/api/v3/Filter/{filterID}/Group', `/api/v3/Filter/0/Group?pageSize=0`);
    await call('GET', '/api/v3/Filter/{filterID}/Group/Letters', `/api/v3/Filter/0/Group/Letters`);
    await call('GET', '/api/v3/Filter/{filterID}/Series', `/api/v3/Filter/0/Series?pageSize=0`);
    await call('GET', '/api/v3/Filter/{filterID}/Series/OnlyIDs', `/api/v3/Filter/0/Series/OnlyIDs`);
    await call('GET', '/api/v3/Filter/{filterID}/Group/{groupID}/Series', `/api/v3/Filter/0/Group/${created.IDs.ID}/Series`);
    await call('GET', '/api/v3/Filter/{filterID}/Group/{groupID}/Group', `/api/v3/Filter/0/Group/${created.IDs.ID}/Group`);
    const preview = { Expression: { Type: 'HasUnwatchedEpisodes' } };
    await call('POST', '/api/v3/Filter/Preview/Group', '/api/v3/Filter/Preview/Group', preview);
    await call('POST', '/api/v3/Filter/Preview/Series', '/api/v3/Filter/Preview/Series', preview);
    await call('POST', '/api/v3/Filter/Preview/Group/Letters', '/api/v3/Filter/Preview/Group/Letters', preview);
    await call('POST', '/api/v3/Filter/Preview/Series/OnlyIDs', '/api/v3/Filter/Preview/Series/OnlyIDs', preview);
    await call('POST', '/api/v3/Filter/Preview/Group/{groupID}/Series', `/api/v3/Filter/Preview/Group/${created.IDs.ID}/Series`, preview);
    await call('POST', '/api/v3/Filter/Preview/Group/{groupID}/Group', `/api/v3/Filter/Preview/Group/${created.IDs.ID}/Group`, preview);
    await call('DELETE', '/api/v3/Filter/{filterID}', `/api/v3/Filter/${filterID}`);
  }, 120_000);

  it('series page, AniDB anime, images, dashboard and release management', async () => {
    const fileID = [...demo.fileByPath.values()][0];
    await call('GET', '/api/v3/File/{fileID}/MediaInfo', `/api/v3/File/${fileID}/MediaInfo`);
    await call('GET', '/api/v3/AVDump/Status', '/api/v3/AVDump/Status');
    await call('GET', '/api/v3/Image/Random/{imageType}/Metadata', '/api/v3/Image/Random/Poster/Metadata');
    await call('GET', '/api/v3/Series/AniDB/Search', '/api/v3/Series/AniDB/Search?query=kiri');
    await call('GET', '/api/v3/Series/AniDB/Search/{query}', '/api/v3/Series/AniDB/Search/kiri');
    await call('GET', '/api/v3/Series/AniDB', '/api/v3/Series/AniDB?pageSize=0');
    for (const [anidbID, seriesID] of demo.seriesByAnime) {
      await call('GET', '/api/v3/Series/AniDB/{anidbID}', `/api/v3/Series/AniDB/${anidbID}`);
      await call('GET', '/api/v3/Series/AniDB/{anidbID}/Related', `/api/v3/Series/AniDB/${anidbID}/Related`);
      await call('GET', '/api/v3/Series/AniDB/{anidbID}/Similar', `/api/v3/Series/AniDB/${anidbID}/Similar`);
      await call('GET', '/api/v3/Series/{seriesID}/AniDB', `/api/v3/Series/${seriesID}/AniDB`);
      await call('GET', '/api/v3/Series/{seriesID}/AniDB/Related', `/api/v3/Series/${seriesID}/AniDB/Related`);
      await call('GET', '/api/v3/Series/{seriesID}/AniDB/Similar', `/api/v3/Series/${seriesID}/AniDB/Similar`);
      await call('GET', '/api/v3/Series/{seriesID}/Cast', `/api/v3/Series/${seriesID}/Cast`);
      await call('GET', '/api/v3/WebUI/Series/{seriesID}', `/api/v3/WebUI/Series/${seriesID}`);
      await call(
        'GET',
        '/api/v3/WebUI/Series/{seriesID}/FileSummary',
        `/api/v3/WebUI/Series/${seriesID}/FileSummary?groupBy=GroupName,FileVersion,FileSource,FileLocation,VideoCodecs,VideoBitDepth,VideoResolution,AudioCodecs,AudioLanguages,SubtitleCodecs,SubtitleLanguages&includeEpisodeDetails=true&includeLocationDetails=true&includeMissingFutureEpisodes=true&includeMissingUnknownEpisodes=true`,
      );
      await call('GET', '/api/v3/Series/{seriesID}/Images', `/api/v3/Series/${seriesID}/Images?includeDisabled=true`);
      await call('GET', '/api/v3/Series/{seriesID}/Images/{imageType}', `/api/v3/Series/${seriesID}/Images/Poster`);
      await call('GET', '/api/v3/Series/{seriesID}/TMDB/Season', `/api/v3/Series/${seriesID}/TMDB/Season`);
      const episodes = (await call('GET', '/api/v3/Series/{seriesID}/Episode', `/api/v3/Series/${seriesID}/Episode?pageSize=1`)) as {
        List: Array<{ IDs: { ID: number } }>;
      };
      const episodeID = episodes.List[0].IDs.ID;
      await call('GET', '/api/v3/Episode/{episodeID}/Images', `/api/v3/Episode/${episodeID}/Images`);
      await call('GET', '/api/v3/Episode/{episodeID}/Images/{imageType}', `/api/v3/Episode/${episodeID}/Images/Thumbnail`);
    }

    for (const path of [
      'Stats',
      'SeriesSummary',
      'RecentlyAddedEpisodes',
      'RecentlyAddedSeries',
      'ContinueWatchingEpisodes',
      'NextUpEpisodes',
      'TopTags',
    ]) {
      await call('GET', `/api/v3/Dashboard/${path}`, `/api/v3/Dashboard/${path}`);
    }
    await call('GET', '/api/v3/Dashboard/AniDBCalendar', '/api/v3/Dashboard/AniDBCalendar?showAll=true&numberOfDays=3650');
    await call('GET', '/api/v3/Dashboard/CalendarEpisodes', '/api/v3/Dashboard/CalendarEpisodes?startDate=2015-01-01&endDate=2030-12-31');
    await call('GET', '/api/v3/Series/AniDB/RecommendedForYou', '/api/v3/Series/AniDB/RecommendedForYou?showAll=true');

    const seriesIDs = [...demo.seriesByAnime.values()];
    for (const type of ['MultipleReleases', 'DuplicateFiles', 'MissingEpisodes']) {
      await call('GET', `/api/v3/ReleaseManagement/${type}/Series`, `/api/v3/ReleaseManagement/${type}/Series`);
      await call(
        'GET',
        `/api/v3/ReleaseManagement/${type}/Episodes`,
        `/api/v3/ReleaseManagement/${type}/Episodes?includeFiles=true&includeXRefs=true&includeDataFrom=AniDB`,
      );
      for (const seriesID of seriesIDs) {
        await call(
          'GET',
          `/api/v3/ReleaseManagement/${type}/Series/{seriesID}/Episodes`,
          `/api/v3/ReleaseManagement/${type}/Series/${seriesID}/Episodes?includeFiles=true`,
        );
      }
    }
    await call('GET', '/api/v3/ReleaseManagement/Series', '/api/v3/ReleaseManagement/Series');
    await call('GET', '/api/v3/ReleaseManagement/Episodes', '/api/v3/ReleaseManagement/Episodes?includeFiles=true');
    await call(
      'GET',
      '/api/v3/ReleaseManagement/MultipleReleases/FilesToDelete',
      '/api/v3/ReleaseManagement/MultipleReleases/FilesToDelete',
    );
    await call('GET', '/api/v3/ReleaseManagement/Episode/FilesToDelete', '/api/v3/ReleaseManagement/Episode/FilesToDelete');
    await call(
      'GET',
      '/api/v3/ReleaseManagement/DuplicateFiles/FileLocationsToAutoRemove',
      '/api/v3/ReleaseManagement/DuplicateFiles/FileLocationsToAutoRemove',
    );
    for (const seriesID of seriesIDs) {
      await call('GET', '/api/v3/ReleaseManagement/Series/{seriesID}', `/api/v3/ReleaseManagement/Series/${seriesID}`);
      for (const path of [
        'MultipleReleases/Series/{seriesID}/FilesToDelete',
        'DuplicateFiles/Series/{seriesID}/FileLocationsToAutoRemove',
        'Series/{seriesID}/Episode/FilesToDelete',
      ]) {
        await call('GET', `/api/v3/ReleaseManagement/${path}`, `/api/v3/ReleaseManagement/${path.replace('{seriesID}', String(seriesID))}`);
      }
    }
  }, 120_000);

  it('files and actions', async () => {
    const fileID = [...demo.fileByPath.values()][0];
    await call('GET', '/api/v3/File/{fileID}/Episode', `/api/v3/File/${fileID}/Episode?includeDataFrom=AniDB`);
    await call('GET', '/api/v3/File/{fileID}/Stream', `/api/v3/File/${fileID}/Stream`);
    await call('GET', '/api/v3/File/{fileID}/StreamDirectory/', `/api/v3/File/${fileID}/StreamDirectory/`);
    await call('GET', '/api/v3/File/{fileID}/Scrobble', `/api/v3/File/${fileID}/Scrobble?event=play&position=1000`);
    await call('POST', '/api/v3/File/{fileID}/Watched/{watched}?', `/api/v3/File/${fileID}/Watched/false`);
    await call('PUT', '/api/v3/File/{fileID}/Ignore', `/api/v3/File/${fileID}/Ignore?value=false`);
    await call('GET', '/api/v3/Action/RunImport', '/api/v3/Action/RunImport');
    await call('GET', '/api/v3/Action/SyncMyList', '/api/v3/Action/SyncMyList');
    await call('GET', '/api/v3/Image/Random/{imageType}', '/api/v3/Image/Random/Poster');
    await call('GET', '/api/v3/Queue/Types', '/api/v3/Queue/Types');
    await call('POST', '/api/v3/Queue/Pause', '/api/v3/Queue/Pause');
    await call('POST', '/api/v3/Queue/Resume', '/api/v3/Queue/Resume');
  });

  it('settings, themes and the Plex, Trakt and legacy helpers', async () => {
    const settings = (await call('GET', '/api/v3/Settings', '/api/v3/Settings')) as { AniDb: { Password: string | null } };
    // The secrets stay write-only: the demo server has an AniDB password stored, and GET shows it blank.
    expect(settings.AniDb.Password).toBe('');
    await call('GET', '/api/v3/WebUI/Theme.css', '/api/v3/WebUI/Theme.css');
    // A stylesheet-only theme in the themes folder (<home>/themes) is enough for the single-theme reads and the delete.
    fs.mkdirSync(path.join(demo.server.home, 'themes'), { recursive: true });
    fs.writeFileSync(path.join(demo.server.home, 'themes', 'swagger-check.css'), '.theme-swagger-check { --main: #123456; }\n');
    const themes = (await call('GET', '/api/v3/WebUI/Theme', '/api/v3/WebUI/Theme?forceRefresh=true')) as Array<{ ID: string }>;
    expect(themes.map((theme) => theme.ID)).toContain('swagger-check');
    await call('GET', '/api/v3/WebUI/Theme/{themeID}', '/api/v3/WebUI/Theme/swagger-check');
    await call('GET', '/api/v3/WebUI/Theme/{themeID}', '/api/v3/WebUI/Theme/swagger-check.css');
    await call('DELETE', '/api/v3/WebUI/Theme/{themeID}', '/api/v3/WebUI/Theme/swagger-check');
    await call('GET', '/api/trakt/sync', '/api/trakt/sync');
    await call('GET', '/api/webui/config', '/api/webui/config');
    await call('POST', '/api/webui/config', '/api/webui/config', {});
    await call('GET', '/plex/sync', '/plex/sync');
    await call('GET', '/plex/sync/all', '/plex/sync/all');
    await call('POST', '/plex/libraries', '/plex/libraries', []);
  });
});

/** What TMDB movies, shows, seasons and episodes are linked to, and the Plex helpers, on a server that talks to the fakes. */
describe('OpenAPI responses of the TMDB cross-lookups and the Plex helpers', () => {
  let started: TmdbFakeServer | undefined;
  let plex: FakePlex | undefined;
  let restoreEnv: (() => void) | undefined;
  let checker: Awaited<ReturnType<typeof openApiChecker>>;
  let call: (typeof checker)['call'];

  beforeAll(async () => {
    plex = await startFakePlex();
    restoreEnv = setEnv({ SHOKO_PLEXTV_URL: plex.url, SHOKO_PLEX_APP_URL: plex.url });
    started = await startServerWithTmdbFake([{ path: '/TMDB/UserApiKey', value: 'TESTKEY' }]);
    await seedTmdbLinks(started.server);
    checker = await openApiChecker(started.server, started.key);
    ({ call } = checker);
  });
  afterAll(async () => {
    await started?.close();
    await plex?.close();
    restoreEnv?.();
  });

  it('Plex: the login address, the server choice and the webhook', async () => {
    expect(await call('GET', '/plex/loginurl', '/plex/loginurl')).toMatch(/^http/);
    plex!.approvePin(plex!.pins[0].id);
    expect(await call('GET', '/plex/pin/authenticated', '/plex/pin/authenticated')).toBe(true);
    await call('POST', '/plex/server', '/plex/server', FAKE_PLEX_SERVER_ID);
    const admin = (await started!.server.request({ method: 'GET', url: '/api/v3/User/Current', key: started!.key })).json() as {
      ID: number;
    };
    await call('GET', '/plex/sync/{id}', `/plex/sync/${admin.ID}`);
    // Plex posts its events as a form; a play event is accepted and changes nothing.
    const event = {
      event: 'media.play',
      Account: { title: 'someone' },
      Server: { uuid: FAKE_PLEX_SERVER_ID },
      Metadata: { guid: 'plex://x' },
    };
    for (const url of ['/plex', '/plex.json']) {
      const res = await started!.server.app.inject({
        method: 'POST',
        url,
        headers: { apikey: started!.key, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `payload=${encodeURIComponent(JSON.stringify(event))}`,
      });
      checker.check('POST', url, res);
    }
  });

  it('answers the AniDB and Shoko entries of each TMDB entry as documented', async () => {
    const { movie, show, season, episode } = TMDB_LINKS;
    const entries = [
      ['Movie/{movieID}', `Movie/${movie}`, 'AniDB/Episode'],
      ['Show/{showID}', `Show/${show}`, 'AniDB/Episode'],
      ['Season/{seasonID}', `Season/${season}`, 'AniDB/Episode'],
      ['Episode/{episodeID}', `Episode/${episode}`, 'Anidb/Episode'],
    ];
    for (const [entry, url, anidbEpisode] of entries) {
      const base = '/api/v3/Tmdb/';
      const anime = (await call('GET', `${base}${entry}/AniDB/Anime`, `${base}${url}/AniDB/Anime`)) as unknown[];
      const anidbEpisodes = (await call('GET', `${base}${entry}/${anidbEpisode}`, `${base}${url}/${anidbEpisode}`)) as unknown[];
      const series = (await call(
        'GET',
        `${base}${entry}/Shoko/Series`,
        `${base}${url}/Shoko/Series?includeDataFrom=AniDB,TMDB`,
      )) as unknown[];
      const episodes = (await call(
        'GET',
        `${base}${entry}/Shoko/Episode`,
        `${base}${url}/Shoko/Episode?includeDataFrom=AniDB,TMDB&includeFiles=true&includeXRefs=true`,
      )) as unknown[];
      // Each entry is linked to one AniDB anime and episode, so every list has one item to check.
      expect([anime.length, anidbEpisodes.length, series.length, episodes.length], url).toEqual([1, 1, 1, 1]);
    }
    // The cross-references as CSV.
    expect(await call('POST', '/api/v3/Tmdb/Export', '/api/v3/Tmdb/Export', {})).toBeUndefined();
  });
});
