import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
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
    // The compressed variants the build writes beside an asset.
    expect(consoleAssetCacheControl('/srv/webui/assets/DashboardPage-DDrh1ysk.js.br')).toContain('immutable');
    expect(consoleAssetCacheControl('/srv/webui/assets/index-COtzBroR.css.gz')).toContain('immutable');
    expect(consoleAssetCacheControl('/srv/webui/version.json.gz')).toBe('no-cache');
  });
});

describe('the console files over HTTP', () => {
  let server: TestServer;
  let webuiDir: string;
  // A script big enough to be worth compressing, with its variants as the build writes them.
  const script = Buffer.from(
    Array.from({ length: 200 }, (_, n) => `export const value${n} = ${JSON.stringify(`the console's script, line ${n}`)};\n`).join(''),
  );

  beforeAll(async () => {
    webuiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-webui-caching-'));
    fs.mkdirSync(path.join(webuiDir, 'assets'));
    fs.writeFileSync(
      path.join(webuiDir, 'index.html'),
      '<!doctype html><html><head><base href="/webui/" /><script type="module" src="./assets/index-Ab12Cd34.js"></script></head></html>',
    );
    fs.writeFileSync(path.join(webuiDir, 'assets', 'index-Ab12Cd34.js'), 'export {};\n');
    fs.writeFileSync(path.join(webuiDir, 'version.json'), '{"package":"1.0.0"}\n');
    const page = path.join(webuiDir, 'assets', 'SeriesPage-Xy98Zw76.js');
    fs.writeFileSync(page, script);
    fs.writeFileSync(`${page}.br`, zlib.brotliCompressSync(script));
    fs.writeFileSync(`${page}.gz`, zlib.gzipSync(script));
    fs.mkdirSync(path.join(webuiDir, '.vite'));
    fs.writeFileSync(path.join(webuiDir, '.vite', 'manifest.json'), '{}\n');
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

  it('sends a hashed script Brotli- or gzip-compressed to a browser that accepts it, the same bytes once decoded', async () => {
    const url = '/webui/assets/SeriesPage-Xy98Zw76.js';
    const brotli = await server.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toMatch(/javascript/);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(brotli.rawPayload.length).toBeLessThan(script.length);
    expect(zlib.brotliDecompressSync(brotli.rawPayload).equals(script)).toBe(true);
    const revalidated = await server.request({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'br', 'if-none-match': String(brotli.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);

    const gzip = await server.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['cache-control']).toContain('immutable');
    expect(zlib.gunzipSync(gzip.rawPayload).equals(script)).toBe(true);

    const plain = await server.request({ method: 'GET', url });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toContain('immutable');
    expect(plain.rawPayload.equals(script)).toBe(true);
  });

  it('serves nothing from the dot-folders of the build (its manifest)', async () => {
    const manifest = await server.request({ method: 'GET', url: '/webui/.vite/manifest.json' });
    expect(manifest.statusCode).toBe(404);
  });
});
