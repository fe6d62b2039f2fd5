import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startDemo, type RunningDemo } from '../../fakes/src/demo/demo';
import { DEMO_CUE_TEXT } from '../../fakes/src/demo/demo-media';
import { loginThroughForm } from '../support/console';
import { snap } from '../support/screenshots';
import { completeFirstRunViaApi, freePort, LOCAL_USER, startShoko, type ShokoServer } from '../support/server';

/**
 * The console's player on the demo's playable episodes (Yuugure Densha 1–3, made with ffmpeg): a Matroska file the
 * browser plays itself with styled ASS subtitles, two audio tracks and OP/ED chapters; an HEVC/FLAC file the server
 * transcodes; an MP4 with an external SubRip file.
 */
let demo: RunningDemo;
let home: string;
const episodes = {} as Record<'ass' | 'hevc' | 'srt', { fileId: number; episodeId: number }>;
let seriesId: number;

interface PlaybackInfo {
  FileID: number;
  EpisodeIDs: number[];
  SeriesID: number | null;
  Audio: Array<{ Index: number; Language: string | null }>;
  ResumePosition: number | null;
}

async function api<T>(pathname: string): Promise<T> {
  const response = await fetch(`${demo.baseUrl}${pathname}`, { headers: { apikey: demo.apiKey } });
  expect(response.status, pathname).toBe(200);
  return (await response.json()) as T;
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-player-'));
  demo = await startDemo({ home, port: await freePort(), stdio: 'pipe', playableMedia: true });
  test.skip(!demo.playableMedia, 'ffmpeg is needed to make the demo’s playable episodes');
  const files = await api<{ List: Array<{ ID: number; Locations: Array<{ RelativePath: string }> }> }>('/api/v3/File?pageSize=0');
  for (const [kind, number] of [
    ['ass', '01'],
    ['hevc', '02'],
    ['srt', '03'],
  ] as const) {
    const file = files.List.find((candidate) => candidate.Locations.some((l) => l.RelativePath.includes(`Yuugure Densha - ${number}`)));
    expect(file, `demo episode ${number}`).toBeTruthy();
    const info = await api<PlaybackInfo>(`/api/v3/File/${file!.ID}/Playback`);
    episodes[kind] = { fileId: info.FileID, episodeId: info.EpisodeIDs[0] };
    seriesId = info.SeriesID!;
  }
});

