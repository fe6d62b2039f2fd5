import { decode, encode, ExtData } from '@msgpack/msgpack';
import { MediaInfo } from '@shoko-ts/contract';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { toMediaInfoModel } from '../../media/mediainfo/index.js';
import { shokoMediaBlob } from '../../../../fakes/src/shoko-data/media-blob.js';
import { mediaInfoFromShokoBlob, readShokoMediaBlob } from './media-blob.js';

/** The bytes after an LZ4 token for a literal or match length it could not hold in its 4 bits. */
const lz4LengthBytes = (value: number) =>
  value >= 15 ? [...Array<number>(Math.floor((value - 15) / 255)).fill(255), (value - 15) % 255] : [];

/** MessagePack-CSharp's Lz4BlockArray envelope around `payload`, its LZ4 block written as one literal run. */
function literalOnlyEnvelope(payload: Uint8Array): Uint8Array {
  const block = Uint8Array.from([Math.min(payload.length, 15) << 4, ...lz4LengthBytes(payload.length), ...payload]);
  return encode([new ExtData(98, encode(payload.length)), block]);
}

function read(blob: Uint8Array) {
  const result = readShokoMediaBlob(blob, 5);
  if (!result.ok) throw new Error(`${result.reason}: ${result.detail}`);
  expect(Value.Errors(MediaInfo, result.mediaInfo).First()).toBeUndefined();
  return result.mediaInfo;
}

