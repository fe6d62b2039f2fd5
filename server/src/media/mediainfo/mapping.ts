import type { AudioStream, Chapter, MediaInfo, StreamFormat, TextStream, VideoStream } from '@shoko-ts/contract';
import { streamCodec } from './codecs.js';
import { MediaInfoError } from './errors.js';
import { lookupLanguage, streamLanguage } from './languages.js';
import { standardResolution } from './resolution.js';
import { decimal, flag, integer, text, type MediaInfoDocument, type MediaTrack } from './track.js';

/** .NET TimeSpan text `[d.]hh:mm:ss[.fffffff]` of a number of seconds; the fraction is left out when zero. */
export function timeSpanText(seconds: number): string {
  const ticks = Math.max(0, Math.round(seconds * 1e7));
  const wholeSeconds = Math.floor(ticks / 1e7);
  const fraction = ticks % 1e7;
  const days = Math.floor(wholeSeconds / 86_400);
  const pad = (n: number) => String(n).padStart(2, '0');
  const clock = `${pad(Math.floor(wholeSeconds / 3600) % 24)}:${pad(Math.floor(wholeSeconds / 60) % 60)}:${pad(wholeSeconds % 60)}`;
  return `${days ? `${days}.` : ''}${clock}${fraction ? `.${String(fraction).padStart(7, '0')}` : ''}`;
}

/** Shoko serialises some of these objects with null members left out. */
function withoutNulls<T extends Record<string, unknown>>(value: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== null)) as never;
}

function streamFormat(track: MediaTrack, isVideo: boolean): StreamFormat {
  return withoutNulls({
    Name: text(track.Format) ?? 'unknown',
    Profile: text(track.Format_Profile),
    Level: text(track.Format_Level),
    Settings: text(track.Format_Settings),
    AdditionalFeatures: text(track.Format_AdditionalFeatures),
    Endianness: text(track.Format_Settings_Endianness),
    Tier: text(track.Format_Tier),
    Commercial: text(track.Format_Commercial_IfAny),
    ...(isVideo && {
      HDR: text(track.HDR_Format),
      HDRCompatibility: text(track.HDR_Format_Compatibility),
      CABAC: flag(track.Format_Settings_CABAC),
      BVOP: flag(track.Format_Settings_BVOP),
      QPel: flag(track.Format_Settings_QPel),
      GMC: text(track.Format_Settings_GMC),
      ReferenceFrames: integer(track.Format_Settings_RefFrames),
    }),
  });
}

/** Members every stream kind shares (files.md §1.8.1); `index` stands in for a missing ID or order. */
function streamBase(track: MediaTrack, index: number, isVideo = false) {
  return {
    ID: integer(track.ID) ?? index + 1,
    UID: text(track.UniqueID) ?? '',
    Title: text(track.Title),
    Order: integer(track.StreamOrder) ?? index,
    IsDefault: flag(track.Default) ?? false,
    IsForced: flag(track.Forced) ?? false,
    ...streamLanguage(text(track.Language)),
    Codec: streamCodec(track),
    Format: streamFormat(track, isVideo),
  };
}

function videoStream(track: MediaTrack, index: number): VideoStream {
  const width = integer(track.Width) ?? 0;
  const height = integer(track.Height) ?? 0;
  return withoutNulls({
    ...streamBase(track, index, true),
    Width: width,
    Height: height,
    Resolution: standardResolution(width, height),
    PixelAspectRatio: decimal(track.PixelAspectRatio) ?? 0,
    FrameRate: decimal(track.FrameRate) ?? 0,
    FrameRateMode: text(track.FrameRate_Mode),
    FrameCount: integer(track.FrameCount) ?? 0,
    ScanType: text(track.ScanType),
    ColorSpace: text(track.ColorSpace),
    ChromaSubsampling: text(track.ChromaSubsampling),
    MatrixCoefficients: text(track.matrix_coefficients),
    BitRate: integer(track.BitRate) ?? 0,
    BitDepth: integer(track.BitDepth) ?? 0,
  });
}

function audioStream(track: MediaTrack, index: number): AudioStream {
  return {
    ...streamBase(track, index),
    Channels: integer(track.Channels) ?? 0,
    ChannelLayout: text(track.ChannelLayout),
    SamplesPerFrame: integer(track.SamplesPerFrame) ?? 0,
    SamplingRate: integer(track.SamplingRate) ?? 0,
    CompressionMode: text(track.Compression_Mode),
    BitRate: integer(track.BitRate) ?? 0,
    BitRateMode: text(track.BitRate_Mode),
    BitDepth: integer(track.BitDepth) ?? 0,
  };
}