test.afterAll(async () => {
  await demo?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const video = (page: Page) => page.getByTestId('player-video');
const currentTime = (page: Page) => video(page).evaluate((element: HTMLVideoElement) => element.currentTime);
const player = (page: Page) => page.getByTestId('player');

/** Seeks with the seek bar, as a viewer dragging it would. */
async function seekBar(page: Page, seconds: number) {
  await page.mouse.move(400, 400);
  await page.getByTestId('player-seek').fill(String(seconds));
}

async function setPaused(page: Page, paused: boolean) {
  await video(page).evaluate((element: HTMLVideoElement, pause) => (pause ? element.pause() : void element.play()), paused);
}

async function seekAndWait(page: Page, seconds: number) {
  await video(page).evaluate(
    (element: HTMLVideoElement, to) =>
      new Promise<void>((resolve) => {
        element.addEventListener('seeked', () => resolve(), { once: true });
        element.currentTime = to;
      }),
    seconds,
  );
}

/** ffmpeg processes reading this demo's library (other tests on the machine may run their own). */
function ourFfmpegProcesses(): string[] {
  try {
    return execFileSync('pgrep', ['-af', 'ffmpeg'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(home));
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

async function login(page: Page) {
  await page.goto(`${demo.baseUrl}/webui/login`);
  await loginThroughForm(page, { username: 'Default', password: '' });
}

async function playFromEpisodesTab(page: Page, episodeNumber: number) {
  await page.goto(`${demo.baseUrl}/webui/collection/series/${seriesId}/episodes`);
  const row = page.getByTestId('episode-row').filter({ hasText: `Episode ${episodeNumber}` });
  await row.getByTestId('play-episode').click();
}

async function chooseSubtitles(page: Page, name: string) {
  await page.getByTestId('player-subtitles-button').click();
  await page.getByTestId('player-subtitles-menu').getByRole('menuitem', { name, exact: true }).click();
}

test('an episode the browser decodes plays directly, with styled subtitles, seeking, skipping and another audio track', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await page.addInitScript(() => {
    const seen: string[] = [];
    window.cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await login(page);
  await playFromEpisodesTab(page, 1);
  await expect(page).toHaveURL(new RegExp(`/webui/player/${episodes.ass.fileId}\\?episode=${episodes.ass.episodeId}$`));
  await expect(player(page)).toHaveAttribute('data-playback-mode', 'direct');
  await expect(page.getByTestId('player-title')).toHaveText('Yuugure Densha');
  await expect.poll(() => currentTime(page)).toBeGreaterThan(0.5);

  // libass draws on its own canvas over the picture: at a cue's time, on one still frame, the picture with the
  // subtitles on differs from the same picture with them off (the player's own overlays hidden from both shots).
  await expect(page.getByTestId('ass-subtitles')).toBeAttached();
  await setPaused(page, true);
  await seekAndWait(page, 2);
  await page.waitForTimeout(500);
  const stillFrame = async () =>
    page.screenshot({
      style:
        '[data-testid=player-controls], [data-testid$=-menu], [data-testid=player-big-play], [data-testid=player-loading], [data-testid=player-skip] { visibility: hidden }',
    });
  const withSubtitles = await stillFrame();
  await chooseSubtitles(page, 'Off');
  await expect(page.getByTestId('ass-subtitles')).not.toBeAttached();
  const withoutSubtitles = await stillFrame();
  expect(Buffer.compare(withoutSubtitles, withSubtitles)).not.toBe(0);
  // Turned on again while paused, they are drawn at once (not only when the next frame comes).
  await chooseSubtitles(page, 'English (styled)');
  await expect.poll(async () => Buffer.compare(await stillFrame(), withoutSubtitles), { timeout: 10_000 }).not.toBe(0);
  // libass's worker and WebAssembly run under the server's Content-Security-Policy.
  expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
  await page.mouse.move(500, 300);
  await snap(page, 'player-01-ass-subtitles-and-skip');

  // The opening is a chapter named "Opening": a Skip button jumps past it.
  await page.getByTestId('player-skip').click();
  await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(5);

  // A seek lands where asked.
  await seekBar(page, 20);
  await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(20);
  expect(await currentTime(page)).toBeLessThan(22);

  // The English track is not the one a <video> plays: the server makes a session with it, from where we were
  // (early enough in the 30 s clip that it is not watched to the end meanwhile).
  await seekBar(page, 8);
  await expect.poll(() => currentTime(page)).toBeLessThan(10);
  const english = (await api<PlaybackInfo>(`/api/v3/File/${episodes.ass.fileId}/Playback`)).Audio.find((a) => a.Language === 'eng')!;
  await page.getByTestId('player-audio-button').click();
  await snap(page, 'player-02-audio-menu');
  const sessionRequest = page.waitForRequest(
    (request) => request.url().endsWith('/api/v3/Playback/Session') && request.method() === 'POST',
  );
  await page.getByRole('menuitem', { name: /English/ }).click();
  const body = (await sessionRequest).postDataJSON() as { AudioStreamIndex: number; StartPosition: number };
  expect(body.AudioStreamIndex).toBe(english.Index);
  expect(body.StartPosition).toBeGreaterThanOrEqual(7);
  await expect(player(page)).toHaveAttribute('data-playback-mode', 'session');
  await expect(player(page)).toHaveAttribute('data-audio-index', String(english.Index));
  await expect(player(page)).not.toHaveAttribute('data-session-id', '');
  await setPaused(page, false);
  const resumedAt = await currentTime(page);
  await expect.poll(() => currentTime(page), { timeout: 20_000 }).toBeGreaterThan(Math.max(resumedAt, 7) + 1);
  const sessionId = await player(page).getAttribute('data-session-id');
  await setPaused(page, true);

  // The subtitle menu lists the file's tracks and Off.
  await page.getByTestId('player-subtitles-button').click();
  await expect(page.getByTestId('player-subtitles-menu').getByRole('menuitem')).toHaveCount(2);
  await snap(page, 'player-03-subtitle-menu');
  await page.keyboard.press('Escape');

  // Leaving: the position is stored for every client, the session stops and no ffmpeg of it is left.
  const leftAt = await currentTime(page);
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL(/\/collection\/series\//);
  await expect
    .poll(async () => (await api<{ ResumePosition: string | null }>(`/api/v3/File/${episodes.ass.fileId}`)).ResumePosition)
    .not.toBeNull();
  const stored = (await api<PlaybackInfo>(`/api/v3/File/${episodes.ass.fileId}/Playback`)).ResumePosition!;
  expect(stored).toBeGreaterThan(leftAt - 2);
  expect(stored).toBeLessThan(leftAt + 2);
  const playlist = await fetch(`${demo.baseUrl}/api/v3/Playback/Session/${sessionId}/index.m3u8`, { headers: { apikey: demo.apiKey } });
  expect(playlist.status).not.toBe(200);
  await expect.poll(() => ourFfmpegProcesses(), { timeout: 15_000 }).toEqual([]);

  // The next visit, from Continue Watching, offers to resume there.
  await page.goto(`${demo.baseUrl}/webui/dashboard`);
  const card = page.getByTestId('widget-continue-watching').getByTestId('poster-card').filter({ hasText: 'Yuugure Densha' });
  await expect(card).toBeVisible();
  await snap(page, 'player-00-dashboard-play');
  await card.getByTestId('play-episode').click();
  const offer = page.getByTestId('player-resume-offer');
  await expect(offer).toBeVisible();
  await snap(page, 'player-04-resume-offer');
  await offer.getByRole('button', { name: /^Resume from \d+:\d\d$/ }).click();
  await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(stored - 1);
});

test('a file the browser cannot decode plays through the transcoder and seeks', async ({ page }) => {
  // HEVC 10-bit is transcoded on the CI machine's two cores while other specs run beside it.
  test.setTimeout(180_000);
  const requests: string[] = [];
  const began = Date.now();
  const at = () => `${((Date.now() - began) / 1000).toFixed(1)}s`;
  page.on('request', (r) => r.url().includes('/Playback') && requests.push(`${at()} > ${r.method()} ${r.url().replace(/\?.*/, '')}`));
  page.on('requestfinished', async (r) => {
    if (r.url().includes('/Playback')) requests.push(`${at()} < ${(await r.response())?.status()} ${r.url().replace(/\?.*/, '')}`);
  });
  page.on(
    'requestfailed',
    (r) => r.url().includes('/Playback') && requests.push(`${at()} x ${r.failure()?.errorText} ${r.url().replace(/\?.*/, '')}`),
  );
  page.on('console', (m) => requests.push(`${at()} console.${m.type()}: ${m.text().slice(0, 400)}`));
  try {
    await transcoderSteps(page);
  } catch (error) {
    const state = await video(page)
      .evaluate((v: HTMLVideoElement) => ({
        readyState: v.readyState,
        networkState: v.networkState,
        error: v.error?.message,
        paused: v.paused,
        src: v.currentSrc,
        buffered: Array.from({ length: v.buffered.length }, (_, i) => [v.buffered.start(i), v.buffered.end(i)]),
      }))
      .catch(() => null);
    console.log(
      `transcoder test diagnostics\n${JSON.stringify(state)}\n${requests.join('\n')}\n--- server ---\n${demo.output().slice(-6000)}`,
    );
    throw error;
  }
});

async function transcoderSteps(page: Page) {
  await login(page);
  await playFromEpisodesTab(page, 2);
  await expect(player(page)).toHaveAttribute('data-playback-mode', 'session');
  await expect(player(page)).toHaveAttribute('data-video-mode', 'Transcode');
  await expect.poll(() => currentTime(page), { timeout: 60_000 }).toBeGreaterThan(0.5);

  // A seek far ahead: the server starts again near there; the picture lands within a segment of the point.
  await seekBar(page, 22);
  await expect.poll(() => currentTime(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(22);
  expect(await currentTime(page)).toBeLessThan(28);

  // Its embedded SubRip track is shown as WebVTT by the browser.
  await seekAndWait(page, 1.5);
  await expect
    .poll(() => video(page).evaluate((element: HTMLVideoElement) => Array.from(element.textTracks).map((t) => t.mode)), { timeout: 10_000 })
    .toContain('showing');

  await page.goto(`${demo.baseUrl}/webui/dashboard`);
  await expect.poll(() => ourFfmpegProcesses(), { timeout: 15_000 }).toEqual([]);
}

test('the end marks the episode watched and counts down to the next one; the last one with its external subtitles', async ({ page }) => {
  await login(page);
  // Episode 3 (MP4 with an external .srt): its cue is on screen at its time.
  await page.goto(`${demo.baseUrl}/webui/player/${episodes.srt.fileId}?episode=${episodes.srt.episodeId}`);
  await expect(player(page)).toHaveAttribute('data-playback-mode', 'direct');
  await setPaused(page, true);
  await seekAndWait(page, 2);
  await expect
    .poll(() =>
      video(page).evaluate((element: HTMLVideoElement) =>
        Array.from(element.textTracks).flatMap((track) => Array.from(track.activeCues ?? []).map((cue) => (cue as VTTCue).text)),
      ),
    )
    .toEqual([DEMO_CUE_TEXT]);

  // Episode 1 played to its end: watched for the user, and episode 2 is offered after a countdown that can be cancelled.
  // (Stopped part-way through before, by another client: the player offers to resume, the viewer starts over.)
  const stopped = await fetch(`${demo.baseUrl}/api/v3/File/${episodes.ass.fileId}/Scrobble?event=stop&resumePosition=00:00:10`, {
    method: 'PATCH',
    headers: { apikey: demo.apiKey },
  });
  expect(stopped.status).toBe(202);
  await page.goto(`${demo.baseUrl}/webui/player/${episodes.ass.fileId}?episode=${episodes.ass.episodeId}`);
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect.poll(() => currentTime(page)).toBeGreaterThan(0.2);
  await seekAndWait(page, 28);
  await setPaused(page, false);
  const countdown = page.getByTestId('player-next-countdown');
  await expect(countdown).toBeVisible({ timeout: 15_000 });
  await expect(countdown).toContainText('Episode 2');
  await snap(page, 'player-05-next-episode-countdown');
  await countdown.getByRole('button', { name: 'Cancel' }).click();
  await expect(countdown).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/webui/player/${episodes.ass.fileId}`));
  await expect
    .poll(async () => (await api<{ Watched: string | null }>(`/api/v3/Episode/${episodes.ass.episodeId}`)).Watched)
    .not.toBeNull();

  // `n` goes on to the next episode.
  await page.keyboard.press('n');
  await expect(page).toHaveURL(new RegExp(`/webui/player/${episodes.hevc.fileId}\\?episode=${episodes.hevc.episodeId}$`));
});

test('Play from Episode On Deck, and a choice when an episode has several files', async ({ page }) => {
  await login(page);
  await page.goto(`${demo.baseUrl}/webui/collection/series/${seriesId}/overview`);
  await expect(page.getByTestId('episode-on-deck').getByTestId('play-episode')).toBeVisible();
  await snap(page, 'player-08-episode-on-deck');
  await page.getByTestId('episode-on-deck').getByTestId('play-episode').click();
  await expect(page).toHaveURL(/\/webui\/player\/\d+\?episode=\d+$/);
  await expect(player(page)).toBeVisible();

  // The demo's first letter-office episode has two releases: the viewer picks one.
  const series = await api<{ List: Array<{ IDs: { ID: number }; Name: string }> }>('/api/v3/Series?pageSize=0');
  const twoFiles = series.List.find((item) => item.Name === 'Kiri no Toudai Yuubinkyoku')!.IDs.ID;
  const episodeList = await api<{ List: Array<{ IDs: { ID: number }; Size: number }> }>(`/api/v3/Series/${twoFiles}/Episode?pageSize=0`);
  const episodeWithTwo = episodeList.List.find((episode) => episode.Size === 2)!.IDs.ID;
  const files = await api<{ List: Array<{ ID: number }> }>(`/api/v3/Episode/${episodeWithTwo}/File?pageSize=0`);
  await page.goto(`${demo.baseUrl}/webui/collection/series/${twoFiles}/episodes`);
  await page.getByTestId('episode-row').filter({ hasText: '2 Files' }).getByTestId('play-episode').click();
  const chooser = page.getByTestId('file-chooser');
  await expect(chooser.getByRole('button')).toHaveCount(2);
  await snap(page, 'player-07-file-chooser');
  await chooser.getByRole('button').nth(1).click();
  await expect(page).toHaveURL(new RegExp(`/webui/player/(${files.List.map((f) => f.ID).join('|')})\\?episode=${episodeWithTwo}$`));
});

test.describe('without ffmpeg on the server', () => {
  let server: ShokoServer;
  let media: string;
  let fileId: number;

  test.beforeAll(async () => {
    media = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-player-noffmpeg-')));
    const hevc = fs.readdirSync(path.join(demo.library, 'Yuugure Densha')).find((name) => name.includes(' - 02'))!;
    fs.copyFileSync(path.join(demo.library, 'Yuugure Densha', hevc), path.join(media, hevc));
    server = await startShoko({ env: { SHOKO_FFMPEG: 'none' } });
    await completeFirstRunViaApi(server);
    const login = await fetch(server.url('/api/auth'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: LOCAL_USER.username, pass: LOCAL_USER.password, device: 'player-e2e' }),
    });
    const key = ((await login.json()) as { apikey: string }).apikey;
    const call = (pathname: string, init: RequestInit = {}) =>
      fetch(server.url(pathname), { ...init, headers: { apikey: key, 'content-type': 'application/json' } });
    const folder = (await (
      await call('/api/v3/ImportFolder', { method: 'POST', body: JSON.stringify({ Name: 'Clips', Path: media }) })
    ).json()) as {
      ID: number;
    };
    await call(`/api/v3/ImportFolder/${folder.ID}/Scan`);
    await expect
      .poll(async () => ((await (await call('/api/v3/File?pageSize=0')).json()) as { List: Array<{ ID: number }> }).List[0]?.ID, {
        timeout: 60_000,
      })
      .toBeGreaterThan(0);
    fileId = ((await (await call('/api/v3/File?pageSize=0')).json()) as { List: Array<{ ID: number }> }).List[0].ID;
  });

  test.afterAll(async () => {
    await server?.stop();
    if (media) fs.rmSync(media, { recursive: true, force: true });
  });

  test('the player says the file needs ffmpeg on the server', async ({ page }) => {
    await page.goto(server.url('/webui/login'));
    await loginThroughForm(page);
    await page.goto(server.url(`/webui/player/${fileId}`));
    await expect(page.getByTestId('player-error-message')).toHaveText('This file needs ffmpeg on the server to play in the browser.');
    await snap(page, 'player-06-ffmpeg-missing');
  });
});
