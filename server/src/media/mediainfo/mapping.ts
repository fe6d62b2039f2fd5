import { describeLanguage } from './languages.js';

type Track = Record<string, unknown> & { '@type': string };

const num = (value: unknown): number | null => {
  if (value === undefined || value === null || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};
const int = (value: unknown): number | null => {
  const n = num(value);
  return n === null ? null : Math.round(n);
};
const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : null);
const yes = (value: unknown) => typeof value === 'string' && value.toLowerCase() === 'yes';

/** .NET TimeSpan text `hh:mm:ss[.fffffff]` of seconds. */
export function timeSpanText(seconds: number): string {
  const ticks = Math.round(seconds * 1e7);
  const whole = Math.floor(ticks / 1e7);
  const fraction = ticks % 1e7;
  const pad = (n: number) => String(n).padStart(2, '0');
  const days = Math.floor(whole / 86400);
  const hms = `${pad(Math.floor((whole % 86400) / 3600))}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
  return `${days ? `${days}.` : ''}${hms}${fraction ? `.${String(fraction).padStart(7, '0')}` : ''}`;
}

const SIMPLIFIED_CODECS: Array<[RegExp, string]> = [
  [/^avc$/i, 'H264'], [/^hevc$/i, 'HEVC'], [/^av1$/i, 'AV1'], [/^vp9$/i, 'VP9'], [/^vp8$/i, 'VP8'], [/^mpeg-4 visual$/i, 'MPEG4'],
  [/^mpeg video$/i, 'MPEG2'], [/^vc-1$/i, 'VC1'], [/^aac/i, 'AAC'], [/^ac-3$/i, 'AC3'], [/^e-ac-3/i, 'EAC3'], [/^dts/i, 'DTS'],
  [/^flac$/i, 'FLAC'], [/^opus$/i, 'OPUS'], [/^mpeg audio$/i, 'MP3'], [/^vorbis$/i, 'VORBIS'], [/^mlp fba/i, 'TRUEHD'], [/^pcm$/i, 'PCM'],
  [/^ass$/i, 'ASS'], [/^ssa$/i, 'SSA'], [/^utf-8$/i, 'SRT'], [/^subrip$/i, 'SRT'], [/^pgs$/i, 'PGS'], [/^vobsub$/i, 'VOBSUB'], [/^webvtt$/i, 'WEBVTT'],
];

function codec(track: Track) {
  const format = str(track.Format) ?? '';
  const raw = str(track.CodecID);
  const simplified = SIMPLIFIED_CODECS.find(([pattern]) => pattern.test(format))?.[1] ?? format.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return { ...(format ? { Name: format } : {}), Simplified: simplified || 'UNKNOWN', Raw: raw };
}

function streamFormat(track: Track) {
  const entries: Record<string, unknown> = {
    Name: str(track.Format),
    Profile: str(track.Format_Profile),
    Level: str(track.Format_Level),
    Settings: str(track.Format_Settings),
    AdditionalFeatures: str(track.Format_AdditionalFeatures),
    Endianness: str(track.Format_Settings_Endianness),
    Tier: str(track.Format_Tier),
    Commercial: str(track.Format_Commercial_IfAny),
    HDR: str(track.HDR_Format),
    HDRCompatibility: str(track.HDR_Format_Compatibility),
    CABAC: track.Format_Settings_CABAC === undefined ? null : yes(track.Format_Settings_CABAC),
    BVOP: track.Format_Settings_BVOP === undefined ? null : yes(track.Format_Settings_BVOP),
    QPel: track.Format_Settings_QPel === undefined ? null : yes(track.Format_Settings_QPel),
    GMC: str(track.Format_Settings_GMC),
    ReferenceFrames: int(track.Format_Settings_RefFrames),
  };
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== null));
}

function baseStream(track: Track, order: number) {
  return {
    ID: int(track.ID) ?? order,
    UID: str(track.UniqueID) ?? '',
    Title: str(track.Title),
    Order: int(track.StreamOrder) ?? order,
    IsDefault: yes(track.Default),
    IsForced: yes(track.Forced),
    ...describeLanguage(str(track.Language) ?? undefined),
    Codec: codec(track),
    Format: streamFormat(track),
  };
}

const withoutNulls = <T extends Record<string, unknown>>(value: T) => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));

const STANDARD_RESOLUTIONS: Record<string, Array<[number, number, string]>> = {
  '1.333333': [[1440, 1080, '1080p'], [960, 720, '720p'], [720, 576, '576p'], [720, 480, '480p'], [480, 360, '360p'], [320, 240, '240p']],
  '1.777778': [[3840, 2160, '2160p'], [2560, 1440, '1440p'], [1920, 1080, '1080p'], [1280, 720, '720p'], [1024, 576, '576p'], [853, 480, '480p']],
  '2.333333': [[2560, 1080, 'UWHD'], [3440, 1440, 'UWQHD']],
};

/** contract files.md §1.8.3: nearest aspect ratio, then nearest pixel area. */
export function standardResolution(width: number, height: number): string | null {
  if (!width || !height) return null;
  const ratio = width / height;
  const aspect = Object.keys(STANDARD_RESOLUTIONS).reduce((best, key) => (Math.abs(Number(key) - ratio) < Math.abs(Number(best) - ratio) ? key : best));
  const area = width * height;
  return STANDARD_RESOLUTIONS[aspect].reduce((best, entry) => (Math.abs(entry[0] * entry[1] - area) < Math.abs(best[0] * best[1] - area) ? entry : best))[2];
}

/** Chapter marks of a Menu track: `extra` keys like `_00_01_30_500` → "Chapter title" (optionally `lang:title`). */
function chapters(menu: Track | undefined) {
  const extra = (menu?.extra ?? {}) as Record<string, unknown>;
  return Object.entries(extra)
    .map(([key, value]) => {
      const match = /^_(\d+)_(\d{2})_(\d{2})_(\d{3})$/.exec(key);
      if (!match) return null;
      const seconds = Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) + Number(match[4]) / 1000;
      const text = String(value);
      const lang = /^([a-z]{2,3}):(.*)$/.exec(text);
      return { Title: lang ? lang[2] : text, Language: describeLanguage(lang?.[1]).Language, Timestamp: timeSpanText(seconds), seconds };
    })
    .filter((c): c is NonNullable<typeof c> => c !== null)
    .sort((a, b) => a.seconds - b.seconds)
    .map(({ seconds: _seconds, ...chapter }) => chapter);
}

/** MediaInfoLib's JSON (object form) → the contract's MediaInfo model (files.md §1.8). */
export function toMediaInfoModel(result: { media?: { track?: Track[] } | null }) {
  const tracks = result.media?.track ?? [];
  const general = tracks.find((t) => t['@type'] === 'General');
  if (!general) throw new Error('MediaInfo found no container in this file');
  const of = (type: string) => tracks.filter((t) => t['@type'] === type);
  const video = of('Video').map((track, i) => {
    const width = int(track.Width) ?? 0;
    const height = int(track.Height) ?? 0;
    return withoutNulls({
      ...baseStream(track, i),
      Width: width,
      Height: height,
      Resolution: standardResolution(width, height),
      PixelAspectRatio: num(track.PixelAspectRatio),
      FrameRate: num(track.FrameRate),
      FrameRateMode: str(track.FrameRate_Mode),
      FrameCount: int(track.FrameCount),
      ScanType: str(track.ScanType),
      ColorSpace: str(track.ColorSpace),
      ChromaSubsampling: str(track.ChromaSubsampling),
      MatrixCoefficients: str(track.matrix_coefficients),
      BitRate: int(track.BitRate),
      BitDepth: int(track.BitDepth),
    });
  });
  const audio = of('Audio').map((track, i) => ({
    ...baseStream(track, i),
    Channels: int(track.Channels),
    ChannelLayout: str(track.ChannelLayout),
    SamplesPerFrame: int(track.SamplesPerFrame),
    SamplingRate: int(track.SamplingRate),
    CompressionMode: str(track.Compression_Mode),
    BitRate: int(track.BitRate),
    BitRateMode: str(track.BitRate_Mode),
    BitDepth: int(track.BitDepth),
  }));
  const subtitles = of('Text').map((track, i) => ({ ...baseStream(track, i), SubTitle: str(track.Title), IsExternal: false }));
  const encoded = str(general.Encoded_Date);
  const encodedDate = encoded ? new Date(encoded.replace(/^UTC\s*/, '').replace(' UTC', 'Z').replace(' ', 'T')) : null;
  return {
    Title: str(general.Title) ?? str(general.Movie),
    Duration: timeSpanText(num(general.Duration) ?? 0),
    BitRate: int(general.OverallBitRate) ?? 0,
    FrameRate: num(general.FrameRate) ?? 0,
    Encoded: encodedDate && !Number.isNaN(encodedDate.getTime()) ? encodedDate.toISOString() : null,
    IsStreamable: false,
    FileExtension: str(general.FileExtension) ?? '',
    MediaContainer: str(general.Format) ?? '',
    MediaContainerVersion: int(general.Format_Version) ?? 0,
    Video: video,
    Audio: audio,
    Subtitles: subtitles,
    Chapters: chapters(of('Menu')[0]),
  };
}