function textStream(track: MediaTrack, index: number): TextStream {
  return { ...streamBase(track, index), SubTitle: text(track.SubTitle), IsExternal: false };
}

/**
 * Chapters of a Menu track: MediaInfoLib lists each mark under an `extra` key `_hh_mm_ss_mmm`, its value the title,
 * optionally prefixed by the title's language (`en:Opening`).
 */
function chapters(menu: MediaTrack | undefined): Chapter[] {
  const marks = menu?.extra && typeof menu.extra === 'object' ? Object.entries(menu.extra as Record<string, unknown>) : [];
  const found: Array<Chapter & { seconds: number }> = [];
  for (const [key, value] of marks) {
    const time = /^_(\d+)_(\d{2})_(\d{2})_(\d{3})/.exec(key);
    if (!time) continue;
    const seconds = Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3]) + Number(time[4]) / 1000;
    const label = text(value) ?? '';
    // Only a language tag counts as a prefix, so a title such as "Part 1: Arrival" stays whole.
    const prefixed = /^([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)?):(.*)$/.exec(label);
    const language = prefixed ? lookupLanguage(prefixed[1]) : null;
    found.push({
      Title: (prefixed && language ? prefixed[2] : label).trim(),
      Language: language?.name ?? 'Unknown',
      Timestamp: timeSpanText(seconds),
      seconds,
    });
  }
  return found.sort((a, b) => a.seconds - b.seconds).map(({ seconds: _seconds, ...chapter }) => chapter);
}

/** Usual file extension of each container MediaInfoLib names (`Format` of the General track). */
const CONTAINER_EXTENSIONS: Record<string, string> = {
  matroska: 'mkv',
  webm: 'webm',
  'mpeg-4': 'mp4',
  avi: 'avi',
  'mpeg-ts': 'ts',
  bdav: 'm2ts',
  'mpeg-ps': 'mpg',
  'flash video': 'flv',
  'windows media': 'wmv',
  realmedia: 'rm',
  ogg: 'ogm',
  flac: 'flac',
  wave: 'wav',
};

function containerExtension(general: MediaTrack, fileExtension: string): string {
  const format = text(general.Format)?.toLowerCase() ?? '';
  if (format === 'mpeg-4' && /quicktime/i.test(text(general.Format_Profile) ?? '')) return 'mov';
  return CONTAINER_EXTENSIONS[format] ?? fileExtension.replace(/^\./, '').toLowerCase();
}

/** MediaInfo writes `2024-01-02 03:04:05 UTC` (older builds: `UTC 2024-01-02 03:04:05`). */
function encodedDate(general: MediaTrack): string | null {
  const raw = text(general.Encoded_Date);
  if (!raw) return null;
  const stamp = raw
    .replace(/\bUTC\b/, '')
    .trim()
    .split(' / ')[0]
    .replace(' ', 'T');
  const date = new Date(/(Z|[+-]\d{2}:?\d{2})$/.test(stamp) ? stamp : `${stamp}Z`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * MediaInfoLib's JSON → the contract's MediaInfo model (files.md §1.8). `path` only names the file in errors and
 * supplies the extension when the container is not one we know. Throws when the file holds no audio or video.
 */
export function toMediaInfoModel(document: MediaInfoDocument, path: string): MediaInfo {
  const tracks = document.media?.track ?? [];
  const general = tracks.find((track) => track['@type'] === 'General');
  const ofType = (type: string) => tracks.filter((track) => track['@type'] === type);
  const [video, audio] = [ofType('Video'), ofType('Audio')];
  if (!general || (video.length === 0 && audio.length === 0)) {
    const format = general && text(general.Format);
    throw new MediaInfoError('not-media', path, `not a media file (${format ? `${format} container without` : 'found no'} audio or video)`);
  }
  const extension = /\.([^./\\]+)$/.exec(path)?.[1] ?? '';
  return {
    Title: text(general.Title) ?? text(general.Movie),
    Duration: timeSpanText(decimal(general.Duration) ?? 0),
    BitRate: integer(general.OverallBitRate) ?? 0,
    FrameRate: decimal(general.FrameRate) ?? 0,
    Encoded: encodedDate(general),
    IsStreamable: false,
    FileExtension: containerExtension(general, extension),
    MediaContainer: text(general.Format) ?? '',
    MediaContainerVersion: integer(general.Format_Version) ?? 0,
    Video: video.map(videoStream),
    Audio: audio.map(audioStream),
    Subtitles: ofType('Text').map(textStream),
    Chapters: chapters(ofType('Menu')[0]),
  };
}