describe('blobs made by the fixture encoder', () => {
  const matroska = shokoMediaBlob({
    fileName: 'Show - 01.mkv',
    fileSizeBytes: 734_003_200,
    durationSeconds: 1420.045,
    width: 1920,
    height: 1080,
    videoCodec: 'HEVC',
    bitDepth: 10,
    frameRate: 23.976,
    audio: [
      { codec: 'FLAC', language: 'ja', channels: 2, title: 'Japanese' },
      { codec: 'AC-3', language: 'en', channels: 6, title: 'English 5.1' },
    ],
    subtitles: [
      { codec: 'ASS', language: 'en', title: 'Full Subtitles' },
      { codec: 'UTF-8', language: 'de', title: 'Signs', forced: true },
    ],
    chapters: [
      { startSeconds: 0, title: 'Opening' },
      { startSeconds: 90.5, title: 'Part A' },
    ],
  });

  it('are MediaVersion 5 in an Lz4BlockArray envelope whose one block is really compressed', () => {
    expect(matroska.version).toBe(5);
    const [lengths, block, ...rest] = decode(matroska.blob) as [ExtData, Uint8Array];
    expect(rest).toHaveLength(0);
    expect(lengths).toBeInstanceOf(ExtData);
    expect(lengths.type).toBe(98);
    expect(block.length).toBeLessThan(decode(lengths.data as Uint8Array) as number);
  });

  it('map general, video, audio, subtitle and chapter fields as our own analysis gives them', () => {
    const info = read(matroska.blob);
    expect(info).toMatchObject({
      Title: null,
      Duration: '00:23:40.0450000',
      BitRate: Math.round((734_003_200 * 8) / 1420.045),
      FrameRate: 23.976,
      Encoded: null,
      FileExtension: 'mkv',
      MediaContainer: 'Matroska',
      MediaContainerVersion: 4,
    });
    expect(info.Video).toHaveLength(1);
    expect(info.Video[0]).toMatchObject({
      ID: 1,
      Order: 0,
      IsDefault: true,
      Codec: { Name: 'H.265 / HEVC', Simplified: 'HEVC', Raw: 'V_MPEGH/ISO/HEVC' },
      Format: { Name: 'HEVC', Profile: 'Main 10', Level: '4.1', Tier: 'Main' },
      Width: 1920,
      Height: 1080,
      Resolution: '1080p',
      PixelAspectRatio: 1,
      FrameRate: 23.976,
      FrameRateMode: 'CFR',
      FrameCount: Math.round(1420.045 * 23.976),
      ScanType: 'Progressive',
      ChromaSubsampling: '4:2:0',
      MatrixCoefficients: 'BT.709',
      BitDepth: 10,
    });
    // Shoko's false / 0 for "not given" must not turn into flags HEVC does not have.
    expect(info.Video[0].Format).not.toHaveProperty('CABAC');
    expect(info.Video[0].Format).not.toHaveProperty('ReferenceFrames');
    expect(info.Video[0]).not.toHaveProperty('Language');

    expect(info.Audio.map((stream) => [stream.ID, stream.Order, stream.Codec.Simplified, stream.Language, stream.LanguageCode])).toEqual([
      [2, 1, 'FLAC', 'Japanese', 'jpn'],
      [3, 2, 'AC3', 'English', 'eng'],
    ]);
    expect(info.Audio[0]).toMatchObject({
      Title: 'Japanese',
      IsDefault: true,
      Codec: { Name: 'FLAC', Raw: 'A_FLAC' },
      Channels: 2,
      ChannelLayout: 'L R',
      SamplingRate: 48000,
      CompressionMode: 'Lossless',
      BitDepth: 16,
    });
    expect(info.Audio[1]).toMatchObject({
      Title: 'English 5.1',
      IsDefault: false,
      Codec: { Name: 'Dolby Digital', Raw: 'A_AC3' },
      Format: { Name: 'AC-3', Endianness: 'Big', Commercial: 'Dolby Digital' },
      Channels: 6,
      BitRateMode: 'CBR',
    });

    expect(info.Subtitles).toEqual([
      expect.objectContaining({
        ID: 4,
        Title: 'Full Subtitles',
        IsDefault: true,
        IsForced: false,
        Language: 'English',
        LanguageCode: 'eng',
        Codec: { Name: 'Advanced SubStation Alpha', Simplified: 'ASS', Raw: 'S_TEXT/ASS' },
        IsExternal: false,
      }),
      expect.objectContaining({
        ID: 5,
        Title: 'Signs',
        IsDefault: false,
        IsForced: true,
        Language: 'German',
        LanguageCode: 'ger',
        Codec: { Name: 'SubRip', Simplified: 'SRT', Raw: 'S_TEXT/UTF8' },
      }),
    ]);
    expect(info.Subtitles[0]).not.toHaveProperty('ExternalFilename');
    expect(info.Chapters).toEqual([
      { Title: 'Opening', Language: 'English', Timestamp: '00:00:00' },
      { Title: 'Part A', Language: 'English', Timestamp: '00:01:30.5000000' },
    ]);
  });

  it('map an MP4 with AVC: CABAC and reference frames kept, no subtitles or chapters', () => {
    const mp4 = shokoMediaBlob({
      container: 'MPEG-4',
      fileName: 'movie.mp4',
      durationSeconds: 5400,
      width: 1280,
      height: 720,
      videoCodec: 'AVC',
      frameRate: 25,
      audio: [{ codec: 'AAC', language: 'en', channels: 2 }],
      subtitles: [],
    });
    const info = read(mp4.blob);
    expect(info).toMatchObject({
      Duration: '01:30:00',
      FileExtension: 'mp4',
      MediaContainer: 'MPEG-4',
      MediaContainerVersion: 0,
      FrameRate: 25,
    });
    expect(info.Video[0]).toMatchObject({
      Codec: { Name: 'H.264 / AVC', Simplified: 'H264', Raw: 'avc1' },
      Format: { Name: 'AVC', Profile: 'High', Level: '3.1', Settings: 'CABAC / 4 Ref Frames', CABAC: true, ReferenceFrames: 4 },
      Resolution: '720p',
      BitDepth: 8,
      FrameRate: 25,
    });
    expect(info.Audio[0]).toMatchObject({ Codec: { Name: 'AAC', Simplified: 'AAC', Raw: 'mp4a-40-2' }, Title: null, Language: 'English' });
    expect(info.Subtitles).toEqual([]);
    expect(info.Chapters).toEqual([]);
  });
});

