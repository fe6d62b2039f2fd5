import { createHash } from 'node:crypto';
import { encode } from '@msgpack/msgpack';

/*
 * VideoLocal.MediaBlob as Shoko Server 5.x writes it (MediaVersion 5): its MediaContainer serialised by
 * MessagePack-CSharp 2.5 with Lz4BlockArray compression. The layout, byte for byte:
 *   [ext 98 (uncompressed length), bin32 (one LZ4 block)]                 — array of 2; under 64 bytes: no envelope
 *   container = [media]; media = [tracks]; track = [kind, fields]          — kind 0 General 1 Video 2 Audio 3 Text 4 Menu
 *   fields    = a map of every settable property, base class (Stream) first, each class in declaration order;
 *               nulls written as nil, ints in their shortest form, double as float64, decimal as its invariant text.
 * The values are what MediaInfo reports for such a file (mkvmerge/x264-style Matroska, or MP4) after Shoko's parsing.
 */

export const SHOKO_MEDIA_VERSION = 5;

export interface ShokoMediaSample {
  durationSeconds: number;
  width: number;
  height: number;
  /** MediaInfo's format name: 'AVC', 'HEVC', 'AV1', … */
  videoCodec: string;
  bitDepth?: number;
  frameRate?: number;
  /** codec: MediaInfo's format name ('AAC', 'FLAC', 'AC-3', …); language: ISO 639-1 ('ja', 'en'). */
  audio: Array<{ codec: string; language: string; channels: number; title?: string }>;
  /** codec: 'ASS', 'UTF-8' (SRT), 'PGS', … */
  subtitles: Array<{ codec: string; language: string; title?: string; forced?: boolean }>;
  chapters?: Array<{ startSeconds: number; title: string }>;
  fileSizeBytes?: number;
  fileName?: string;
  /** 'Matroska' (default) or 'MPEG-4'. */
  container?: string;
}

type FieldKind = 'string' | 'int' | 'bool' | 'double' | 'decimal' | 'date' | 'audio-extra' | 'dictionary';
type Layout = ReadonlyArray<readonly [name: string, kind: FieldKind]>;
type Fields = Record<string, unknown>;

/** `Name:kind` entries in serialisation order; a bare name is a string. */
const layout = (spec: string): Layout =>
  spec
    .trim()
    .split(/\s+/)
    .map((entry) => entry.split(':') as [string, FieldKind?])
    .map(([name, kind = 'string']) => [name, kind]);

const STREAM = `UniqueID ID:int Title StreamOrder:int Format Format_Profile Format_Settings Format_Level Format_Commercial_IfAny
  Format_Tier Format_AdditionalFeatures Format_Settings_Endianness Codec CodecID Language LanguageCode LanguageName Default:bool Forced:bool`;
const GENERAL = layout(`${STREAM} Duration:double OverallBitRate:int FileExtension Format_Version:int FrameRate:decimal
  IsStreamable:bool Encoded_Date:date`);
const VIDEO = layout(`${STREAM} Format_Settings_CABAC:bool Format_Settings_BVOP:bool Format_Settings_QPel:bool Format_Settings_GMC
  Format_Settings_RefFrames:int BitRate:int Width:int Height:int PixelAspectRatio:decimal FrameRate:decimal FrameRate_Mode
  FrameCount:int ColorSpace ChromaSubsampling BitDepth:int ScanType Encoded_Library_Name MuxingMode HDR_Format HDR_Format_Compatibility
  colour_range colour_primaries transfer_characteristics matrix_coefficients MasteringDisplay_ColorPrimaries MasteringDisplay_Luminance
  MaxCLL MaxFALL`);
const AUDIO = layout(`${STREAM} Channels:int ChannelLayout SamplesPerFrame:int SamplingRate:int Compression_Mode BitRate:int
  BitRate_Mode BitDepth:int extra:audio-extra`);
