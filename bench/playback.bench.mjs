// Browser playback (issue 43): how soon a play session has its first segment ready, and how fast ffmpeg transcodes, on
// 1-minute clips made here with ffmpeg (kept in BENCH_PLAYBACK_DIR between runs):
//   copy      H.264 1080p + AAC in MKV, the browser decodes both: the session copies (keyframe scan + remux)
//   hevc1080  HEVC Main 10 1080p + FLAC: video to H.264 (libx264 veryfast), audio to AAC stereo
//   hevc720   the same at 720p
// For each: session start → first segment ready (the server's part of "click on Play → first frame"), then a seek to
// 40 s (a segment far ahead: ffmpeg restarts there) → that segment ready, and for the transcodes the speed of a whole
// run as a multiple of real time. It drives the built server's session code (server/dist/media/ffmpeg) directly, as a
// session does after its checks; the HTTP around it adds a few milliseconds. Budgets (issue 43): a transcode's first
// segment < 3 s, a seek < 2 s, HEVC 1080p faster than real time, 720p at least 2×.
//   BENCH_PLAYBACK_RUNS=3   sessions per clip (the median is reported)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const dist = (file) => pathToFileURL(path.join(root, 'server', 'dist', 'media', 'ffmpeg', file)).href;
const { HlsProducer } = await import(dist('hls-session.js'));
const { copyPlan, transcodePlan, ffmpegArguments } = await import(dist('hls-plan.js'));
const { findFfmpeg, keyframeTimes, probeFile } = await import(dist('probe.js'));
const { x264Preset } = await import(dist('codecs.js'));
const { SEGMENT_SECONDS: SEGMENT } = await import(
  pathToFileURL(path.join(root, 'server', 'dist', 'domains', 'playback', 'playback.service.js')).href
);

const DIR = process.env.BENCH_PLAYBACK_DIR ?? path.join(os.tmpdir(), 'shoko-bench-playback');
const RUNS = Number(process.env.BENCH_PLAYBACK_RUNS ?? 3);
const SECONDS = 60;
const SEEK_TO = 40;

const tools = findFfmpeg();
if (!tools) {
  console.error('ffmpeg is not installed: nothing to measure.');
  process.exit(1);
}

