import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';

const patch = (server: TestServer, key: string | undefined, body: unknown, skipValidation?: boolean) =>
  server.request({ method: 'PATCH', url: `/api/v3/Settings${skipValidation ? '?skipValidation=true' : ''}`, key, body });

describe('settings API during the first run', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it('answers the whole settings object with the contract defaults, enums as numbers', async () => {
    const res = await server.request({ method: 'GET', url: '/api/v3/Settings' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      SettingsVersion: 11,
      FirstRun: true,
      AutoGroupSeriesRelationExclusions: ['same setting', 'character', 'other'],
      AniDb: {
        Username: null,
        HTTPServerUrl: 'http://api.anidb.net:9001',
        File_UpdateFrequency: 4,
        MyList_DeleteType: 4,
        MaxRelationDepth: 1,
      },
      Import: { VideoExtensions: ['MKV', 'AVI', 'MP4', 'MOV', 'OGM', 'WMV', 'MPG', 'MPEG', 'MK3D', 'M4V'] },
      Plugins: { Renamer: { DefaultRenamer: 'Default', RelocateOnImport: false } },
      LogRotator: { Enabled: true, Zip: true, Delete: true, Delete_Days: '' },
      TraktTv: { SyncFrequency: 4, TokenExpirationDate: '' },
      WebUI_Settings: '',
    });
    for (const section of ['Database', 'Quartz', 'Connectivity', 'Language', 'TMDB', 'Plex', 'FileQualityPreferences', 'Linux', 'Web']) {
      expect(body[section], section).toBeTypeOf('object');
    }
    expect(body.Database).not.toHaveProperty('LogSqlInConsole');
    expect(body.Web).not.toHaveProperty('AlwaysUseDeveloperExceptions');
  });

  it('refuses a validated patch while AniDB credentials are empty, naming the fields', async () => {
    const res = await patch(server, undefined, [{ op: 'replace', path: '/AutoGroupSeries', value: true }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'AniDb.Username': ['The Username field is required.'],
      'AniDb.Password': ['The Password field is required.'],
    });
  });

  it('saves with skipValidation during the first run, converting numeric strings', async () => {
    const res = await patch(
      server,
      undefined,
      [
        { op: 'replace', path: '/AniDb/Username', value: 'me' },
        { op: 'replace', path: '/anidb/file_updatefrequency', value: '6' },
        { op: 'replace', path: 'AniDb/MyList_DeleteType', value: 'MarkDeleted' },
        { op: 'add', path: '/Import/VideoExtensions/-', value: 'TS' },
        { op: 'replace', path: '/WebUI_Settings', value: '{"theme":"x","settingsRevision":10}' },
      ],
      true,
    );
    expect(res.statusCode).toBe(200);
    const body = (await server.request({ method: 'GET', url: '/api/v3/Settings' })).json();
    expect(body.AniDb).toMatchObject({ Username: 'me', File_UpdateFrequency: 6, MyList_DeleteType: 2 });
    expect(body.Import.VideoExtensions.at(-1)).toBe('TS');
    expect(body.WebUI_Settings).toBe('{"theme":"x","settingsRevision":10}');
  });
});