describe('a blob built from the documented layout', () => {
  const str = (text: string) => [0xa0 | Buffer.byteLength(text), ...Buffer.from(text)];
  const float64 = (value: number) => {
    const bytes = new Uint8Array(9);
    bytes[0] = 0xcb;
    new DataView(bytes.buffer).setFloat64(1, value);
    return [...bytes];
  };
  // 2024-01-02 03:04:05 as a msgpack timestamp 32 (fixext 4, type -1, big-endian seconds).
  const encodedDate = [0xd6, 0xff, 0x65, 0x93, 0x7d, 0x25];
  // prettier-ignore
  const general = [
    0x92, 0x00, 0x88,
    ...str('Title'), ...str('Show - 01'),
    ...str('Format'), ...str('Matroska'),
    ...str('FileExtension'), ...str('mkv'),
    ...str('Duration'), ...float64(1420.045),
    ...str('FrameRate'), ...str('23.976'),
    ...str('Format_Version'), 0x04,
    ...str('IsStreamable'), 0xc3,
    ...str('Encoded_Date'), ...encodedDate,
  ];
  // prettier-ignore
  const aac = [
    0x92, 0x02, 0x84,
    ...str('Format'), ...str('AAC'),
    ...str('Channels'), 0x02,
    ...str('Language'), ...str('ja'),
    ...str('Default'), 0xc2,
  ];
  const text = [0x92, 0x03, 0x83, ...str('Format'), ...str('ASS'), ...str('Forced'), 0xc3, ...str('External'), 0xc2];
  // container [media [tracks]]: a nil track (a MediaInfo kind Shoko drops), General, the same AAC track twice, ASS.
  const head = [0x91, 0x91, 0x95, 0xc0, ...general, ...aac];
  const payload = Uint8Array.from([...head, ...aac, ...text]);

  /** One LZ4 sequence copying the second AAC track from the first (offset = its length), then the rest as literals. */
  function lz4Block(): Uint8Array {
    const matchLength = aac.length;
    const first = [(Math.min(head.length, 15) << 4) | Math.min(matchLength - 4, 15), ...lz4LengthBytes(head.length), ...head];
    const offset = [aac.length & 0xff, aac.length >> 8, ...lz4LengthBytes(matchLength - 4)];
    const last = [Math.min(text.length, 15) << 4, ...lz4LengthBytes(text.length), ...text];
    return Uint8Array.from([...first, ...offset, ...last]);
  }
  const lengthHeader = [0xcd, payload.length >> 8, payload.length & 0xff];
  const block = lz4Block();
  // prettier-ignore
  const blob = Uint8Array.from([
    0x92, 0xc7, lengthHeader.length, 98, ...lengthHeader,
    0xc6, 0, 0, block.length >> 8, block.length & 0xff, ...block,
  ]);

  it('decodes: LZ4 back-reference, float64 duration, decimal text, timestamp, flags, nil track', () => {
    expect(payload.length).toBeGreaterThan(255);
    const info = read(blob);
    expect(info).toMatchObject({
      Title: 'Show - 01',
      Duration: '00:23:40.0450000',
      FrameRate: 23.976,
      Encoded: '2024-01-02T03:04:05.000Z',
      MediaContainer: 'Matroska',
      MediaContainerVersion: 4,
      FileExtension: 'mkv',
    });
    expect(info.Video).toEqual([]);
    expect(info.Audio).toHaveLength(2);
    for (const [index, stream] of info.Audio.entries()) {
      expect(stream).toMatchObject({
        ID: index + 1,
        Order: index,
        Codec: { Simplified: 'AAC' },
        Channels: 2,
        Language: 'Japanese',
        IsDefault: false,
      });
    }
    expect(info.Subtitles).toEqual([
      expect.objectContaining({ Codec: expect.objectContaining({ Simplified: 'ASS' }), IsForced: true, IsExternal: false }),
    ]);
  });

  it('reads the same container stored uncompressed (what MessagePack-CSharp writes below 64 bytes)', () => {
    expect(read(payload)).toEqual(read(blob));
    expect(read(literalOnlyEnvelope(payload))).toEqual(read(blob));
  });
});

