import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { MediaInfo } from '@shoko-ts/contract';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamLanguage } from './languages.js';
import {
  closeMediaInfo,
  findExternalSubtitles,
  MediaInfoError,
  readMediaInfo,
  standardResolution,
  timeSpanText,
  toMediaInfoModel,
} from './index.js';
import { threadNiceValues } from '../../test/thread-priority.js';
import { MediaInfoWorkerPool } from './worker-pool.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shoko-mediainfo-'));
});
afterAll(async () => {
  await closeMediaInfo();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<MediaInfoError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(MediaInfoError);
  return error as MediaInfoError;
}

describe('readMediaInfo on real files', () => {
  it('maps a Matroska file with two audio tracks, two subtitle tracks and chapters', async () => {
    const info = await readMediaInfo(fixture('sample.mkv'));
    expect(Value.Errors(MediaInfo, info).First()).toBeUndefined();
    expect(info).toMatchObject({
      Title: 'Fixture Episode 01',
      FrameRate: 24,
      IsStreamable: false,
      Encoded: null,
      FileExtension: 'mkv',
      MediaContainer: 'Matroska',
      MediaContainerVersion: 4,
    });
    expect(info.Duration).toBe('00:00:01.0400000');
    expect(info.BitRate).toBeGreaterThan(100_000);

    expect(info.Video).toHaveLength(1);
    const [video] = info.Video;
    expect(video).toMatchObject({
      ID: 1,
      Order: 0,
      IsDefault: true,
      IsForced: false,
      Language: 'Japanese',
      LanguageCode: 'jpn',
      Codec: { Name: 'H.264 / AVC', Simplified: 'H264', Raw: 'V_MPEG4/ISO/AVC' },
      Format: { Name: 'AVC', Profile: 'High', CABAC: true },
      Width: 320,
      Height: 240,
      Resolution: '240p',
      PixelAspectRatio: 1,
      FrameRate: 24,
      FrameRateMode: 'CFR',
      FrameCount: 24,
      ScanType: 'Progressive',
      ChromaSubsampling: '4:2:0',
      BitDepth: 8,
    });
    // Video streams leave null members out (no title here), audio and text streams write them as null.
    expect(video).not.toHaveProperty('Title');
    expect(video).not.toHaveProperty('MatrixCoefficients');

    expect(info.Audio.map((audio) => [audio.Codec.Simplified, audio.Language, audio.LanguageCode, audio.IsDefault, audio.Title])).toEqual([
      ['AAC', 'Japanese', 'jpn', true, 'Japanese Stereo'],
      ['AC3', 'English', 'eng', false, 'English Commentary'],
    ]);
    expect(info.Audio[0]).toMatchObject({
      Channels: 2,
      ChannelLayout: 'L R',
      SamplingRate: 48000,
      SamplesPerFrame: 1024,
      CompressionMode: 'Lossy',
    });
    expect(info.Audio[0].BitRateMode).toBeNull();
    expect(info.Audio[1]).toMatchObject({
      Channels: 1,
      BitRate: 96000,
      BitRateMode: 'CBR',
      Format: { Name: 'AC-3', Commercial: 'Dolby Digital' },
    });
    expect(info.Audio[1].Format).not.toHaveProperty('CABAC');

    expect(
      info.Subtitles.map((text) => [text.Codec.Simplified, text.Language, text.IsDefault, text.IsForced, text.Title, text.IsExternal]),
    ).toEqual([
      ['ASS', 'English', true, true, 'Signs & Songs', false],
      ['SRT', 'German', false, false, null, false],
    ]);
    expect(info.Subtitles[0]).not.toHaveProperty('ExternalFilename');
    expect(info.Subtitles[0].SubTitle).toBeNull();

    expect(info.Chapters).toEqual([
      { Title: 'Opening', Language: 'Unknown', Timestamp: '00:00:00' },
      { Title: 'Part A', Language: 'Unknown', Timestamp: '00:00:00.5000000' },
    ]);
  });

  it('maps an MP4 file with AAC audio and an encoding date', async () => {
    const info = await readMediaInfo(fixture('sample.mp4'));
    expect(Value.Errors(MediaInfo, info).First()).toBeUndefined();
    expect(info).toMatchObject({
      Title: 'MP4 Fixture',
      FileExtension: 'mp4',
      MediaContainer: 'MPEG-4',
      Encoded: '2024-01-02T03:04:05.000Z',
      FrameRate: 23.976,
    });
    expect(info.Duration).toBe('00:00:01.0010000');
    expect(info.Video[0]).toMatchObject({ Width: 1280, Height: 720, Resolution: '720p', Codec: { Simplified: 'H264', Raw: 'avc1' } });
    expect(info.Video[0]).not.toHaveProperty('Language');
    expect(info.Audio).toHaveLength(1);
    // MP4 repeats the default flag ("Yes / Yes").
    expect(info.Audio[0]).toMatchObject({
      Codec: { Simplified: 'AAC' },
      Language: 'English',
      LanguageCode: 'eng',
      IsDefault: true,
      SamplingRate: 44100,
      BitRate: 48000,
    });
    expect(info.Subtitles).toEqual([]);
    expect(info.Chapters).toEqual([]);
  });

  it('maps a WebM file with VP9 and Opus', async () => {
    const info = await readMediaInfo(fixture('sample.webm'));
    expect(Value.Errors(MediaInfo, info).First()).toBeUndefined();
    expect(info).toMatchObject({ Title: null, FileExtension: 'webm', MediaContainer: 'WebM', Duration: '00:00:01.0080000' });
    expect(info.Video[0]).toMatchObject({
      Width: 640,
      Height: 480,
      Resolution: '480p',
      Codec: { Simplified: 'VP9' },
      Format: { Name: 'VP9', Profile: '0' },
    });
    expect(info.Audio[0]).toMatchObject({
      Codec: { Name: 'Opus', Simplified: 'OPUS' },
      Language: 'French',
      LanguageCode: 'fre',
      Title: null,
    });
  });

  it('adds subtitle files lying beside the video after the container streams', async () => {
    const video = path.join(dir, 'Merged.mkv');
    fs.copyFileSync(fixture('sample.mkv'), video);
    fs.writeFileSync(path.join(dir, 'Merged.en.srt'), '1\n00:00:00,000 --> 00:00:01,000\nHi\n');
    const info = await readMediaInfo(video);
    expect(info.Subtitles).toHaveLength(3);
    expect(info.Subtitles[2]).toMatchObject({
      ID: 6,
      Order: 5,
      IsExternal: true,
      ExternalFilename: 'Merged.en.srt',
      Language: 'English',
      Codec: { Simplified: 'SRT' },
    });
    expect((await readMediaInfo(video, { externalSubtitles: false })).Subtitles).toHaveLength(2);
  });
});

describe('readMediaInfo priority', () => {
  // (A test process already at nice 10 or more has nothing to show.)
  it.runIf(process.platform === 'linux' && os.getPriority() < 10)('reads in threads that give way to the rest of the server', async () => {
    const before = os.getPriority();
    await readMediaInfo(fixture('sample.mkv'));
    expect(threadNiceValues()).toContain(10);
    expect(os.getPriority()).toBe(before);
  });
});

describe('readMediaInfo failures', () => {
  it('rejects a file that is not media with a clear error', async () => {
    const error = await failure(readMediaInfo(fixture('not-media.txt')));
    expect(error.reason).toBe('not-media');
    expect(error.message).toContain('not a media file');
    expect(error.message).toContain('not-media.txt');
  });

  it('rejects a missing file and a folder', async () => {
    const missing = await failure(readMediaInfo(path.join(dir, 'missing.mkv')));
    expect(missing.reason).toBe('not-found');
    expect(missing.message).toMatch(/missing\.mkv: file not found/);
    expect((await failure(readMediaInfo(dir))).reason).toBe('unreadable');
  });

  it('stops an analysis that runs past its time limit, then reads the next file normally', async () => {
    const error = await failure(readMediaInfo(fixture('sample.webm'), { timeoutMs: 1 }));
    expect(error.reason).toBe('timeout');
    expect(error.message).toContain('did not finish within 1 ms');
    expect((await readMediaInfo(fixture('sample.webm'))).Video[0].Resolution).toBe('480p');
  });
});

describe('MediaInfoWorkerPool', () => {
  /** A stand-in worker whose reaction to a request is the given code (`request`, `parentPort` in scope). */
  const evalWorker = (onMessage: string) => () =>
    new Worker(`const { parentPort } = require('node:worker_threads'); parentPort.on('message', (request) => { ${onMessage} });`, {
      eval: true,
    });

  it('terminates a worker stuck in a loop and replaces it', async () => {
    let spawned = 0;
    const pool = new MediaInfoWorkerPool(1, () => {
      spawned += 1;
      return spawned === 1
        ? evalWorker('for (;;) {}')()
        : evalWorker('parentPort.postMessage({ id: request.id, ok: true, document: { media: null } })')();
    });
    const stuck = pool.analyse('/stuck.mkv', 200);
    const next = pool.analyse('/next.mkv', 5_000);
    expect((await failure(stuck)).reason).toBe('timeout');
    await expect(next).resolves.toEqual({ media: null });
    expect(spawned).toBe(2);
    await pool.close();
  });

  it('turns a dying worker into a rejected promise', async () => {
    const pool = new MediaInfoWorkerPool(1, evalWorker('process.exit(7)'));
    const error = await failure(pool.analyse('/crash.mkv', 5_000));
    expect(error.reason).toBe('crashed');
    expect(error.message).toContain('exit code 7');
    await pool.close();
  });

  it('rejects running and waiting analyses when closed', async () => {
    const pool = new MediaInfoWorkerPool(1, evalWorker('/* never answers */'));
    const running = failure(pool.analyse('/a.mkv', 0));
    const waiting = failure(pool.analyse('/b.mkv', 0));
    await pool.close();
    expect((await running).reason).toBe('closed');
    expect((await waiting).reason).toBe('closed');
    expect((await failure(pool.analyse('/c.mkv', 0))).reason).toBe('closed');
  });
});

describe('standardResolution (files.md §1.8.3)', () => {
  it.each([
    [3840, 2160, '2160p'],
    [2560, 1440, '1440p'],
    [1920, 1080, '1080p'],
    [1280, 720, '720p'],
    [1024, 576, '576p'],
    [853, 480, '480p'],
    [1440, 1080, '1080p'],
    [960, 720, '720p'],
    [720, 576, '576p'],
    [720, 480, '480p'],
    [480, 360, '360p'],
    [320, 240, '240p'],
    [2560, 1080, 'UWHD'],
    [3440, 1440, 'UWQHD'],
    // Sizes between the standards: nearest aspect ratio, then nearest area.
    [1920, 800, 'UWHD'],
    [1916, 1076, '1080p'],
    [704, 396, '480p'],
    [640, 360, '480p'],
    [640, 480, '480p'],
    [1280, 544, 'UWHD'],
    [4096, 2160, '2160p'],
  ])('%i×%i → %s', (width, height, name) => {
    expect(standardResolution(width, height)).toBe(name);
  });

  it('has no name without a size', () => {
    expect(standardResolution(0, 0)).toBeNull();
  });
});

describe('mapping details', () => {
  it('writes .NET TimeSpan text', () => {
    expect(timeSpanText(0)).toBe('00:00:00');
    expect(timeSpanText(1.5)).toBe('00:00:01.5000000');
    expect(timeSpanText(1420.042)).toBe('00:23:40.0420000');
    expect(timeSpanText(90_061.25)).toBe('1.01:01:01.2500000');
  });

  it('names languages as TitleLanguage with a three-letter code', () => {
    expect(streamLanguage('ja')).toEqual({ Language: 'Japanese', LanguageCode: 'jpn' });
    expect(streamLanguage('deu')).toEqual({ Language: 'German', LanguageCode: 'ger' });
    expect(streamLanguage('pt-BR')).toEqual({ Language: 'BrazilianPortuguese', LanguageCode: 'por' });
    expect(streamLanguage('zh-Hant')).toEqual({ Language: 'ChineseTraditional', LanguageCode: 'chi' });
    expect(streamLanguage('und')).toEqual({ Language: 'Unknown', LanguageCode: 'und' });
    expect(streamLanguage(null)).toEqual({ Language: null, LanguageCode: null });
  });

  it('translates codecs, reads chapter languages and keeps titles containing a colon', () => {
    const info = toMediaInfoModel(
      {
        media: {
          track: [
            { '@type': 'General', Format: 'Matroska', Duration: 1420.042 },
            { '@type': 'Video', Format: 'HEVC', Width: 1920, Height: 1080, HDR_Format: 'SMPTE ST 2086', Format_Settings_CABAC: 'No' },
            { '@type': 'Audio', Format: 'MPEG Audio', Format_Profile: 'Layer 3', Default: 'Yes / Yes' },
            { '@type': 'Audio', Format: 'DTS', Format_AdditionalFeatures: 'XLL' },
            { '@type': 'Audio', Format: 'MLP FBA' },
            { '@type': 'Audio', Format: 'E-AC-3' },
            { '@type': 'Audio', Format: 'Some New Codec', CodecID: 'A_NEW' },
            { '@type': 'Text', Format: 'PGS' },
            { '@type': 'Text', Format: 'VobSub' },
            {
              '@type': 'Menu',
              extra: { _00_10_00_000: 'Part 1: Arrival', _00_00_00_000: 'en:Opening', _00_20_30_250: 'ja:エンディング' },
            },
          ],
        },
      },
      '/anime/file.mkv',
    );
    expect(info.Duration).toBe('00:23:40.0420000');
    expect(info.Video[0]).toMatchObject({
      Codec: { Simplified: 'HEVC' },
      Resolution: '1080p',
      Format: { Name: 'HEVC', HDR: 'SMPTE ST 2086', CABAC: false },
    });
    expect(info.Audio.map((audio) => audio.Codec.Simplified)).toEqual(['MP3', 'DTSHD', 'TRUEHD', 'EAC3', 'SOMENEWCODEC']);
    expect(info.Audio[0].IsDefault).toBe(true);
    expect(info.Audio[4].Codec).toEqual({ Simplified: 'SOMENEWCODEC', Raw: 'A_NEW' });
    expect(info.Subtitles.map((text) => text.Codec.Simplified)).toEqual(['PGS', 'VOBSUB']);
    expect(info.Chapters).toEqual([
      { Title: 'Opening', Language: 'English', Timestamp: '00:00:00' },
      { Title: 'Part 1: Arrival', Language: 'Unknown', Timestamp: '00:10:00' },
      { Title: 'エンディング', Language: 'Japanese', Timestamp: '00:20:30.2500000' },
    ]);
  });
});

describe('findExternalSubtitles', () => {
  it('finds subtitle files sharing the video’s base name and reads language and flags from their names', async () => {
    const folder = fs.mkdtempSync(path.join(dir, 'subs-'));
    const touch = (name: string) => fs.writeFileSync(path.join(folder, name), '');
    for (const name of [
      'Show - 01.mkv',
      'Show - 01.en.srt',
      'Show - 01.Signs.jpn.forced.ass',
      'Show - 01.ssa',
      'Show - 01.pt-BR.vtt',
      'Show - 01.idx',
      'Show - 01.sub',
      'Show - 02.sub',
      'Show - 010.en.srt',
      'Other.en.srt',
      'Show - 01.txt',
      'Show - 01.nfo',
    ])
      touch(name);
    fs.mkdirSync(path.join(folder, 'Show - 01.de.srt'));

    const streams = await findExternalSubtitles(path.join(folder, 'Show - 01.mkv'), { firstId: 10, firstOrder: 3 });
    expect(streams.map((stream) => stream.ExternalFilename)).toEqual([
      'Show - 01.en.srt',
      'Show - 01.idx',
      'Show - 01.pt-BR.vtt',
      'Show - 01.Signs.jpn.forced.ass',
      'Show - 01.ssa',
    ]);
    expect(streams.every((stream) => stream.IsExternal)).toBe(true);
    expect(streams.map((stream) => [stream.ID, stream.Order])).toEqual([
      [10, 3],
      [11, 4],
      [12, 5],
      [13, 6],
      [14, 7],
    ]);
    expect(streams[0]).toMatchObject({
      Language: 'English',
      LanguageCode: 'eng',
      Codec: { Simplified: 'SRT' },
      Title: null,
      IsForced: false,
    });
    expect(streams[1]).toMatchObject({ Language: null, Codec: { Simplified: 'VOBSUB' }, Format: { Name: 'VobSub' } });
    expect(streams[2]).toMatchObject({ Language: 'BrazilianPortuguese', Codec: { Simplified: 'WEBVTT' } });
    expect(streams[3]).toMatchObject({
      Language: 'Japanese',
      LanguageCode: 'jpn',
      Title: 'Signs',
      IsForced: true,
      Codec: { Simplified: 'ASS' },
    });
    expect(streams[4]).toMatchObject({ Language: null, LanguageCode: null, Codec: { Simplified: 'SSA' } });

    // A .sub without its .idx is a text (MicroDVD) subtitle.
    expect(
      (await findExternalSubtitles(path.join(folder, 'Show - 02.mkv'))).map((stream) => [stream.ExternalFilename, stream.Codec.Simplified]),
    ).toEqual([['Show - 02.sub', 'MICRODVD']]);
  });

  it('finds nothing in a folder that does not exist', async () => {
    expect(await findExternalSubtitles(path.join(dir, 'nowhere', 'video.mkv'))).toEqual([]);
  });
});
