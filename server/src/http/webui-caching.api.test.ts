import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../test/harness.js';
import { consoleAssetCacheControl } from './webui.js';

describe('consoleAssetCacheControl', () => {
  it('keeps hashed build assets for good and revalidates everything else', () => {
    expect(consoleAssetCacheControl('/srv/webui/assets/DashboardPage-DDrh1ysk.js')).toBe('public, max-age=31536000, immutable');
    expect(consoleAssetCacheControl('/srv/webui/assets/AcknowledgementStep--Oz24K9E.js')).toContain('immutable');
    expect(consoleAssetCacheControl('C:\\webui\\assets\\index-COtzBroR.css')).toContain('immutable');
    expect(consoleAssetCacheControl('/srv/webui/version.json')).toBe('no-cache');
    expect(consoleAssetCacheControl('/srv/webui/favicon.svg')).toBe('no-cache');
    expect(consoleAssetCacheControl('/srv/webui/assets/app.js')).toBe('no-cache');
    expect(consoleAssetCacheControl('/srv/webui/assets-DDrh1ysk.js')).toBe('no-cache');
  });
});

describe('the console files over HTTP', () => {
  let server: TestServer;
  let webuiDir: string;

  beforeAll(async () => {
    webuiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-webui-caching-'));
    fs.mkdirSync(path.join(webuiDir, 'assets'));
    fs.writeFileSync(
      path.join(webuiDir, 'index.html'),
      '<!doctype html><html><head><base href="/webui/" /><script type="module" src="./assets/index-Ab12Cd34.js"></script></head></html>',
    );
    fs.writeFileSync(path.join(webuiDir, 'assets', 'index-Ab12Cd34.js'), 'export {};\n');
    fs.writeFileSync(path.join(webuiDir, 'version.json'), '{"package":"1.0.0"}\n');
    server = await createTestServer({ webuiDir });
  });

  afterAll(async () => {
    await server?.close();
    fs.rmSync(webuiDir, { recursive: true, force: true });
  });

  it('sends a hashed asset as immutable with an ETag, and answers its revalidation with 304', async () => {
    const first = await server.request({ method: 'GET', url: '/webui/assets/index-Ab12Cd34.js' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const etag = first.headers.etag;
    expect(etag).toBeTruthy();
    const again = await server.request({
      method: 'GET',
      url: '/webui/assets/index-Ab12Cd34.js',
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('has files without a hash and index.html revalidated on every use', async () => {
    const version = await server.request({ method: 'GET', url: '/webui/version.json' });
    expect(version.statusCode).toBe(200);
    expect(version.headers['cache-control']).toBe('no-cache');
    const index = await server.request({ method: 'GET', url: '/webui' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['cache-control']).toContain('no-store');
  });
});
