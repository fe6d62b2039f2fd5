import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyPlan,
  ffmpegArguments,
  isCompleteInitSegment,
  mediaPlaylist,
  seekTarget,
  segmentSpan,
  transcodePlan,
  type HlsJob,
} from './hls-plan.js';
import { HlsProducer, type ProductionWindow } from './hls-session.js';
import { findFfmpeg } from './probe.js';
import { subRipToWebVtt } from './subtitles.js';
import { processState, until } from '../../test/process-state.js';

const job = (overrides: Partial<HlsJob> = {}): HlsJob => ({
  input: '/media/a.mkv',
  formatStart: 0,
  videoStream: 0,
  audioStream: 1,
  videoMode: 'Transcode',
  audioMode: 'Copy',
  burnSubtitleStream: null,
  videoCodec: 'hevc',
  segmentSeconds: 6,
  videoPreset: 'veryfast',
  ...overrides,
});

const box = (type: string, payload = 0) => {
  const bytes = Buffer.alloc(8 + payload);
  bytes.writeUInt32BE(8 + payload, 0);
  bytes.write(type, 4, 'latin1');
  return bytes;
};

describe('initialisation segment reads', () => {
  it('takes whole boxes with a moov and refuses a file caught while ffmpeg writes it', () => {
    const whole = Buffer.concat([box('ftyp', 16), box('moov', 700)]);
    expect(isCompleteInitSegment(whole)).toBe(true);
    expect(isCompleteInitSegment(whole.subarray(0, whole.length - 1))).toBe(false);
    expect(isCompleteInitSegment(whole.subarray(0, 24))).toBe(false);
    expect(isCompleteInitSegment(box('ftyp', 16))).toBe(false);
    expect(isCompleteInitSegment(Buffer.alloc(0))).toBe(false);
  });
});

describe('segment plans', () => {
  it('cuts a transcode every segment length, the last one short', () => {
    const plan = transcodePlan(20, 6);
    expect(plan.segmentUnits).toEqual([0, 1, 2, 3]);
    expect([0, 1, 2, 3].map((n) => segmentSpan(plan, n))).toEqual([
      { start: 0, end: 6 },
      { start: 6, end: 12 },
      { start: 12, end: 18 },
      { start: 18, end: 20 },
    ]);
  });

  it('groups a copied stream’s GOPs into segments of at least the segment length, starting where a seek is safe', () => {
    // Keyframes every 2.5 s, and a scene-cut keyframe at 10.1 right after the one at 10 (too close to restart at).
    const keyframes = [0.02, 2.5, 5, 7.5, 10, 10.1, 12.5, 15, 17.5];
    const plan = copyPlan(keyframes, 19, 6);
    expect(plan.unitStarts).toEqual([0, 2.5, 5, 7.5, 10, 10.1, 12.5, 15, 17.5]);
    expect(plan.segmentUnits.map((u) => plan.unitStarts[u])).toEqual([0, 7.5, 15]);
    const plan2 = copyPlan([0, 2, 4, 6, 6.2, 8, 10, 12], 13, 6);
    // 6 is followed by a keyframe 0.2 s later: the segment starts at the next one instead.
    expect(plan2.segmentUnits.map((u) => plan2.unitStarts[u])).toEqual([0, 6.2]);
  });

  it('writes a VOD playlist with the init segment and every segment tokenized', () => {
    const text = mediaPlaylist(transcodePlan(13, 6), (name) => `${name}?token=t`);
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:7',
        '#EXT-X-TARGETDURATION:6',
        '#EXT-X-PLAYLIST-TYPE:VOD',
        '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-MAP:URI="init.mp4?token=t"',
        '#EXTINF:6.000000,',
        'segment-0.m4s?token=t',
        '#EXTINF:6.000000,',
        'segment-1.m4s?token=t',
        '#EXTINF:1.000000,',
        'segment-2.m4s?token=t',
        '#EXT-X-ENDLIST',
        '',
      ].join('\n'),
    );
  });
});