describe('the same file analysed by us and by Shoko', () => {
  // MediaInfo's JSON for one file, and the fields Shoko keeps from it after its parsing (flags as booleans, numbers as
  // ints, decimals as text, absent values as nil / 0 / false, its language columns and the subtitle file it found).
  const track = (type: string, fields: Record<string, unknown>) => ({ '@type': type, ...fields });
  // prettier-ignore
  const document = {
    media: {
      track: [
        track('General', { UniqueID: '123456789', Format: 'Matroska', Format_Version: '4', Duration: '1420.045', OverallBitRate: '4135184', FrameRate: '23.976', IsStreamable: 'Yes', Title: 'Show - 01', Movie: 'Show - 01', Encoded_Date: '2021-05-06 07:08:09 UTC' }),
        track('Video', { StreamOrder: '0', ID: '1', UniqueID: '42', Format: 'AVC', Format_Profile: 'High 10', Format_Level: '5.1', Format_Settings: 'CABAC / 16 Ref Frames', Format_Settings_CABAC: 'No', Format_Settings_RefFrames: '16', CodecID: 'V_MPEG4/ISO/AVC', BitRate: '3800000', Width: '1920', Height: '1080', PixelAspectRatio: '1.000', FrameRate_Mode: 'CFR', FrameRate: '23.976', FrameCount: '34047', ColorSpace: 'YUV', ChromaSubsampling: '4:2:0', BitDepth: '10', ScanType: 'Progressive', Language: 'ja', Default: 'Yes', Forced: 'No', matrix_coefficients: 'BT.709' }),
        track('Audio', { StreamOrder: '1', ID: '2', UniqueID: '43', Format: 'AAC', Format_AdditionalFeatures: 'LC', CodecID: 'A_AAC-2', BitRate: '192000', Channels: '2', ChannelLayout: 'L R', SamplesPerFrame: '1024', SamplingRate: '48000', Compression_Mode: 'Lossy', Title: 'Stereo', Language: 'ja', Default: 'Yes', Forced: 'No' }),
        track('Text', { StreamOrder: '2', ID: '3', UniqueID: '44', Format: 'ASS', CodecID: 'S_TEXT/ASS', Title: 'Full', Language: 'en', Default: 'Yes', Forced: 'No' }),
        track('Text', { Format: 'UTF-8', Language: 'de' }),
        track('Menu', { extra: { _00_00_00_000: 'en:Opening', _00_01_30_500: 'en:Part A' } }),
      ],
    },
  };
  // prettier-ignore
  const common = { Format_Profile: null, Format_Settings: null, Format_Level: null, Format_Commercial_IfAny: null, Format_Tier: null, Format_AdditionalFeatures: null, Format_Settings_Endianness: null, Codec: null, CodecID: null, Language: null, LanguageCode: null, LanguageName: null, Default: false, Forced: false, UniqueID: null, ID: 0, Title: null, StreamOrder: 0 };
  // prettier-ignore
  const shokoTracks = [
    [0, { ...common, UniqueID: '123456789', Format: 'Matroska', Title: 'Show - 01', Duration: 1420.045, OverallBitRate: 4135184, FileExtension: 'mkv', Format_Version: 4, FrameRate: '23.976', IsStreamable: true, Encoded_Date: new Date('2021-05-06T07:08:09Z') }],
    [1, { ...common, UniqueID: '42', ID: 1, Format: 'AVC', Format_Profile: 'High 10', Format_Level: '5.1', Format_Settings: 'CABAC / 16 Ref Frames', CodecID: 'V_MPEG4/ISO/AVC', Language: 'ja', LanguageCode: 'jpn', LanguageName: 'Japanese', Default: true, Format_Settings_CABAC: false, Format_Settings_BVOP: false, Format_Settings_QPel: false, Format_Settings_GMC: null, Format_Settings_RefFrames: 16, BitRate: 3800000, Width: 1920, Height: 1080, PixelAspectRatio: '1.000', FrameRate: '23.976', FrameRate_Mode: 'CFR', FrameCount: 34047, ColorSpace: 'YUV', ChromaSubsampling: '4:2:0', BitDepth: 10, ScanType: 'Progressive', HDR_Format: null, matrix_coefficients: 'BT.709' }],
    [2, { ...common, UniqueID: '43', ID: 2, StreamOrder: 1, Title: 'Stereo', Format: 'AAC', Format_AdditionalFeatures: 'LC', CodecID: 'A_AAC-2', Language: 'ja', LanguageCode: 'jpn', LanguageName: 'Japanese', Default: true, Channels: 2, ChannelLayout: 'L R', SamplesPerFrame: 1024, SamplingRate: 48000, Compression_Mode: 'Lossy', BitRate: 192000, BitRate_Mode: null, BitDepth: 0, extra: null }],
    [3, { ...common, UniqueID: '44', ID: 3, StreamOrder: 2, Title: 'Full', Format: 'ASS', CodecID: 'S_TEXT/ASS', Language: 'en', LanguageCode: 'eng', LanguageName: 'English', Default: true, SubTitle: null, External: false, Filename: null }],
    [3, { ...common, Format: 'UTF-8', Language: 'de', LanguageCode: 'ger', LanguageName: 'German', SubTitle: null, External: true, Filename: 'Show - 01.de.srt' }],
    [4, { ...common, extra: { _00_00_00_000: 'en:Opening', _00_01_30_500: 'en:Part A' } }],
  ];

  it('gives the model of our own analysis, the subtitle file numbered after the container streams', () => {
    const ours = toMediaInfoModel(document, '/anime/Show/Show - 01.mkv');
    ours.Subtitles[1] = { ...ours.Subtitles[1], ID: 4, Order: 3, IsExternal: true, ExternalFilename: 'Show - 01.de.srt' };
    const imported = read(literalOnlyEnvelope(encode([[shokoTracks]])));
    expect(imported).toStrictEqual(ours);
    expect(imported.Video[0].Format.CABAC).toBe(false);
  });
});