const TEXT = layout(`${STREAM} SubTitle External:bool Filename`);
const MENU = layout(`${STREAM} extra:dictionary`);
const AUDIO_EXTRA = layout(`NumberOfDynamicObjects bsid:int dialnorm:double compr:double dynrng:double acmod:double lfeon:double
  dialnorm_Average:double dialnorm_Minimum:double compr_Average:double compr_Minimum:double compr_Maximum:double compr_Count:int
  dynrng_Average:double dynrng_Minimum:double dynrng_Maximum:double dynrng_Count:int`);

/** Shoko's own table (ISO 639-1 → ISO 639-2/B and English name) for the languages fixtures use. */
const LANGUAGES = new Map(
  (
    'ar:ara:Arabic ca:cat:Catalan cs:cze:Czech da:dan:Danish de:ger:German el:ell:Greek en:eng:English es:spa:Spanish ' +
    'fi:fin:Finnish fr:fre:French he:heb:Hebrew hi:hin:Hindi hu:hun:Hungarian id:ind:Indonesian it:ita:Italian ' +
    'ja:jpn:Japanese ko:kor:Korean ms:may:Malay nl:dut:Dutch no:nor:Norwegian pl:pol:Polish pt:por:Portuguese ' +
    'ro:rum:Romanian ru:rus:Russian sv:swe:Swedish th:tha:Thai tr:tur:Turkish uk:ukr:Ukrainian vi:vie:Vietnamese zh:chi:Chinese'
  )
    .split(' ')
    .map((entry) => entry.split(':') as [string, string, string])
    .map(([iso1, iso2, name]) => [iso1, { LanguageCode: iso2, LanguageName: name }]),
);

const CODEC_IDS: Record<string, [matroska: string, mp4: string | null]> = {
  AVC: ['V_MPEG4/ISO/AVC', 'avc1'],
  HEVC: ['V_MPEGH/ISO/HEVC', 'hvc1'],
  AV1: ['V_AV1', 'av01'],
  VP9: ['V_VP9', 'vp09'],
  AAC: ['A_AAC-2', 'mp4a-40-2'],
  FLAC: ['A_FLAC', 'fLaC'],
  'AC-3': ['A_AC3', 'ac-3'],
  'E-AC-3': ['A_EAC3', 'ec-3'],
  Opus: ['A_OPUS', 'Opus'],
  DTS: ['A_DTS', 'dtsc'],
  ASS: ['S_TEXT/ASS', null],
  SSA: ['S_TEXT/SSA', null],
  'UTF-8': ['S_TEXT/UTF8', 'tx3g'],
  PGS: ['S_HDMV/PGS', null],
  VobSub: ['S_VOBSUB', null],
};
const CHANNEL_LAYOUTS: Record<number, string> = { 1: 'C', 2: 'L R', 6: 'L R C LFE Ls Rs', 8: 'L R C LFE Ls Rs Lb Rb' };

