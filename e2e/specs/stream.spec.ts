import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { completeFirstRunViaApi, LOCAL_USER, repoRoot, startShoko, type ShokoServer } from '../support/server';

/** A one-second H.264/AAC MP4 (see the fixture folder's README); Debian's chromium decodes it. */
const SAMPLE_MP4 = path.join(repoRoot, 'server', 'src', 'media', 'mediainfo', 'fixtures', 'sample.mp4');

/**
 * A player that cannot set headers streams a file with the key in the query string: Chromium's own media stack
 * loads it (with byte-range requests), plays it and seeks in it.
 */
test.describe('streaming a file to a video element', () => {
  let server: ShokoServer;
  let media: string;
  let key: string;
  let fileId: number;

  test.beforeAll(async () => {
    media = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-stream-e2e-')));
    fs.mkdirSync(path.join(media, 'Clips'));
    fs.copyFileSync(SAMPLE_MP4, path.join(media, 'Clips', 'Navy Clip.mp4'));
    server = await startShoko();
    await completeFirstRunViaApi(server);
    const login = await fetch(server.url('/api/auth'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: LOCAL_USER.username, pass: LOCAL_USER.password, device: 'stream-e2e' }),
    });
    expect(login.status).toBe(200);
    key = ((await login.json()) as { apikey: string }).apikey;
    const api = (pathname: string, init: RequestInit = {}) =>
      fetch(server.url(pathname), { ...init, headers: { apikey: key, 'content-type': 'application/json', ...init.headers } });
    const folder = await api('/api/v3/ImportFolder', { method: 'POST', body: JSON.stringify({ Name: 'Clips', Path: media }) });
    expect(folder.status).toBe(200);
    const folderId = ((await folder.json()) as { ID: number }).ID;
    expect((await api(`/api/v3/ImportFolder/${folderId}/Scan`)).status).toBe(200);
    await expect
      .poll(async () => ((await (await api('/api/v3/File?pageSize=0')).json()) as { Total: number }).Total, { timeout: 60_000 })
      .toBe(1);
    fileId = ((await (await api('/api/v3/File?pageSize=0')).json()) as { List: Array<{ ID: number }> }).List[0].ID;
  });

  test.afterAll(async () => {
    await server?.stop();
    if (media) fs.rmSync(media, { recursive: true, force: true });
  });

  test('Chromium plays and seeks an MP4 served by File/{id}/Stream?apikey=', async ({ page }) => {
    const streamPath = `/api/v3/File/${fileId}/Stream?apikey=${encodeURIComponent(key)}`;
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (response.url().includes(`/api/v3/File/${fileId}/Stream`)) statuses.push(response.status());
    });
    // A page of the server's own origin, under its Content-Security-Policy (media-src 'self').
    await page.goto(server.url('/webui/login'));

    const loaded = await page.evaluate(async (src) => {
      const video = document.createElement('video');
      video.id = 'player';
      video.muted = true;
      video.preload = 'auto';
      document.body.append(video);
      await new Promise<void>((resolve, reject) => {
        video.addEventListener('loadeddata', () => resolve(), { once: true });
        video.addEventListener('error', () => reject(new Error(`media error ${video.error?.code}: ${video.error?.message}`)), {
          once: true,
        });
        video.src = src;
      });
      return { readyState: video.readyState, duration: video.duration, width: video.videoWidth, height: video.videoHeight };
    }, streamPath);
    expect(loaded.readyState).toBeGreaterThanOrEqual(2);
    expect(loaded.duration).toBeGreaterThan(0);
    expect({ width: loaded.width, height: loaded.height }).toEqual({ width: 1280, height: 720 });

    // Play: the position moves past the start.
    await page.evaluate(async () => {
      const video = document.getElementById('player') as HTMLVideoElement;
      await video.play();
      if (video.currentTime > 0) return;
      await new Promise<void>((resolve) => {
        const check = () => {
          if (video.currentTime > 0) {
            video.removeEventListener('timeupdate', check);
            resolve();
          }
        };
        video.addEventListener('timeupdate', check);
      });
    });
    expect(await page.evaluate(() => (document.getElementById('player') as HTMLVideoElement).currentTime)).toBeGreaterThan(0);

    // Seek to a later point than the start: the seek completes (seeked) at that position.
    const seeked = await page.evaluate(async () => {
      const video = document.getElementById('player') as HTMLVideoElement;
      video.pause();
      const target = video.duration * 0.75;
      await new Promise<void>((resolve) => {
        video.addEventListener('seeked', () => resolve(), { once: true });
        video.currentTime = target;
      });
      return { target, currentTime: video.currentTime, seeking: video.seeking, readyState: video.readyState };
    });
    expect(seeked.seeking).toBe(false);
    expect(seeked.currentTime).toBeCloseTo(seeked.target, 1);
    expect(seeked.readyState).toBeGreaterThanOrEqual(2);

    // Chromium asked for byte ranges and got partial answers; nothing was refused.
    expect(statuses).toContain(206);
    expect(statuses.every((status) => status === 200 || status === 206)).toBe(true);
  });
});