describe('ffmpeg runs', () => {
  it('seeks a transcode exactly, and a copy just past the keyframe (ffmpeg moves targets back for reordered video)', () => {
    const plan = copyPlan([0, 2, 4, 6, 8, 10], 12, 3);
    expect(seekTarget(plan, job({ videoMode: 'Copy' }), 0)).toBe(0);
    expect(seekTarget(plan, job({ videoMode: 'Copy' }), 2)).toBe(4.25);
    expect(seekTarget(plan, job({ videoMode: 'Copy', formatStart: 1.4 }), 2)).toBeCloseTo(2.85);
    expect(seekTarget(transcodePlan(60, 6), job(), 5)).toBe(30);
  });

  it('forces keyframes on the segment grid when transcoding, names units by their global index and keeps the file’s times', () => {
    const args = ffmpegArguments(transcodePlan(60, 6), job({ audioMode: 'Transcode' }), 5, '/tmp/s');
    const after = (flag: string) => args[args.indexOf(flag) + 1];
    expect(args).toContain('-copyts');
    expect(after('-ss')).toBe('30.000');
    expect(after('-force_key_frames')).toBe('expr:gte(t,n_forced*6)');
    expect(after('-start_number')).toBe('5');
    expect(after('-c:a')).toBe('aac');
    expect(after('-ac')).toBe('2');
    expect(after('-c:v')).toBe('libx264');
    expect(after('-preset')).toBe('veryfast');
    const fast = ffmpegArguments(transcodePlan(60, 6), job({ videoPreset: 'ultrafast' }), 0, '/tmp/s');
    expect(fast[fast.indexOf('-preset') + 1]).toBe('ultrafast');
    expect(after('-hls_segment_options')).toBe('movflags=+frag_discont');
    expect(args.at(-1)).toBe('/tmp/s/ffmpeg.m3u8');
  });

  it('copies streams as they are and overlays an image subtitle when asked', () => {
    const copy = ffmpegArguments(transcodePlan(60, 6), job({ videoMode: 'Copy', videoCodec: 'hevc' }), 0, '/tmp/s');
    expect(copy.join(' ')).toContain('-c:v copy -tag:v hvc1');
    expect(copy).not.toContain('-ss');
    expect(copy).not.toContain('-force_key_frames');
    const burn = ffmpegArguments(transcodePlan(60, 6), job({ burnSubtitleStream: 4 }), 0, '/tmp/s');
    expect(burn[burn.indexOf('-filter_complex') + 1]).toBe('[0:0][0:4]overlay=eof_action=pass[v]');
  });
});

describe('SubRip to WebVTT', () => {
  it('adds the header, uses dots for milliseconds and drops cue numbers and font tags', () => {
    const srt =
      '\uFEFF1\r\n00:00:01,000 --> 00:00:04,500\r\n<font color="#ff0">Hello</font> <i>there</i>\r\n\r\n2\r\n00:01:02,003 --> 00:01:03,000\r\nSecond\r\nline\r\n';
    expect(subRipToWebVtt(srt)).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:04.500\nHello <i>there</i>\n\n00:01:02.003 --> 00:01:03.000\nSecond\nline\n',
    );
  });
});

const tools = findFfmpeg();

describe.skipIf(!tools || process.platform !== 'linux')('ffmpeg paced by the viewer', () => {
  // A 2-minute transcode in 2 s units; the window is scaled down so the test needs little of it.
  const SECONDS = 120;
  const UNIT = 2;
  const window: ProductionWindow = { pauseAhead: 10, resumeAhead: 6, keepBehind: 4, keepAhead: 14 };
  let work: string;
  let clip: string;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hls-pacing-'));
    clip = path.join(work, 'long.mkv');
    execFileSync(tools!.ffmpeg, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=160x90:rate=10:duration=${SECONDS}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '20',
      clip,
    ]);
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  const producer = (dir: string) => {
    fs.mkdirSync(dir);
    return new HlsProducer(
      tools!,
      transcodePlan(SECONDS, UNIT),
      job({ input: clip, audioStream: null, videoCodec: 'h264', segmentSeconds: UNIT }),
      dir,
      window,
    );
  };
  /** Every unit on disk lies within the window around the viewer's segment. */
  const withinWindow = async (hls: HlsProducer, viewerSegment: number) => {
    const viewer = viewerSegment * UNIT;
    const units = await hls.unitsOnDisk();
    return units.every((unit) => unit * UNIT + UNIT >= viewer - window.keepBehind && unit * UNIT <= viewer + window.keepAhead);
  };

  it('pauses ffmpeg a window ahead of the viewer, continues it as the viewer comes near and deletes what lies far behind', async () => {
    const hls = producer(path.join(work, 'paced'));
    await hls.prepare(0);
    expect((await hls.segment(0)).length).toBeGreaterThan(0);
    await until(() => hls.paused, 'ffmpeg to be paused');
    const pid = hls.pid!;
    await until(() => processState(pid) === 'T', 'the kernel to stop ffmpeg');
    // Paused, it writes nothing more: the folder holds the window only (units of 2 s, the window 10 s ahead).
    expect(await withinWindow(hls, 0)).toBe(true);
    expect((await hls.unitsOnDisk()).length).toBeLessThanOrEqual((window.pauseAhead + UNIT) / UNIT + 1);

    // The viewer moves 20 s on: ffmpeg continues (same process), and what is now far behind is deleted.
    expect((await hls.segment(10)).length).toBeGreaterThan(0);
    expect(hls.pid).toBe(pid);
    await until(async () => hls.paused && (await withinWindow(hls, 10)), 'the next pause and the trim');
    expect(await hls.unitsOnDisk()).not.toContain(0);
    expect(hls.starts).toBe(1);

    // Back to the start: its units were deleted, so ffmpeg restarts there.
    expect((await hls.segment(0)).length).toBeGreaterThan(0);
    expect(hls.starts).toBe(2);
    await hls.stop();
  }, 90_000);

  it('ends a paused ffmpeg on stop and leaves no files', async () => {
    const dir = path.join(work, 'stopped');
    const hls = producer(dir);
    await hls.prepare(0);
    await until(() => hls.paused, 'ffmpeg to be paused');
    const pid = hls.pid!;
    await until(() => processState(pid) === 'T', 'the kernel to stop ffmpeg');
    await hls.stop();
    expect(processState(pid)).toBeNull();
    expect(fs.existsSync(dir)).toBe(false);
  }, 90_000);
});
