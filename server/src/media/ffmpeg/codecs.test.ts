import { describe, expect, it } from 'vitest';
import {
  audioMimeCodec,
  audioMode,
  containerOf,
  directMimeType,
  subtitleFormat,
  x264Preset,
  videoMimeCodec,
  videoMode,
  type VideoFacts,
} from './codecs.js';

const video = (facts: Partial<VideoFacts>): VideoFacts => ({
  codec: 'h264',
  profile: 'High',
  level: 40,
  bitDepth: 8,
  width: 1920,
  height: 1080,
  ...facts,
});

describe('RFC 6381 codec strings', () => {
  it('writes H.264 as avc1 + profile, constraints and level in hex', () => {
    expect(videoMimeCodec(video({}))).toBe('avc1.640028');
    expect(videoMimeCodec(video({ profile: 'Main', level: 31 }))).toBe('avc1.4d001f');
    expect(videoMimeCodec(video({ profile: 'Constrained Baseline', level: 30 }))).toBe('avc1.42e01e');
    expect(videoMimeCodec(video({ profile: 'High 10', level: 41, bitDepth: 10 }))).toBe('avc1.6e0029');
    // No level in the file: one that fits the picture.
    expect(videoMimeCodec(video({ level: null, width: 1280, height: 720 }))).toBe('avc1.64001f');
    expect(videoMimeCodec(video({ profile: 'Something new' }))).toBeNull();
  });

  it('writes HEVC with the profile, its compatibility flag, tier and level', () => {
    expect(videoMimeCodec(video({ codec: 'hevc', profile: 'Main 10', level: 120, bitDepth: 10 }))).toBe('hev1.2.4.L120.90');
    expect(videoMimeCodec(video({ codec: 'hevc', profile: 'Main', level: 93 }))).toBe('hev1.1.6.L93.90');
    expect(videoMimeCodec(video({ codec: 'hevc', profile: 'Main 10', level: -99, bitDepth: 10 }))).toBe('hev1.2.4.L120.90');
  });

  it('writes VP9 and AV1 with profile, level and bit depth', () => {
    expect(videoMimeCodec(video({ codec: 'vp9', profile: 'Profile 0', level: -99 }))).toBe('vp09.00.40.08');
    expect(videoMimeCodec(video({ codec: 'vp9', profile: 'Profile 2', bitDepth: 10, width: 1280, height: 720 }))).toBe('vp09.02.31.10');
    expect(videoMimeCodec(video({ codec: 'av1', profile: 'Main', level: 8, bitDepth: 10 }))).toBe('av01.0.08M.10');
    expect(videoMimeCodec(video({ codec: 'mpeg2video' }))).toBeNull();
  });

  it('writes audio codecs as browsers name them', () => {
    expect(audioMimeCodec({ codec: 'aac', profile: 'LC' })).toBe('mp4a.40.2');
    expect(audioMimeCodec({ codec: 'aac', profile: 'HE-AAC' })).toBe('mp4a.40.5');
    expect(audioMimeCodec({ codec: 'aac', profile: 'HE-AACv2' })).toBe('mp4a.40.29');
    expect(audioMimeCodec({ codec: 'mp3', profile: null })).toBe('mp4a.6B');
    expect(audioMimeCodec({ codec: 'opus', profile: null })).toBe('opus');
    expect(audioMimeCodec({ codec: 'flac', profile: null })).toBe('flac');
    expect(audioMimeCodec({ codec: 'ac3', profile: null })).toBe('ac-3');
    expect(audioMimeCodec({ codec: 'eac3', profile: null })).toBe('ec-3');
    expect(audioMimeCodec({ codec: 'wmav2', profile: null })).toBeNull();
  });

  it('names the container and the MIME type a browser is asked about', () => {
    expect(containerOf('matroska,webm', 'a.mkv')).toBe('matroska');
    expect(containerOf('matroska,webm', 'a.webm')).toBe('webm');
    expect(containerOf('mov,mp4,m4a,3gp,3g2,mj2', 'a.mp4')).toBe('mp4');
    expect(containerOf('avi', 'a.avi')).toBe('avi');
    expect(directMimeType('mp4', { codec: 'h264', mimeCodec: 'avc1.640028' }, { codec: 'aac', mimeCodec: 'mp4a.40.2' })).toBe(
      'video/mp4; codecs="avc1.640028, mp4a.40.2"',
    );
    expect(directMimeType('webm', { codec: 'vp9', mimeCodec: 'vp09.00.40.08' }, { codec: 'opus', mimeCodec: 'opus' })).toBe(
      'video/webm; codecs="vp9, opus"',
    );
    expect(directMimeType('matroska', { codec: 'h264', mimeCodec: 'avc1.640028' }, null)).toBe('video/x-matroska; codecs="avc1.640028"');
    // An unknown codec string: the bare type (a browser then guesses from the container).
    expect(directMimeType('matroska', { codec: 'mpeg2video', mimeCodec: null }, null)).toBe('video/x-matroska');
  });
});

describe('copy or transcode', () => {
  it('copies video the browser decodes, but never 10-bit H.264 or a picture with burnt-in subtitles', () => {
    expect(videoMode(video({}), ['h264'], false)).toBe('Copy');
    expect(videoMode(video({}), ['vp9'], false)).toBe('Transcode');
    expect(videoMode(video({ profile: 'High 10', bitDepth: 10 }), ['h264'], false)).toBe('Transcode');
    expect(videoMode(video({ codec: 'hevc', bitDepth: 10 }), ['h264'], false)).toBe('Transcode');
    expect(videoMode(video({ codec: 'hevc', bitDepth: 10 }), ['h264', 'hevc'], false)).toBe('Copy');
    expect(videoMode(video({}), ['h264'], true)).toBe('Transcode');
    expect(videoMode(video({ codec: 'mpeg4' }), ['mpeg4'], false)).toBe('Transcode');
  });

  it('copies audio the browser decodes and fMP4 carries; the rest becomes AAC', () => {
    expect(audioMode({ codec: 'aac', profile: 'LC' }, ['aac'])).toBe('Copy');
    expect(audioMode({ codec: 'flac', profile: null }, ['aac', 'flac'])).toBe('Copy');
    expect(audioMode({ codec: 'flac', profile: null }, ['aac'])).toBe('Transcode');
    for (const codec of ['ac3', 'dts', 'truehd']) expect(audioMode({ codec, profile: null }, ['aac']), codec).toBe('Transcode');
    // Vorbis has no place in MP4 even where the browser decodes it.
    expect(audioMode({ codec: 'vorbis', profile: null }, ['vorbis'])).toBe('Transcode');
  });

  it('serves text subtitles as ASS or WebVTT and image ones not at all', () => {
    expect(subtitleFormat('ass')).toBe('ass');
    expect(subtitleFormat('ssa')).toBe('ass');
    expect(subtitleFormat('subrip')).toBe('vtt');
    expect(subtitleFormat('mov_text')).toBe('vtt');
    expect(subtitleFormat('hdmv_pgs_subtitle')).toBeNull();
    expect(subtitleFormat('dvd_subtitle')).toBeNull();
  });

  it('picks the x264 preset: the setting, or by picture size and cores', () => {
    expect(x264Preset('Automatic', 1920, 1080, 2)).toBe('ultrafast');
    expect(x264Preset('Automatic', 1280, 720, 2)).toBe('veryfast');
    expect(x264Preset('Automatic', 1920, 1080, 8)).toBe('veryfast');
    expect(x264Preset('fast', 1920, 1080, 2)).toBe('fast');
  });
});
