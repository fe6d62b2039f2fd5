import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, createUser, setEnv, type TestServer } from '../../test/harness.js';

/** A loopback stand-in for GitHub's API and theme hosts: path → [status, content type, body]. */
function fakeHost() {
  const routes = new Map<string, [number, string, string | Buffer]>();
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    const route = routes.get(request.url ?? '');
    if (!route) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
      return;
    }
    response.writeHead(route[0], { 'content-type': route[1] }).end(route[2]);
  });
  return {
    routes,
    requests,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A multipart body as a browser's FormData would send it. */
async function multipart(files: Array<{ name: string; fileName: string; content: string }>, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const file of files) form.append(file.name, new Blob([file.content]), file.fileName);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

/** A deflated zip archive of the given files. */
function zipOf(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const packed = deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const OCEAN = {
  name: 'Deep Ocean',
  version: '1.2',
  description: 'Blue panels',
  author: 'Tester',
  tags: ['dark'],
  values: { 'color-panel': '#102040', '--color-primary': 'rgb(0 120 255)' },
};

describe('WebUI themes', () => {
  let server: TestServer;
  let adminKey: string;
  let userKey: string;
  const host = fakeHost();
  let base: string;

  beforeAll(async () => {
    base = await host.start();
    server = await createTestServer();
    adminKey = await completeFirstRun(server);
    userKey = (await createUser(server, adminKey, 'viewer', 'viewer-pass')).key;
  });
  afterAll(async () => {
    await server.close();
    await host.stop();
  });

  const upload = async (
    files: Array<{ name?: string; fileName: string; content: string }>,
    fields: Record<string, string> = {},
    key = adminKey,
  ) => {
    const body = await multipart(
      files.map((f) => ({ name: f.name ?? 'file', ...f })),
      fields,
    );
    return server.app.inject({
      method: 'POST',
      url: '/api/v3/WebUI/Theme/AddFromFile',
      headers: { apikey: key, 'content-type': body.contentType },
      payload: body.payload,
    });
  };

  it('starts with no themes and an empty stylesheet, both anonymous', async () => {
    expect((await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme?forceRefresh=true' })).json()).toEqual([]);
    const css = await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body).toBe('');
  });

  it('previews an uploaded definition without installing it', async () => {
    const res = await upload([{ fileName: 'Deep_Ocean.json', content: JSON.stringify(OCEAN) }], { preview: 'true' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ID: 'deep-ocean', Name: 'Deep Ocean', IsPreview: true, IsInstalled: false, Version: '1.2.0.0' });
    expect(res.json().CSS).toContain('.theme-deep-ocean {');
    expect(fs.existsSync(path.join(server.home, 'themes', 'deep-ocean.json'))).toBe(false);
  });

  it('installs an uploaded definition and serves its CSS variables under the theme class', async () => {
    const res = await upload([{ fileName: 'Deep_Ocean.json', content: JSON.stringify({ ...OCEAN, css: '.panel { border-radius: 0; }' }) }]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ID: 'deep-ocean',
      Description: 'Blue panels',
      Author: 'Tester',
      Tags: ['dark'],
      IsInstalled: true,
      IsPreview: false,
      URL: null,
    });
    expect(fs.existsSync(path.join(server.home, 'themes', 'deep-ocean.json'))).toBe(true);

    const list = (await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme' })).json();
    expect(list).toHaveLength(1);
    expect(list[0].CSS).toBeUndefined();
    const css = (await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme.css' })).body;
    expect(css).toContain('.theme-deep-ocean {');
    expect(css).toContain('--color-panel: #102040;');
    expect(css).toContain('--color-primary: rgb(0 120 255);');
    expect(css).toContain('.panel { border-radius: 0; }');

    const one = await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme/deep-ocean', key: userKey });
    expect(one.json()).toMatchObject({ ID: 'deep-ocean', CSS: expect.stringContaining('--color-panel') });
    const oneCss = await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme/deep-ocean.css', key: userKey });
    expect(oneCss.headers['content-type']).toMatch(/^text\/css/);
    expect(oneCss.body).toContain('.theme-deep-ocean');
  });

  it('serves one theme as CSS at Theme/{themeID}.css without a key, and 404 text for an unknown one', async () => {
    const css = await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme/Deep-Ocean.CSS' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.body).toContain('.theme-deep-ocean {');
    expect(css.body).not.toContain('{"ID"');
    const missing = await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme/no-such-theme.css' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('A theme with the given id was not found.');
  });

  it('installs a CSS-only theme with derived name, default version and unknown author', async () => {
    const res = await upload([{ fileName: 'plain-night.css', content: '.theme-plain-night { --color-panel: #000; }' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ID: 'plain-night',
      Name: 'Plain Night',
      Author: '<unknown>',
      Version: '1.0.0.0',
      Description: null,
    });
    const ids = (await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme' })).json().map((t: { ID: string }) => t.ID);
    expect(ids).toEqual(['deep-ocean', 'plain-night']);
    expect((await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme.css' })).body).toContain(
      '.theme-plain-night { --color-panel: #000; }',
    );
  });

  it('refuses bad uploads with the contract messages and writes nothing outside the themes folder', async () => {
    let res = await upload([{ name: 'other', fileName: 'x.json', content: '{}' }]);
    expect(res.json().errors).toEqual({ file: ['File name cannot be empty or omitted.'] });
    res = await server.request({ method: 'POST', url: '/api/v3/WebUI/Theme/AddFromFile', key: adminKey, body: { file: 'x' } });
    expect(res.json().errors).toEqual({ file: ['File name cannot be empty or omitted.'] });
    res = await upload([{ fileName: 'theme.txt', content: 'x' }]);
    expect(res.json().errors).toEqual({ file: ['Unsupported file extension.'] });
    for (const fileName of ['../../evil.json', '1bad.json', 'bad name.css', '..json']) {
      res = await upload([{ fileName, content: JSON.stringify(OCEAN) }]);
      expect(res.statusCode, fileName).toBe(400);
    }
    res = await upload([{ fileName: 'bad name.css', content: 'x' }]);
    expect(res.json().errors).toEqual({ Body: ['Invalid theme file name.'] });
    res = await upload([{ fileName: 'empty.json', content: '   ' }]);
    expect(res.json().errors).toEqual({ Body: ['The theme definition cannot be empty.'] });
    res = await upload([{ fileName: 'broken.json', content: '{"version":' }]);
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('The theme definition is not valid JSON.');
    res = await upload([{ fileName: 'noauthor.json', content: JSON.stringify({ version: '1', values: { a: 'b' } }) }]);
    expect(res.json().errors.Body).toEqual(['The theme author is required.']);
    res = await upload([
      { fileName: 'inject.json', content: JSON.stringify({ ...OCEAN, values: { 'color-panel': 'red; } body { display: none' } }) },
    ]);
    expect(res.json().errors.Body[0]).toMatch(/Invalid value/);
    res = await upload([{ fileName: 'big.css', content: 'a'.repeat(1024 * 1024 + 10) }]);
    expect(res.statusCode).toBe(400);
    res = await upload([{ fileName: 'huge.css', content: 'a'.repeat(2 * 1024 * 1024) }]);
    expect(res.statusCode).toBe(413);
    expect(fs.readdirSync(path.join(server.home, 'themes')).sort()).toEqual(['deep-ocean.json', 'plain-night.css']);
    expect(fs.existsSync(path.join(server.home, 'evil.json'))).toBe(false);
  });

  it('keeps uploads, deletion and updates to admins', async () => {
    expect((await upload([{ fileName: 'x.css', content: 'x' }], {}, userKey)).statusCode).toBe(403);
    expect((await server.request({ method: 'DELETE', url: '/api/v3/WebUI/Theme/plain-night', key: userKey })).statusCode).toBe(403);
    // A single theme is public styling, as the list is.
    expect((await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme/plain-night' })).statusCode).toBe(200);
  });

  it('adds a theme from a URL with its CSS file, previews and applies an update, then deletes it', async () => {
    host.routes.set('/themes/sunset.json', [
      200,
      'application/json',
      JSON.stringify({ version: '1.0', author: 'Web', cssUrl: `${base}/themes/sunset.css`, updateUrl: `${base}/themes/sunset-next.json` }),
    ]);
    host.routes.set('/themes/sunset.css', [200, 'text/css', '.theme-sunset { --color-panel: #402010; }']);
    let res = await server.request({
      method: 'POST',
      url: '/api/v3/WebUI/Theme/AddFromURL',
      key: adminKey,
      body: { URL: `${base}/themes/sunset.json` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      ID: 'sunset',
      Version: '1.0.0.0',
      URL: `${base}/themes/sunset-next.json`,
      CSS: expect.stringContaining('--color-panel: #402010'),
    });
    expect(fs.readFileSync(path.join(server.home, 'themes', 'sunset.css'), 'utf8')).toContain('#402010');

    // Nothing newer online yet.
    host.routes.set('/themes/sunset-next.json', [
      200,
      'application/json',
      JSON.stringify({ version: '1.0.0', author: 'Web', values: { 'color-panel': '#000' } }),
    ]);
    res = await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme/sunset/Update', key: userKey });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['Version']);
    host.routes.set('/themes/sunset-next.json', [
      200,
      'application/json',
      JSON.stringify({ version: '1.1', author: 'Web', values: { 'color-panel': '#112233' }, updateUrl: `${base}/themes/sunset-next.json` }),
    ]);
    res = await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme/sunset/Update', key: userKey });
    expect(res.json()).toMatchObject({ ID: 'sunset', Version: '1.1.0.0', IsPreview: true });
    expect((await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme/sunset', key: userKey })).json().Version).toBe('1.0.0.0');
    res = await server.request({ method: 'POST', url: '/api/v3/WebUI/Theme/sunset/Update', key: adminKey });
    expect(res.json()).toMatchObject({ Version: '1.1.0.0', IsInstalled: true });
    expect((await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme.css' })).body).toContain('--color-panel: #112233;');
    res = await server.request({ method: 'POST', url: '/api/v3/WebUI/Theme/sunset/Update', key: adminKey });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);

    // Validation of the URL, and a host that is down.
    for (const URL of ['not a url', 'ftp://x/y.json', `${base}/themes/1bad.json`]) {
      res = await server.request({ method: 'POST', url: '/api/v3/WebUI/Theme/AddFromURL', key: adminKey, body: { URL } });
      expect(res.statusCode, URL).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual(['URL']);
    }
    res = await server.request({
      method: 'POST',
      url: '/api/v3/WebUI/Theme/AddFromURL',
      key: adminKey,
      body: { URL: `${base}/themes/missing.json` },
    });
    expect(res.statusCode).toBe(500);
    expect(res.body).toMatch(/HTTP 404/);

    expect((await server.request({ method: 'DELETE', url: '/api/v3/WebUI/Theme/sunset', key: adminKey })).statusCode).toBe(204);
    expect((await server.request({ method: 'DELETE', url: '/api/v3/WebUI/Theme/sunset', key: adminKey })).statusCode).toBe(404);
    res = await server.request({ method: 'GET', url: '/api/v3/WebUI/Theme/sunset', key: userKey });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('A theme with the given id was not found.');
    expect(fs.existsSync(path.join(server.home, 'themes', 'sunset.css'))).toBe(false);
  });
});

describe('WebUI release checks and update', () => {
  let server: TestServer;
  let userKey: string;
  let adminKey: string;
  let restoreEnv: () => void;
  const host = fakeHost();
  let webuiDir: string;

  beforeAll(async () => {
    const base = await host.start();
    restoreEnv = setEnv({ SHOKO_GITHUB_API_URL: `${base}/api`, SHOKO_CLIENT_REPO: 'test/console', SHOKO_SERVER_REPO: 'test/server' });
    webuiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-webui-'));
    fs.writeFileSync(path.join(webuiDir, 'index.html'), '<html>old console</html>');
    fs.writeFileSync(
      path.join(webuiDir, 'version.json'),
      JSON.stringify({ package: '0.1.0', channel: 'Stable', tag: 'v0.1.0', git: 'abc', date: '2026-01-01' }),
    );
    fs.mkdirSync(path.join(webuiDir, 'tweak'));
    fs.writeFileSync(path.join(webuiDir, 'tweak', 'custom.css'), 'body{}');
    server = await createTestServer({ webuiDir });
    adminKey = await completeFirstRun(server);
    userKey = (await createUser(server, adminKey, 'viewer', 'viewer-pass')).key;
  });
  afterEach(() => host.routes.clear());
  afterAll(async () => {
    await server.close();
    await host.stop();
    restoreEnv();
    fs.rmSync(webuiDir, { recursive: true, force: true });
  });

  const release = (tag: string, minimum: string | null, zip = true) => ({
    tag_name: tag,
    target_commitish: 'f00dcafe1234567',
    published_at: '2026-10-01T00:00:00Z',
    body: minimum ? `Notes\n\nMinimum Server Version: **${minimum}**` : 'Notes',
    assets: zip ? [{ name: `Shoko-WebUI-${tag}.zip`, browser_download_url: 'http://127.0.0.1:9/unused.zip' }] : [],
  });
  const get = (url: string) => server.request({ method: 'GET', url, key: userKey });

  it('answers 502 with the contract text while GitHub cannot be reached', async () => {
    const down = setEnv({ SHOKO_GITHUB_API_URL: 'http://127.0.0.1:9/api' });
    try {
      for (const url of ['/api/v3/WebUI/LatestVersion?force=true', '/api/v3/WebUI/LatestServerVersion?force=true&channel=Stable']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(502);
        expect(res.body).toBe('Unable to use the GitHub API to check for an update. Check your connection.');
      }
      // Installing a console changes it for everyone: admins only (the checks above are open to every account).
      const refused = await server.request({ method: 'POST', url: '/api/v3/WebUI/Update?channel=Stable', key: userKey });
      expect(refused.statusCode).toBe(403);
      const update = await server.request({ method: 'POST', url: '/api/v3/WebUI/Update?channel=Stable', key: adminKey });
      expect(update.statusCode).toBe(502);
      expect(update.json().title).toBe('Unable to connect to GitHub.');
      expect(fs.readFileSync(path.join(webuiDir, 'index.html'), 'utf8')).toBe('<html>old console</html>');
    } finally {
      down();
    }
  });

  it('finds the latest compatible console release per channel', async () => {
    host.routes.set('/api/repos/test/console/releases/latest', [200, 'application/json', JSON.stringify(release('v2.4.0', '5.1.0'))]);
    let res = await get('/api/v3/WebUI/LatestVersion?channel=stable&force=true');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      Version: '2.4.0',
      Tag: 'v2.4.0',
      MinimumServerVersion: '5.1.0',
      ReleaseChannel: 'Stable',
      Commit: 'f00dcafe1234567',
      ReleaseDate: '2026-10-01T00:00:00Z',
    });

    // The latest needs a newer server: the newest compatible release with a zip is offered instead.
    host.routes.set('/api/repos/test/console/releases/latest', [200, 'application/json', JSON.stringify(release('v9.0.0', '99.0.0'))]);
    host.routes.set('/api/repos/test/console/releases?per_page=100', [
      200,
      'application/json',
      JSON.stringify([
        release('v9.0.0', '99.0.0'),
        release('v2.5.0-dev.3', '5.0.0'),
        release('v2.3.1', '5.0.0', false),
        release('v2.3.0', '5.0.0'),
      ]),
    ]);
    res = await get('/api/v3/WebUI/LatestVersion?channel=1&force=true');
    expect(res.json()).toMatchObject({ Version: '2.3.0', ReleaseChannel: 'Stable' });
    res = await get('/api/v3/WebUI/LatestVersion?channel=Dev&force=true');
    expect(res.json()).toMatchObject({ Version: '2.5.0-dev.3', ReleaseChannel: 'Dev' });
    res = await get('/api/v3/WebUI/LatestVersion?channel=Stable&force=true&allowIncompatible=true');
    expect(res.json().Version).toBe('9.0.0');
    // Cached per channel until forced.
    host.routes.clear();
    expect((await get('/api/v3/WebUI/LatestVersion?channel=Dev')).json().Version).toBe('2.5.0-dev.3');
    expect((await get('/api/v3/WebUI/LatestVersion?channel=Bogus')).statusCode).toBe(400);
  });

  it('finds the latest server release and dev tag', async () => {
    host.routes.set('/api/repos/test/server/releases/latest', [
      200,
      'application/json',
      JSON.stringify({ tag_name: 'v5.3.3', body: 'Server notes', published_at: '2026-09-01T00:00:00Z' }),
    ]);
    let res = await get('/api/v3/WebUI/LatestServerVersion?channel=Stable&force=true');
    expect(res.json()).toMatchObject({ Version: '5.3.3.0', ReleaseChannel: 'Stable', Description: 'Server notes', Tag: 'v5.3.3' });
    host.routes.set('/api/repos/test/server/tags?per_page=100', [
      200,
      'application/json',
      JSON.stringify([
        { name: 'v5.3.3' },
        { name: 'v5.4.0-dev.12', commit: { sha: 'abc1234' } },
        { name: 'v5.4.0-dev.9' },
        { name: 'nightly' },
      ]),
    ]);
    res = await get('/api/v3/WebUI/LatestServerVersion?channel=Dev&force=true');
    expect(res.json()).toMatchObject({ Version: '5.4.0.12', ReleaseChannel: 'Dev', Tag: 'v5.4.0-dev.12', Commit: 'abc1234' });
    host.routes.set('/api/repos/test/server/tags?per_page=100', [200, 'application/json', JSON.stringify([{ name: 'nightly' }])]);
    res = await get('/api/v3/WebUI/LatestServerVersion?channel=Dev&force=true');
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('Unable to locate the latest release to use.');
  });

  it('updates the console from the release zip, keeping tweaks, and keeps the old console when the download fails', async () => {
    const base = `http://127.0.0.1:${new URL(process.env.SHOKO_GITHUB_API_URL!).port}`;
    const withZip = (url: string) => ({
      ...release('v2.4.0', '5.1.0'),
      assets: [{ name: 'Shoko-WebUI-v2.4.0.zip', browser_download_url: url }],
    });
    host.routes.set('/api/repos/test/console/releases/latest', [200, 'application/json', JSON.stringify(withZip(`${base}/missing.zip`))]);
    let res = await server.request({ method: 'POST', url: '/api/v3/WebUI/Update?channel=Stable', key: adminKey });
    expect(res.statusCode).toBe(502);
    expect(fs.readFileSync(path.join(webuiDir, 'index.html'), 'utf8')).toBe('<html>old console</html>');

    host.routes.set('/api/repos/test/console/releases/latest', [200, 'application/json', JSON.stringify(withZip(`${base}/console.zip`))]);
    host.routes.set('/console.zip', [
      200,
      'application/zip',
      zipOf({ 'index.html': '<html>new console</html>', 'assets/app.js': 'console.log(1)' }),
    ]);
    res = await server.request({ method: 'POST', url: '/api/v3/WebUI/Update?channel=Stable', key: adminKey });
    expect(res.statusCode, res.body).toBe(204);
    expect(fs.readFileSync(path.join(webuiDir, 'index.html'), 'utf8')).toBe('<html>new console</html>');
    expect(fs.readFileSync(path.join(webuiDir, 'assets', 'app.js'), 'utf8')).toBe('console.log(1)');
    expect(fs.readFileSync(path.join(webuiDir, 'tweak', 'custom.css'), 'utf8')).toBe('body{}');
    expect(JSON.parse(fs.readFileSync(path.join(webuiDir, 'version.json'), 'utf8'))).toMatchObject({ package: '2.4.0', channel: 'Stable' });
    expect((await server.request({ method: 'GET', url: '/webui' })).body).toBe('<html>new console</html>');

    // An archive that would write outside the folder is refused before anything changes.
    host.routes.set('/console.zip', [200, 'application/zip', zipOf({ 'index.html': 'evil', '../escape.txt': 'x' })]);
    res = await server.request({ method: 'POST', url: '/api/v3/WebUI/Update?channel=Stable', key: adminKey });
    expect(res.statusCode).toBe(400);
    expect(fs.readFileSync(path.join(webuiDir, 'index.html'), 'utf8')).toBe('<html>new console</html>');
    expect(fs.existsSync(path.join(path.dirname(webuiDir), 'escape.txt'))).toBe(false);
  });

  it('installs a console without a key only in place of the bootstrapper page', async () => {
    // A real console is installed: Install refuses and leaves it alone.
    let res = await server.request({ method: 'POST', url: '/api/v3/WebUI/Install?channel=Stable' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ Request: ['Unable to install web UI when a web UI is already installed.'] });
    expect(fs.readFileSync(path.join(webuiDir, 'index.html'), 'utf8')).toBe('<html>new console</html>');

    fs.writeFileSync(path.join(webuiDir, 'index.html'), '<html><div id="install-web-ui"></div></html>');
    const base = `http://127.0.0.1:${new URL(process.env.SHOKO_GITHUB_API_URL!).port}`;
    host.routes.set('/api/repos/test/console/releases/latest', [
      200,
      'application/json',
      JSON.stringify({
        ...release('v2.5.0', '5.1.0'),
        assets: [{ name: 'Shoko-WebUI-v2.5.0.zip', browser_download_url: `${base}/console.zip` }],
      }),
    ]);
    host.routes.set('/console.zip', [200, 'application/zip', zipOf({ 'index.html': '<html>installed console</html>' })]);
    res = await server.request({ method: 'GET', url: '/api/v3/WebUI/Install?channel=Stable' });
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/webui/index.html');
    expect(fs.readFileSync(path.join(webuiDir, 'index.html'), 'utf8')).toBe('<html>installed console</html>');
  });

  it('answers the legacy v2 /api/webui/config stubs with their 400, to users only', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await server.request({
        method,
        url: '/api/webui/config',
        key: userKey,
        ...(method === 'POST' ? { body: { a: 1 } } : {}),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 400,
        message: 'Config is not a Valid.',
        details: [{ Item1: 'Config is not a Valid.', Item2: '' }],
      });
      expect((await server.request({ method, url: '/api/WebUI/Config' })).statusCode).toBe(401);
    }
  });
});
