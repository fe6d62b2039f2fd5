import { describe, expect, it } from 'vitest';
import { copyPlan, ffmpegArguments, mediaPlaylist, seekTarget, segmentSpan, transcodePlan, type HlsJob } from './hls-session.js';
import { subRipToWebVtt } from './subtitles.js';

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
  ...overrides,
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