describe('settings API after the first run', () => {
  let server: TestServer;
  let adminKey: string;
  let userKey: string;

  beforeAll(async () => {
    server = await createTestServer();
    await patch(
      server,
      undefined,
      [
        { op: 'replace', path: '/AniDb/Username', value: 'anidb-user' },
        { op: 'replace', path: '/AniDb/Password', value: 's3cretpass' },
        { op: 'replace', path: '/TraktTv/AuthToken', value: 'trakt-token' },
      ],
      true,
    );
    adminKey = await completeFirstRun(server);
    userKey = (await createUser(server, adminKey, 'viewer', 'viewer-pass')).key;
  });
  afterAll(() => server.close());

  it('never returns secrets and keeps them when a patch leaves them out or blank', async () => {
    const before = await server.request({ method: 'GET', url: '/api/v3/Settings', key: adminKey });
    expect(before.json().AniDb.Password).toBe('');
    expect(before.json().TraktTv.AuthToken).toBe('');
    expect(before.body).not.toContain('s3cretpass');
    expect(before.body).not.toContain('trakt-token');
    const res = await patch(server, adminKey, [
      { op: 'replace', path: '/AniDb/Password', value: '' },
      { op: 'replace', path: '/AutoGroupSeries', value: true },
    ]);
    expect(res.statusCode).toBe(200);
    expect(server.services.settings.current.AniDb.Password).toBe('s3cretpass');
    expect(server.services.settings.current.TraktTv.AuthToken).toBe('trakt-token');
    expect(server.services.settings.current.AutoGroupSeries).toBe(true);
  });

  it('replaces a secret when a new value is sent', async () => {
    expect((await patch(server, adminKey, [{ op: 'replace', path: '/AniDb/Password', value: 'newpass1' }])).statusCode).toBe(200);
    expect(server.services.settings.current.AniDb.Password).toBe('newpass1');
  });

  it('checks Max Relation Depth with its message', async () => {
    const res = await patch(server, adminKey, [{ op: 'replace', path: '/AniDb/MaxRelationDepth', value: '6' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ 'AniDb.MaxRelationDepth': ['Max Relation Depth may only be between 0 and 5'] });
    expect(server.services.settings.current.AniDb.MaxRelationDepth).toBe(1);
  });

  it('checks the HTTP server URL', async () => {
    const res = await patch(server, adminKey, [{ op: 'replace', path: '/AniDb/HTTPServerUrl', value: 'ftp://anidb' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors['AniDb.HTTPServerUrl'][0]).toMatch(/^Invalid HTTP Server URL/);
    const ok = await patch(server, adminKey, [{ op: 'replace', path: '/AniDb/HTTPServerUrl', value: 'http://127.0.0.1:9001' }]);
    expect(ok.statusCode).toBe(200);
  });

  it('reports ranges and unconvertible values, saving nothing', async () => {
    const res = await patch(server, adminKey, [
      { op: 'replace', path: '/TMDB/MaxAutoPosters', value: 31 },
      { op: 'replace', path: '/Web/Port', value: 0 },
      { op: 'replace', path: '/AniDb/DownloadCharacters', value: 'maybe' },
      { op: 'replace', path: '/NoSuchSetting', value: 1 },
      { op: 'replace', path: '/Plugins/Renamer/RelocateOnImport', value: true },
    ]);
    expect(res.statusCode).toBe(400);
    const errors = res.json().errors;
    expect(errors['TMDB.MaxAutoPosters']).toEqual(['The field MaxAutoPosters must be between 0 and 30.']);
    expect(errors['Web.Port']).toEqual(['Server Port must be between 1 and 65535']);
    expect(errors.AniDbSettings).toHaveLength(1);
    expect(errors.ServerSettings).toHaveLength(1);
    expect(errors.RenamerSettings).toHaveLength(1);
    expect(server.services.settings.current.TMDB.MaxAutoPosters).toBe(10);
  });

  it('ignores skipValidation once the first run is over', async () => {
    const res = await patch(server, adminKey, [{ op: 'replace', path: '/AniDb/MaxRelationDepth', value: 9 }], true);
    expect(res.statusCode).toBe(400);
  });

  it('answers a null body with the contract message', async () => {
    const res = await patch(server, adminKey, null);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ Body: ['The settings object is invalid.'] });
  });

  it('is for admins only', async () => {
    expect((await server.request({ method: 'GET', url: '/api/v3/Settings', key: userKey })).statusCode).toBe(403);
    expect((await patch(server, userKey, [])).statusCode).toBe(403);
    expect((await server.request({ method: 'GET', url: '/api/v3/Settings' })).statusCode).toBe(401);
  });

  it('names blank AniDB test credentials', async () => {
    const res = await server.request({
      method: 'POST',
      url: '/api/v3/Settings/AniDB/TestLogin',
      key: adminKey,
      body: { Username: ' ', Password: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ Username: ['Username cannot be empty.'], Password: ['Password cannot be empty.'] });
  });

  it('lists the 121 supported languages with x-main last', async () => {
    const res = await server.request({ method: 'GET', url: '/api/v3/Settings/SupportedLanguages', key: adminKey });
    const languages = res.json();
    expect(languages).toHaveLength(121);
    expect(languages[0]).toEqual({ Name: 'English (Any)', Alpha2: 'en' });
    expect(languages.at(-1)).toEqual({ Name: 'Main', Alpha2: 'x-main' });
  });

  it('keeps saved settings across a restart', async () => {
    await server.close({ keepData: true });
    server = await createTestServer({ restartOf: server });
    expect(server.services.settings.current).toMatchObject({ FirstRun: false, AutoGroupSeries: true, AniDb: { Password: 'newpass1' } });
  });
});