const CLIPS = {
  copy: {
    file: 'h264-1080p-aac.mkv',
    args: ['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '6M', '-pix_fmt', 'yuv420p', '-g', '120', '-c:a', 'aac', '-b:a', '160k'],
    size: '1920x1080',
  },
  hevc1080: {
    file: 'hevc10-1080p-flac.mkv',
    args: [
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-b:v',
      '4M',
      '-pix_fmt',
      'yuv420p10le',
      '-x265-params',
      'log-level=error',
      '-c:a',
      'flac',
    ],
    size: '1920x1080',
  },
  hevc720: {
    file: 'hevc10-720p-flac.mkv',
    args: [
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-b:v',
      '2M',
      '-pix_fmt',
      'yuv420p10le',
      '-x265-params',
      'log-level=error',
      '-c:a',
      'flac',
    ],
    size: '1280x720',
  },
};

/** A moving test picture with light grain (so the encoders have some real work) and a tone, at anime-like bitrates; made once. */
function makeClip({ file, args, size }) {
  const target = path.join(DIR, file);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(DIR, { recursive: true });
  console.log(`  making ${file}…`);
  const result = spawnSync(
    tools.ffmpeg,
    [
      ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=24000/1001:duration=${SECONDS}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`],
      ...['-vf', 'noise=alls=4:allf=t', '-ac', '2', ...args, `${target}.part.mkv`],
    ],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`making ${file} failed`);
  fs.renameSync(`${target}.part.mkv`, target);
  return target;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const since = (start) => Number(process.hrtime.bigint() - start) / 1e6;

async function session(input, mode) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-bench-session-'));
  const started = process.hrtime.bigint();
  const probe = await probeFile(tools, input);
  const duration = Number(probe.format.duration);
  const video = probe.streams.find((s) => s.codec_type === 'video');
  const audio = probe.streams.find((s) => s.codec_type === 'audio');
  const plan =
    mode === 'Copy' ? copyPlan(await keyframeTimes(tools, input, video.index), duration, SEGMENT) : transcodePlan(duration, SEGMENT);
  const job = {
    input,
    formatStart: Number(probe.format.start_time ?? 0),
    videoStream: video.index,
    audioStream: audio.index,
    videoMode: mode,
    audioMode: mode,
    burnSubtitleStream: null,
    videoCodec: video.codec_name,
    segmentSeconds: SEGMENT,
    videoPreset: x264Preset('Automatic', video.width, video.height, os.availableParallelism()),
  };
  return { producer: new HlsProducer(tools, plan, job, work), plan, job, work, started };
}

/** Session start → init and first segment ready; then a seek far ahead → that segment ready. */
async function firstSegmentAndSeek(input, mode) {
  const { producer, plan, started } = await session(input, mode);
  try {
    await producer.prepare(0);
    await producer.init();
    await producer.segment(0);
    const first = since(started);
    let target = 0;
    while (target + 1 < plan.segmentUnits.length && plan.unitStarts[plan.segmentUnits[target + 1]] <= SEEK_TO) target++;
    const seekStarted = process.hrtime.bigint();
    await producer.segment(target);
    return { first, seek: since(seekStarted), restarts: producer.starts - 1 };
  } finally {
    await producer.stop();
  }
}

/** CPU milliseconds of this process's finished children (cutime + cstime, in clock ticks of 10 ms). */
function childrenCpuMs() {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * One uninterrupted run over the whole clip: media seconds per wall second, and per second of CPU spread over the
 * machine's cores (what an idle machine would reach: the wall figure depends on what else runs).
 */
async function speed(input) {
  const { plan, job, work } = await session(input, 'Transcode');
  try {
    const started = process.hrtime.bigint();
    const cpuBefore = childrenCpuMs();
    const result = spawnSync(tools.ffmpeg, ffmpegArguments(plan, job, 0, work), { stdio: 'inherit' });
    if (result.status !== 0) throw new Error('the transcode failed');
    const cpuSeconds = (childrenCpuMs() - cpuBefore) / 1000;
    return { wall: plan.duration / (since(started) / 1000), idle: plan.duration / (cpuSeconds / os.availableParallelism()) };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const rows = [];
for (const [name, clip] of Object.entries(CLIPS)) {
  const input = makeClip(clip);
  const mode = name === 'copy' ? 'Copy' : 'Transcode';
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await firstSegmentAndSeek(input, mode));
  const row = {
    clip: name,
    mode,
    firstSegmentMs: Math.round(median(runs.map((r) => r.first))),
    seekMs: Math.round(median(runs.map((r) => r.seek))),
    restartedForSeek: runs.every((r) => r.restarts > 0),
    ...(mode === 'Transcode' ? await speed(input) : { wall: null, idle: null }),
  };
  rows.push(row);
  console.log(`  ${JSON.stringify(row)}`);
}

const load = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(' ');
const md = [
  `Session start → first ${SEGMENT} s segment ready, and a seek to ${SEEK_TO} s → its segment ready (median of ${RUNS}); transcode speed of one whole run over the ${SECONDS} s clip. Load average at the end: ${load}.`,
  '',
  '| clip | video/audio | first segment | after a seek | transcode speed | by CPU time on idle cores |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${r.clip} | ${r.mode} | ${r.firstSegmentMs} ms | ${r.seekMs} ms${r.restartedForSeek ? ' (ffmpeg restarted there)' : ''} | ${r.wall === null ? '—' : `${r.wall.toFixed(2)}× real time`} | ${r.idle === null ? '—' : `${r.idle.toFixed(2)}×`} |`,
  ),
  '',
  'Budgets (issue 43): transcode first segment < 3 s, seek < 2 s, HEVC 1080p > 1× real time, 720p ≥ 2×.',
].join('\n');
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'playback.md'), `${md}\n`);
fs.writeFileSync(path.join(here, 'results', 'playback.json'), `${JSON.stringify(rows, null, 2)}\n`);
console.log(md);
