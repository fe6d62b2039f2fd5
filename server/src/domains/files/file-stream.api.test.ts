import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeFirstRun, createTestServer, type TestServer } from '../../test/harness.js';

const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), '../../media/mediainfo/fixtures');

/**
 * Players read a file's bytes over HTTP (contract files.md F18–F21): byte ranges, validators, HEAD, the API key in
 * the query string, external subtitles beside the video, and nothing outside the import folder.
 */
describe('file stream API', () => {
  let server: TestServer;
  let key: string;
  let media: string;
  let outside: string;
  const ids: Record<string, number> = {};
  const mkv = fs.readFileSync(path.join(FIXTURES, 'sample.mkv'));
  const size = mkv.length;
  const subtitle = fs.readFileSync(path.join(FIXTURES, 'source', 'signs.ass'));

  const get = (url: string, headers: Record<string, string> = {}, method = 'GET', apiKey: string | null = key) =>
    server.request({ method, url, key: apiKey ?? undefined, headers });
  const stream = () => `/api/v3/File/${ids['Episode 01.mkv']}/Stream`;

  beforeAll(async () => {
    server = await createTestServer();
    key = await completeFirstRun(server);
    media = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-stream-'));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-outside-'));
    const write = (relative: string, data: Buffer | string) => {
      fs.mkdirSync(path.dirname(path.join(media, relative)), { recursive: true });
      fs.writeFileSync(path.join(media, relative), data);
    };
    write('Show/Episode 01.mkv', mkv);
    write('Show/Episode 01.en.ass', subtitle);
    write('Show/Episode 01.de.srt', '1\n00:00:00,000 --> 00:00:01,000\nHallo\n');
    write('Show/Episode 01.fr.vtt', 'WEBVTT\n\n00:00.000 --> 00:01.000\nSalut\n');
    write('Show/Episode 01.es.ssa', subtitle);
    write('Movie/Film.mp4', fs.readFileSync(path.join(FIXTURES, 'sample.mp4')));
    write('Other/clip.webm', fs.readFileSync(path.join(FIXTURES, 'sample.webm')));
    write('Other/old.avi', Buffer.alloc(5000, 7));
    write('Other/linked.avi', Buffer.alloc(6000, 8));
    write('Other/gone.mkv', Buffer.alloc(7000, 9));
    fs.writeFileSync(path.join(outside, 'secret.avi'), Buffer.alloc(6000, 1));
    const folder = (
      await server.request({ method: 'POST', url: '/api/v3/ImportFolder', key, body: { Name: 'Media', Path: media } })
    ).json();
    await get(`/api/v3/ImportFolder/${folder.ID}/Scan`);
    await server.services.queue.idle();
    const list = (await get('/api/v3/File?pageSize=0')).json().List as Array<{ ID: number; Locations: Array<{ RelativePath: string }> }>;
    for (const file of list) ids[path.basename(file.Locations[0].RelativePath)] = file.ID;
    // (.webm is not among the default video extensions: it is only served as a file beside a video.)
    expect(Object.keys(ids).sort()).toEqual(['Episode 01.mkv', 'Film.mp4', 'gone.mkv', 'linked.avi', 'old.avi']);
    // After the scan: one copy leaves the disk, another becomes a link to a file outside the import folder.
    fs.rmSync(path.join(media, 'Other/gone.mkv'));
    fs.rmSync(path.join(media, 'Other/linked.avi'));
    fs.symlinkSync(path.join(outside, 'secret.avi'), path.join(media, 'Other/linked.avi'));
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    for (const dir of [media, outside]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends the whole file with its type, length, validators and download name', async () => {
    const res = await get(stream());
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(mkv)).toBe(true);
    expect(res.headers).toMatchObject({
      'accept-ranges': 'bytes',
      'content-type': 'video/x-matroska',
      'content-length': String(size),
      'content-disposition': `attachment; filename="Episode 01.mkv"; filename*=UTF-8''Episode%2001.mkv`,
    });
    expect(res.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Date(String(res.headers['last-modified'])).getTime()).toBe(
      Math.floor(fs.statSync(path.join(media, 'Show/Episode 01.mkv')).mtimeMs / 1000) * 1000,
    );
    const types: Record<string, string> = { 'Film.mp4': 'video/mp4', 'old.avi': 'video/x-msvideo' };
    for (const [name, type] of Object.entries(types)) {
      const other = await get(`/api/v3/File/${ids[name]}/Stream`);
      expect(other.statusCode, name).toBe(200);
      expect(other.headers['content-type'], name).toBe(type);
    }
    const webm = await get(`/api/v3/File/${ids['old.avi']}/StreamDirectory/ExternalSub/clip.webm`);
    expect(webm.headers['content-type']).toBe('video/webm');
    expect(webm.rawPayload.equals(fs.readFileSync(path.join(FIXTURES, 'sample.webm')))).toBe(true);
  });

  it('serves single byte ranges exactly: bounded, open-ended, suffix, clamped and one-byte', async () => {
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=1000-1999', 1000, 1999],
      [`bytes=${size - 10}-`, size - 10, size - 1],
      ['bytes=-50', size - 50, size - 1],
      [`bytes=-${size * 2}`, 0, size - 1],
      ['bytes=0-0', 0, 0],
      [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
      [`bytes=10-${size + 1000}`, 10, size - 1],
      ['BYTES = 5-9', 5, 9],
    ];
    for (const [range, start, end] of cases) {
      const res = await get(stream(), { range });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers['content-length'], range).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(mkv.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers 416 for a range past the end and ignores ranges it does not serve', async () => {
    for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 10}`, 'bytes=-0']) {
      const res = await get(stream(), { range });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers['content-range'], range).toBe(`bytes */${size}`);
      expect(res.rawPayload.length, range).toBe(0);
    }
    // Invalid, multiple or other-unit ranges: the whole file.
    for (const range of ['bytes=9-5', 'bytes=0-1,5-6', 'items=0-5', 'bytes=abc', 'bytes=-']) {
      const res = await get(stream(), { range });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.equals(mkv), range).toBe(true);
    }
  });

  it('honours If-Range only while the validator still matches, and If-None-Match', async () => {
    const { etag, 'last-modified': lastModified } = (await get(stream(), {}, 'HEAD')).headers as Record<string, string>;
    const partial = await get(stream(), { range: 'bytes=0-9', 'if-range': etag });
    expect(partial.statusCode).toBe(206);
    expect(partial.rawPayload.equals(mkv.subarray(0, 10))).toBe(true);
    expect((await get(stream(), { range: 'bytes=0-9', 'if-range': lastModified })).statusCode).toBe(206);
    for (const stale of ['"0-0"', `W/${etag}`, new Date(Date.parse(lastModified) - 60_000).toUTCString()]) {
      const res = await get(stream(), { range: 'bytes=0-9', 'if-range': stale });
      expect(res.statusCode, stale).toBe(200);
      expect(res.rawPayload.equals(mkv), stale).toBe(true);
    }
    const cached = await get(stream(), { 'if-none-match': etag });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    expect((await get(stream(), { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const head = await get(stream(), {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(size));
    expect(head.headers['accept-ranges']).toBe('bytes');
    expect(head.headers['content-type']).toBe('video/x-matroska');
    expect(head.rawPayload.length).toBe(0);
    const ranged = await get(stream(), { range: 'bytes=100-' }, 'HEAD');
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 100-${size - 1}/${size}`);
    expect(ranged.headers['content-length']).toBe(String(size - 100));
    expect(ranged.rawPayload.length).toBe(0);

    // Over a real connection too: HEAD carries no body, a range arrives byte-exact.
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
    const wireHead = await fetch(`${base}${stream()}?apikey=${key}`, { method: 'HEAD' });
    expect(wireHead.status).toBe(200);
    expect(wireHead.headers.get('content-length')).toBe(String(size));
    expect((await wireHead.arrayBuffer()).byteLength).toBe(0);
    const wireRange = await fetch(`${base}${stream()}?apikey=${key}`, { headers: { range: 'bytes=-300' } });
    expect(wireRange.status).toBe(206);
    expect(Buffer.from(await wireRange.arrayBuffer()).equals(mkv.subarray(size - 300))).toBe(true);
  });

  it('takes the API key from the query string, and needs one', async () => {
    const byQuery = await get(`${stream()}?apikey=${encodeURIComponent(key)}`, { range: 'bytes=0-3' }, 'GET', null);
    expect(byQuery.statusCode).toBe(206);
    expect(byQuery.rawPayload.equals(mkv.subarray(0, 4))).toBe(true);
    expect((await get(stream(), {}, 'GET', null)).statusCode).toBe(401);
    expect((await get(`${stream()}?apikey=not-a-key`, {}, 'GET', null)).statusCode).toBe(401);
    expect((await get(stream(), {}, 'HEAD', null)).statusCode).toBe(401);
  });

  it('answers the contract texts for unknown ids, bad ids and copies that cannot be read', async () => {
    const unknown = await get('/api/v3/File/999999/Stream');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe('No File entry for the given fileID');
    const bad = await get('/api/v3/File/0/Stream');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toContain('fileID');
    expect(Object.keys((await get('/api/v3/File/x/StreamDirectory/a.mkv')).json().errors)).toContain('fileID');
    for (const name of ['gone.mkv', 'linked.avi']) {
      const res = await get(`/api/v3/File/${ids[name]}/Stream`);
      expect(res.statusCode, name).toBe(500);
      expect(res.body, name).toBe('Unable to find physical file for reading the stream data.');
    }
  });

  it('serves a named copy, lists external subtitles and serves them, confined to the folder', async () => {
    const named = await get(`/api/v3/File/${ids['Episode 01.mkv']}/StreamDirectory/Episode%2001.mkv`, { range: 'bytes=0-15' });
    expect(named.statusCode).toBe(206);
    expect(named.rawPayload.equals(mkv.subarray(0, 16))).toBe(true);
    const renamed = await get(`/api/v3/File/${ids['Episode 01.mkv']}/StreamDirectory/Any%20Name.mkv`, {}, 'HEAD');
    expect(renamed.statusCode).toBe(200);
    expect(renamed.headers['content-disposition']).toContain('filename="Any Name.mkv"');

    const listing = await get(`/api/v3/File/${ids['Episode 01.mkv']}/StreamDirectory/?apikey=${key}`, {}, 'GET', null);
    expect(listing.statusCode).toBe(200);
    expect(listing.headers['content-type']).toContain('text/plain');
    const links = [...listing.body.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    expect(listing.body.startsWith('<table><tr><td><a href="http')).toBe(true);
    expect(links.map((link) => decodeURIComponent(new URL(link).pathname.split('/').pop()!)).sort()).toEqual([
      'Episode 01.de.srt',
      'Episode 01.en.ass',
      'Episode 01.es.ssa',
      'Episode 01.fr.vtt',
    ]);
    const assLink = new URL(links.find((l) => l.includes('.en.ass'))!);
    expect(assLink.searchParams.get('apikey')).toBe(key);
    const ass = await get(`${assLink.pathname}${assLink.search}`, {}, 'GET', null);
    expect(ass.statusCode).toBe(200);
    expect(ass.headers['content-type']).toBe('text/x-ssa');
    expect(ass.rawPayload.equals(subtitle)).toBe(true);
    const sub = (name: string) => `/api/v3/File/${ids['Episode 01.mkv']}/StreamDirectory/ExternalSub/${encodeURIComponent(name)}`;
    expect((await get(sub('Episode 01.de.srt'))).headers['content-type']).toBe('application/x-subrip');
    expect((await get(sub('Episode 01.fr.vtt'))).headers['content-type']).toBe('text/vtt');
    expect((await get(sub('Episode 01.es.ssa'))).headers['content-type']).toBe('text/x-ssa');
    const partialSub = await get(sub('Episode 01.en.ass'), { range: 'bytes=-20' });
    expect(partialSub.statusCode).toBe(206);
    expect(partialSub.rawPayload.equals(subtitle.subarray(subtitle.length - 20))).toBe(true);

    for (const escape of ['missing.srt', '../Movie/Film.mp4', `../../${path.basename(outside)}/secret.avi`, '..\\Movie\\Film.mp4']) {
      const res = await get(sub(escape));
      expect(res.statusCode, escape).toBe(404);
      expect(res.rawPayload.length, escape).toBe(0);
    }
    // A link beside the video that leads out of the import folder is not served either.
    fs.symlinkSync(path.join(outside, 'secret.avi'), path.join(media, 'Show/leak.srt'));
    expect((await get(sub('leak.srt'))).statusCode).toBe(404);
    expect((await get('/api/v3/File/999999/StreamDirectory')).statusCode).toBe(404);
  });

  it('marks the file watched once a scrobbling stream was read to the end', async () => {
    const fileId = ids['Film.mp4'];
    const stats = async () => (await get(`/api/v3/File/${fileId}/UserStats`)).json() as { WatchedCount?: number };
    expect((await get(`/api/v3/File/${fileId}/Stream?streamPositionScrobbling=true`, { range: 'bytes=0-99' })).statusCode).toBe(206);
    expect((await get(`/api/v3/File/${fileId}/Stream`)).statusCode).toBe(200);
    expect((await get(`/api/v3/File/${fileId}/UserStats`)).statusCode).toBe(404);
    expect((await get(`/api/v3/File/${fileId}/Stream?streamPositionScrobbling=true`)).statusCode).toBe(200);
    await expect.poll(async () => (await stats()).WatchedCount).toBe(1);
  });
});
