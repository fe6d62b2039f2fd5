/* global document -- read inside the page by waitForFunction */
// The console's player in Chromium, as a viewer meets it: from opening the player page of an episode until its
// picture moves (video.currentTime past 0.2 s), for a file the browser plays directly (File/{id}/Stream) and for one
// the server transcodes (HEVC 10-bit/FLAC → H.264/AAC over HLS). The demo server with its playable episodes
// (fakes/src/demo, made with ffmpeg), a fresh browser context per load, median of BENCH_PLAYER_RUNS (5).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { register } from 'tsx/esm/api';
import { chromium } from 'playwright-core';
import { loadAverage, requireBuiltServer, root } from './collections.mjs';
import { CHROMIUM, CHROMIUM_ARGS, freePort } from './lib.mjs';

register();
const { startDemo, DEMO_ADMIN } = await import(path.join(root, 'fakes', 'src', 'demo', 'demo.ts'));

const RUNS = Number(process.env.BENCH_PLAYER_RUNS ?? 5);
// A viewer opens the player with a click (Play on an episode), which lets it start with sound; a bare navigation needs this.
const PLAYER_CHROMIUM_ARGS = ['--autoplay-policy=no-user-gesture-required', ...CHROMIUM_ARGS];
const TIMEOUT_MS = 60_000;
const SEEK_TO = 22;

requireBuiltServer();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-bench-player-'));
const port = await freePort();
const demo = await startDemo({ home, port, stdio: 'pipe', playableMedia: true });
const loadBefore = loadAverage();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: PLAYER_CHROMIUM_ARGS, headless: true });

async function api(method, pathname) {
  const response = await fetch(`${demo.baseUrl}${pathname}`, { method, headers: { apikey: demo.apiKey } });
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status}`);
  const text = await response.text();
  return (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
}

/** The demo's playable episode whose file name holds `number`: its file and episode. */
async function episode(number) {
  const files = await api('GET', '/api/v3/File?pageSize=0');
  const file = files.List.find((f) => f.Locations.some((l) => l.RelativePath.includes(`Yuugure Densha - ${number}`)));
  const info = await api('GET', `/api/v3/File/${file.ID}/Playback`);
  return { fileId: info.FileID, episodeId: info.EpisodeIDs[0] };
}

/** A logged-in browser state, so each load starts at the player page with nothing cached. */
async function loggedInState() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${demo.baseUrl}/webui/login`);
  await page.locator('input:not([type="password"]):not([type="checkbox"])').first().fill(DEMO_ADMIN.Username);
  await page.locator('input[type="password"]').fill(DEMO_ADMIN.Password);
  // Kept in localStorage (not the tab's sessionStorage), so a new context starts logged in.
  await page.getByLabel('Remember Me').check();
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL(/dashboard/, { timeout: TIMEOUT_MS });
  const state = await context.storageState();
  await context.close();
  return state;
}

async function playAndSeek(state, { fileId, episodeId }) {
  const context = await browser.newContext({ storageState: state });
  const page = await context.newPage();
  try {
    const started = performance.now();
    await page.goto(`${demo.baseUrl}/webui/player/${fileId}?episode=${episodeId}`);
    await page.waitForFunction(() => (document.querySelector('[data-testid="player-video"]')?.currentTime ?? 0) > 0.2, undefined, {
      timeout: TIMEOUT_MS,
      polling: 20,
    });
    const ms = performance.now() - started;
    const mode = await page.getByTestId('player').getAttribute('data-playback-mode');
    // A seek far ahead (past what was fetched or transcoded), until the picture moves there.
    const seekStarted = performance.now();
    await page.evaluate((to) => {
      document.querySelector('[data-testid="player-video"]').currentTime = to;
    }, SEEK_TO);
    await page.waitForFunction(
      (to) => {
        const video = document.querySelector('[data-testid="player-video"]');
        return !video.seeking && video.currentTime > to + 0.2;
      },
      SEEK_TO,
      { timeout: TIMEOUT_MS, polling: 20 },
    );
    return { ms, seekMs: performance.now() - seekStarted, mode };
  } catch (error) {
    await page.screenshot({ path: path.join(os.tmpdir(), 'player-bench-failure.png') });
    throw error;
  } finally {
    await context.close();
    // The player stored where it stopped: cleared, so the next load starts playing instead of offering to resume.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await api('PATCH', `/api/v3/File/${fileId}/Scrobble?event=stop&resumePosition=0`);
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = [];
try {
  const state = await loggedInState();
  for (const [label, number] of [
    ['H.264/AAC in Matroska (direct play)', '01'],
    ['HEVC 10-bit/FLAC (transcoded)', '02'],
  ]) {
    const target = await episode(number);
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await playAndSeek(state, target));
    rows.push({
      label,
      mode: runs[0].mode,
      medianMs: Math.round(median(runs.map((r) => r.ms))),
      seekMs: Math.round(median(runs.map((r) => r.seekMs))),
      runsMs: runs.map((r) => Math.round(r.ms)),
    });
    console.log(`  ${JSON.stringify(rows.at(-1))}`);
  }
} finally {
  await browser.close();
  await demo.stop();
  fs.rmSync(home, { recursive: true, force: true });
}

const md = [
  `Debian Chromium headless against the demo server (640×360 clips), a fresh browser context per load (logged in, nothing cached), median of ${RUNS}: from opening the player page until the picture moves, and from a seek to ${SEEK_TO} s until it moves there. Load average ${loadBefore} at the start, ${loadAverage()} at the end.`,
  '',
  '| file | playback | first picture | runs (ms) | after a seek |',
  '| --- | --- | --- | --- | --- |',
  ...rows.map((r) => `| ${r.label} | ${r.mode} | ${r.medianMs} ms | ${r.runsMs.join(', ')} | ${r.seekMs} ms |`),
  '',
  'Budgets (issue 43): first picture under 1 s for direct play and under 3 s for a transcode; after a seek under 2 s.',
].join('\n');
fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
fs.writeFileSync(path.join(import.meta.dirname, 'results', 'player-browser.md'), `${md}\n`);
console.log(md);