describe('blobs that cannot be used', () => {
  const good = shokoMediaBlob({ durationSeconds: 60, width: 640, height: 480, videoCodec: 'AVC', audio: [], subtitles: [] }).blob;

  it.each([
    ['a reserved MessagePack byte', Uint8Array.from([0xc1])],
    ['an empty blob', new Uint8Array()],
    ['a cut-off blob', good.subarray(0, good.length - 10)],
    ['MessagePack that is no container', encode('hello')],
    ['a track of an unknown kind', encode([[[[7, {}]]]])],
    ['an LZ4 block with a match before its start', encode([new ExtData(98, encode(8)), Uint8Array.from([0x14, 0x61, 0x09, 0x00])])],
  ])('%s: undecodable, null', (_name, blob) => {
    expect(readShokoMediaBlob(blob, 5)).toMatchObject({ ok: false, reason: 'undecodable' });
    expect(mediaInfoFromShokoBlob(blob, 5)).toBeNull();
  });

  it('a blob of another MediaVersion: unknown-version, null', () => {
    expect(mediaInfoFromShokoBlob(good, 5)).not.toBeNull();
    for (const version of [0, 4, 6]) {
      expect(readShokoMediaBlob(good, version)).toMatchObject({ ok: false, reason: 'unknown-version' });
      expect(mediaInfoFromShokoBlob(good, version)).toBeNull();
    }
  });

  it('a container without audio or video: not-media, null', () => {
    const generalOnly = encode([[[[0, { Format: 'Matroska', Duration: 12.5 }]]]]);
    expect(readShokoMediaBlob(generalOnly, 5)).toMatchObject({ ok: false, reason: 'not-media' });
    expect(mediaInfoFromShokoBlob(generalOnly, 5)).toBeNull();
  });
});