function header(count: number, fix: number, code16: number): number[] {
  if (count <= 15) return [fix | count];
  if (count <= 0xffff) return [code16, count >> 8, count & 0xff];
  return [code16 + 1, count >>> 24, (count >> 16) & 0xff, (count >> 8) & 0xff, count & 0xff];
}
const arrayHeader = (count: number) => Uint8Array.from(header(count, 0x90, 0xdc));
const mapHeader = (count: number) => Uint8Array.from(header(count, 0x80, 0xde));
const join = (parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

function value(kind: FieldKind, given: unknown): Uint8Array {
  switch (kind) {
    case 'string':
    case 'date':
      return encode(given ?? null);
    case 'int':
      return encode(given ?? 0);
    case 'bool':
      return encode(given ?? false);
    case 'double':
      return encode(given ?? 0, { forceIntegerToFloat: true });
    case 'decimal':
      return encode(given ?? '0');
    case 'audio-extra':
      return given ? object(AUDIO_EXTRA, given as Fields) : encode(null);
    case 'dictionary': {
      if (!given) return encode(null);
      const entries = Object.entries(given as Record<string, string>);
      return join([mapHeader(entries.length), ...entries.flatMap(([key, text]) => [encode(key), encode(text)])]);
    }
  }
}

const object = (layout: Layout, fields: Fields) =>
  join([mapHeader(layout.length), ...layout.flatMap(([name, kind]) => [encode(name), value(kind, fields[name])])]);

/** A deterministic decimal UID of `bytes` bytes, as MediaInfo prints Matroska UIDs. */
function uid(seed: string, bytes: number): string {
  const hex = createHash('sha1').update(seed).digest('hex');
  return BigInt(`0x${hex.slice(0, bytes * 2)}`).toString();
}

/**
 * LZ4 block compression exactly as MessagePack-CSharp 2.5 does it for inputs under 64 KiB (the old greedy LZ4 "64k"
 * variant: a table of 2¹¹ 16-bit positions, Knuth's multiplicative hash, skip strength 6), so the bytes match Shoko's.
 */
function lz4Compress(source: Uint8Array): Uint8Array {
  const out: number[] = [];
  const table = new Uint16Array(1 << 11);
  const end = source.length;
  const matchFindLimit = end - 12;
  const matchLimit = end - 5;
  const read32 = (at: number) => (source[at] | (source[at + 1] << 8) | (source[at + 2] << 16) | (source[at + 3] << 24)) >>> 0;
  const hash = (at: number) => Math.imul(read32(at), 2654435761) >>> 21;
  const pushLength = (length: number) => {
    for (; length >= 255; length -= 255) out.push(255);
    out.push(length);
  };
  let anchor = 0;
  if (end >= 13) {
    let at = 1;
    let forwardHash = hash(at);
    search: for (;;) {
      let attempts = (1 << 6) + 3;
      let forward = at;
      let ref: number;
      do {
        const h = forwardHash;
        at = forward;
        forward = at + (attempts++ >> 6);
        if (forward > matchFindLimit) break search;
        forwardHash = hash(forward);
        ref = table[h];
        table[h] = at;
      } while (read32(ref) !== read32(at));
      // Extend the match backwards over equal bytes not yet emitted.
      while (at > anchor && ref > 0 && source[at - 1] === source[ref - 1]) {
        at--;
        ref--;
      }
      let token = out.push(0) - 1;
      const literals = at - anchor;
      out[token] = Math.min(literals, 15) << 4;
      if (literals >= 15) pushLength(literals - 15);
      out.push(...source.subarray(anchor, at));
      for (;;) {
        out.push((at - ref) & 0xff, (at - ref) >> 8);
        at += 4;
        ref += 4;
        anchor = at;
        while (at < matchLimit && source[at] === source[ref]) {
          at++;
          ref++;
        }
        const matchLength = at - anchor;
        out[token] |= Math.min(matchLength, 15);
        if (matchLength >= 15) pushLength(matchLength - 15);
        if (at > matchFindLimit) {
          anchor = at;
          break search;
        }
        table[hash(at - 2)] = at - 2;
        const h = hash(at);
        ref = table[h];
        table[h] = at;
        if (read32(ref) !== read32(at)) break;
        token = out.push(0) - 1;
      }
      anchor = at++;
      forwardHash = hash(at);
    }
  }
  const lastLiterals = end - anchor;
  out.push(Math.min(lastLiterals, 15) << 4);
  if (lastLiterals >= 15) pushLength(lastLiterals - 15);
  out.push(...source.subarray(anchor));
  return Uint8Array.from(out);
}

/**
 * MessagePack-CSharp's Lz4BlockArray envelope. It compresses each 32 KiB segment of its scratch buffer as a block of
 * its own; real media info stays far below that, so one block, and fixtures are held to it.
 */
function lz4BlockArray(payload: Uint8Array): Uint8Array {
  if (payload.length < 64) return payload;
  if (payload.length > 16 * 1024) throw new Error(`shokoMediaBlob: ${payload.length} bytes would span several LZ4 blocks`);
  const lengths = encode(payload.length);
  const fixExt: Record<number, number> = { 1: 0xd4, 2: 0xd5 };
  const extHeader = fixExt[lengths.length] ? [fixExt[lengths.length], 98] : [0xc7, lengths.length, 98];
  const block = lz4Compress(payload);
  const bin32 = [0xc6, block.length >>> 24, (block.length >> 16) & 0xff, (block.length >> 8) & 0xff, block.length & 0xff];
  return join([arrayHeader(2), Uint8Array.from(extHeader), lengths, Uint8Array.from(bin32), block]);
}

const track = (kind: number, layout: Layout, fields: Fields) => join([arrayHeader(2), encode(kind), object(layout, fields)]);

/** What MediaInfo reads from an AC-3 stream's bit stream info (acmod 1 = mono, 2 = stereo, 7 = 3/2 surround). */
const ac3Extra = (channels: number): Fields => ({
  bsid: 8,
  dialnorm: -27,
  acmod: channels > 2 ? 7 : channels,
  lfeon: channels > 5 ? 1 : 0,
  dialnorm_Average: -27,
  dialnorm_Minimum: -27,
});

/** The MediaInfo time key of a chapter: `_hh_mm_ss_mmm`. */
function chapterKey(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `_${pad(Math.floor(ms / 3_600_000))}_${pad(Math.floor(ms / 60_000) % 60)}_${pad(Math.floor(ms / 1000) % 60)}_${pad(ms % 1000, 3)}`;
}

/** A MediaBlob and its MediaVersion for a file described by `sample`, as Shoko 5.3.3 stores it after analysing it. */
export function shokoMediaBlob(sample: ShokoMediaSample): { version: number; blob: Uint8Array } {
  const matroska = (sample.container ?? 'Matroska') === 'Matroska';
  const name = sample.fileName ?? (matroska ? 'video.mkv' : 'video.mp4');
  const codecId = (codec: string) => CODEC_IDS[codec]?.[matroska ? 0 : 1] ?? null;
  const trackUid = (index: number) => (matroska ? uid(`${name}#${index}`, 8) : null);
  const language = (iso1: string) => ({ Language: iso1, ...LANGUAGES.get(iso1) });
  const duration = Math.round(sample.durationSeconds * 1000) / 1000;
  const frameRate = sample.frameRate ?? 23.976;
  const bitDepth = sample.bitDepth ?? 8;

  const audio = sample.audio.map((stream, index): Fields => {
    const lossless = stream.codec === 'FLAC';
    const dolby = stream.codec === 'AC-3' || stream.codec === 'E-AC-3';
    return {
      UniqueID: trackUid(index + 1),
      ID: index + 2,
      Title: stream.title ?? null,
      StreamOrder: index + 1,
      Format: stream.codec,
      Format_AdditionalFeatures: stream.codec === 'AAC' ? 'LC' : null,
      Format_Commercial_IfAny: stream.codec === 'AC-3' ? 'Dolby Digital' : stream.codec === 'E-AC-3' ? 'Dolby Digital Plus' : null,
      Format_Settings_Endianness: dolby ? 'Big' : null,
      CodecID: codecId(stream.codec),
      ...language(stream.language),
      Default: index === 0,
      Channels: stream.channels,
      ChannelLayout: CHANNEL_LAYOUTS[stream.channels] ?? null,
      SamplesPerFrame: dolby ? 1536 : lossless ? 4608 : stream.codec === 'AAC' ? 1024 : 0,
      SamplingRate: 48000,
      Compression_Mode: lossless ? 'Lossless' : 'Lossy',
      BitRate: lossless ? 450_000 * stream.channels : dolby ? (stream.channels > 2 ? 448_000 : 192_000) : 64_000 * stream.channels,
      BitRate_Mode: dolby ? 'CBR' : 'VBR',
      BitDepth: lossless ? 16 : 0,
      extra: stream.codec === 'AC-3' ? ac3Extra(stream.channels) : null,
    };
  });
  const audioBitRate = audio.reduce((sum, stream) => sum + (stream.BitRate as number), 0);
  const overallBitRate = sample.fileSizeBytes
    ? Math.round((sample.fileSizeBytes * 8) / duration)
    : Math.round(sample.width * sample.height * frameRate * 0.1) + audioBitRate;

  const avc = sample.videoCodec === 'AVC';
  const hevc = sample.videoCodec === 'HEVC';
  const video: Fields = {
    UniqueID: trackUid(0),
    ID: 1,
    StreamOrder: 0,
    Format: sample.videoCodec,
    Format_Profile: avc ? (bitDepth > 8 ? 'High 10' : 'High') : hevc ? (bitDepth > 8 ? 'Main 10' : 'Main') : null,
    Format_Settings: avc ? 'CABAC / 4 Ref Frames' : null,
    Format_Level: avc || hevc ? (sample.height >= 1080 ? '4.1' : sample.height >= 720 ? '3.1' : '3') : null,
    Format_Tier: hevc ? 'Main' : null,
    CodecID: codecId(sample.videoCodec),
    Default: true,
    Format_Settings_CABAC: avc,
    Format_Settings_RefFrames: avc ? 4 : 0,
    BitRate: Math.max(0, overallBitRate - audioBitRate),
    Width: sample.width,
    Height: sample.height,
    PixelAspectRatio: '1.000',
    FrameRate: frameRate.toFixed(3),
    FrameRate_Mode: 'CFR',
    FrameCount: Math.round(duration * frameRate),
    ColorSpace: 'YUV',
    ChromaSubsampling: '4:2:0',
    BitDepth: bitDepth,
    ScanType: 'Progressive',
    Encoded_Library_Name: avc ? 'x264' : hevc ? 'x265' : null,
    colour_range: 'Limited',
    colour_primaries: 'BT.709',
    transfer_characteristics: 'BT.709',
    matrix_coefficients: 'BT.709',
  };
  const general: Fields = {
    UniqueID: matroska ? uid(name, 16) : null,
    Format: matroska ? 'Matroska' : 'MPEG-4',
    Format_Profile: matroska ? null : 'Base Media',
    CodecID: matroska ? null : 'isom',
    Duration: duration,
    OverallBitRate: overallBitRate,
    FileExtension: /\.([^.]+)$/.exec(name)?.[1] ?? (matroska ? 'mkv' : 'mp4'),
    Format_Version: matroska ? 4 : 0,
    FrameRate: frameRate.toFixed(3),
    IsStreamable: true,
  };
  const subtitles = sample.subtitles.map((stream, index): Fields => ({
    UniqueID: trackUid(audio.length + 1 + index),
    ID: audio.length + 2 + index,
    Title: stream.title ?? null,
    StreamOrder: audio.length + 1 + index,
    Format: matroska || stream.codec !== 'UTF-8' ? stream.codec : 'Timed Text',
    CodecID: codecId(stream.codec),
    ...language(stream.language),
    Default: index === 0,
    Forced: stream.forced ?? false,
  }));
  const chapters = sample.chapters ?? [];
  const menu: Fields = {
    // mkvmerge tags chapter names with their language; MediaInfo prints it as a prefix.
    extra: Object.fromEntries(chapters.map((chapter) => [chapterKey(chapter.startSeconds), `${matroska ? 'en:' : ''}${chapter.title}`])),
  };

  const tracks = [
    track(0, GENERAL, general),
    track(1, VIDEO, video),
    ...audio.map((fields) => track(2, AUDIO, fields)),
    ...subtitles.map((fields) => track(3, TEXT, fields)),
    ...(chapters.length > 0 ? [track(4, MENU, menu)] : []),
  ];
  const container = join([arrayHeader(1), arrayHeader(1), arrayHeader(tracks.length), ...tracks]);
  return { version: SHOKO_MEDIA_VERSION, blob: lz4BlockArray(container) };
}
