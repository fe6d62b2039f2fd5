import { describe, expect, it } from 'vitest';
import type { PlaybackInfo } from '@shoko-ts/contract';
import { canDecode, planPlayback, playsDirectly, samePlayback, type MediaProbe, type PlaybackPlan } from './playbackPlan';

/** A browser that decodes H.264, AAC, Opus and FLAC (as Chromium does) and answers for Matroska like Chromium. */
const chromium: MediaProbe = {
  canPlayType: (type) => {
    if (/hev1|hvc1|ac-3|ec-3|dts/.test(type)) return '';
    if (type === 'video/x-matroska') return 'maybe';
    return /^(video|audio)\/(mp4|webm|x-matroska)/.test(type) ? 'probably' : '';
  },
  isTypeSupported: (type) => /avc1|mp4a|opus|flac|vp09|av01/.test(type) && !/x-matroska/.test(type),
};

function info(overrides: Partial<PlaybackInfo> = {}): PlaybackInfo {
  return {
    FileID: 7,
    EpisodeIDs: [3],
    SeriesID: 1,
    FileName: 'ep.mkv',
    Duration: 1420,
    Container: 'matroska',
    Video: [{ Index: 0, Codec: 'h264', Profile: 'High', BitDepth: 8, Width: 1920, Height: 1080, MimeCodec: 'avc1.640028' }],
    Audio: [
      { Index: 1, Codec: 'aac', Channels: 2, Language: 'jpn', Title: null, Default: true, MimeCodec: 'mp4a.40.2' },
      { Index: 2, Codec: 'aac', Channels: 2, Language: 'eng', Title: null, Default: false, MimeCodec: 'mp4a.40.2' },
    ],
    Subtitles: [
      {
        ID: 'embedded-3',
        Kind: 'Embedded',
        Codec: 'ass',
        IsText: true,
        Format: 'ass',
        Language: 'eng',
        Title: null,
        Default: true,
        Forced: false,
        Url: '/sub/3',
      },
      {
        ID: 'embedded-4',
        Kind: 'Embedded',
        Codec: 'hdmv_pgs_subtitle',
        IsText: false,
        Format: null,
        Language: 'eng',
        Title: null,
        Default: false,
        Forced: false,
        Url: null,
      },
    ],
    Fonts: [],
    Chapters: [],
    DirectUrl: '/api/v3/File/7/Stream?token=t',
    DirectMimeType: 'video/x-matroska; codecs="avc1.640028, mp4a.40.2"',
    TokenExpires: '2030-01-01T00:00:00Z',
    ResumePosition: null,
    Watched: false,
    PreferredAudioLanguages: ['jpn'],
    PreferredSubtitleLanguages: ['eng'],
    FfmpegAvailable: true,
    ...overrides,
  };
}

const hevcFlac = info({
  Video: [{ Index: 0, Codec: 'hevc', Profile: 'Main 10', BitDepth: 10, Width: 1920, Height: 1080, MimeCodec: 'hev1.2.4.L120.90' }],
  Audio: [{ Index: 1, Codec: 'flac', Channels: 2, Language: 'jpn', Title: null, Default: true, MimeCodec: 'flac' }],
  DirectMimeType: 'video/x-matroska; codecs="hev1.2.4.L120.90, flac"',
});

describe('choosing how a file plays', () => {
  it('plays a file the browser decodes directly, from the tokenized stream URL', () => {
    expect(planPlayback(info(), chromium, { audioIndex: 1, subtitleId: 'embedded-3' }, 0)).toEqual({
      kind: 'direct',
      url: '/api/v3/File/7/Stream?token=t',
      mimeType: 'video/x-matroska; codecs="avc1.640028, mp4a.40.2"',
    });
  });

  it('asks the server for a session when the browser cannot decode the video, saying which codecs it can', () => {
    const plan = planPlayback(hevcFlac, chromium, { audioIndex: 1, subtitleId: null }, 754.6);
    expect(plan).toEqual({
      kind: 'session',
      request: { FileID: 7, AudioStreamIndex: 1, StartPosition: 754, CanDecode: { Video: ['h264'], Audio: ['aac', 'flac'] } },
    });
  });

  it('asks the browser rather than a list: a browser that decodes HEVC plays the same file directly', () => {
    const hevcBrowser: MediaProbe = { canPlayType: () => 'probably', isTypeSupported: () => true };
    expect(planPlayback(hevcFlac, hevcBrowser, { audioIndex: 1, subtitleId: null }, 0).kind).toBe('direct');
    expect(canDecode(hevcFlac, hevcBrowser)).toEqual({ Video: ['h264', 'hevc'], Audio: ['aac', 'flac'] });
  });

  it('needs a session for an audio track other than the one a <video> element plays', () => {
    const plan = planPlayback(info(), chromium, { audioIndex: 2, subtitleId: null }, 0);
    expect(plan.kind === 'session' && plan.request.AudioStreamIndex).toBe(2);
  });

  it('burns image subtitles in through a session', () => {
    const plan = planPlayback(info(), chromium, { audioIndex: 1, subtitleId: 'embedded-4' }, 0);
    expect(plan.kind === 'session' && plan.request.BurnSubtitleID).toBe('embedded-4');
  });

  it('still plays directly what the browser decodes when the server has no ffmpeg (default audio, no burn-in)', () => {
    expect(planPlayback(info({ FfmpegAvailable: false }), chromium, { audioIndex: 2, subtitleId: 'embedded-4' }, 0).kind).toBe('direct');
  });

  it('turns to the server when direct play failed in the element', () => {
    expect(planPlayback(info(), chromium, { audioIndex: 1, subtitleId: null }, 0, { directFailed: true }).kind).toBe('session');
  });

  it('checks each stream when the browser only half-knows the container', () => {
    const bare = { ...info(), DirectMimeType: 'video/x-matroska' };
    expect(playsDirectly(bare, chromium)).toBe(true);
    expect(playsDirectly({ ...bare, Audio: [{ ...bare.Audio[0], Codec: 'ac3', MimeCodec: 'ac-3' }] }, chromium)).toBe(false);
    expect(playsDirectly({ ...bare, Audio: [{ ...bare.Audio[0], MimeCodec: null }] }, chromium)).toBe(false);
  });

  it('needs a new source only when the audio stream or the burnt-in subtitle changes', () => {
    const session = (AudioStreamIndex: number, StartPosition = 0): PlaybackPlan => ({
      kind: 'session',
      request: { FileID: 7, AudioStreamIndex, StartPosition, CanDecode: { Video: [], Audio: [] } },
    });
    expect(samePlayback(session(1, 0), session(1, 300))).toBe(true);
    expect(samePlayback(session(1), session(2))).toBe(false);
    expect(samePlayback({ kind: 'direct', url: 'a', mimeType: 'b' }, { kind: 'direct', url: 'a', mimeType: 'b' })).toBe(true);
    expect(samePlayback({ kind: 'direct', url: 'a', mimeType: 'b' }, session(1))).toBe(false);
  });
});
