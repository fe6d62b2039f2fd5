/**
 * What a browser is told about a file's streams (RFC 6381 codec strings, MIME types) and what a play session must do
 * with each stream (copy or transcode). Pure functions over ffprobe facts, so they are unit-tested without media.
 */

export interface VideoFacts {
  codec: string;
  profile: string | null;
  /** ffprobe's `level` (H.264: 40 = 4.0; HEVC: general_level_idc, 120 = 4.0); null or negative when unknown. */
  level: number | null;
  bitDepth: number | null;
  width: number;
  height: number;
}

export interface AudioFacts {
  codec: string;
  profile: string | null;
}

const hex2 = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');

const H264_PROFILES: Record<string, [idc: number, constraints: number]> = {
  'constrained baseline': [0x42, 0xe0],
  baseline: [0x42, 0x00],
  main: [0x4d, 0x00],
  extended: [0x58, 0x00],
  high: [0x64, 0x00],
  'high 10': [0x6e, 0x00],
  'high 10 intra': [0x6e, 0x10],
  'high 4:2:2': [0x7a, 0x00],
  'high 4:2:2 intra': [0x7a, 0x10],
  'high 4:4:4 predictive': [0xf4, 0x00],
  'high 4:4:4 intra': [0xf4, 0x10],
};

/** A level a decoder can surely take for this picture size when the file does not say. */
function levelForSize(width: number, height: number, table: Array<[pixels: number, level: number]>): number {
  const pixels = width * height;
  return (table.find(([max]) => pixels <= max) ?? table[table.length - 1])[1];
}

/** The level the stream states (0 counts only where it is a level, as in AV1), else one for its picture size. */
function statedLevel(video: VideoFacts, table: Array<[pixels: number, level: number]>, zeroIsALevel = false): number {
  const stated = video.level;
  if (stated !== null && (stated > 0 || (zeroIsALevel && stated === 0))) return stated;
  return levelForSize(video.width, video.height, table);
}

function h264Codec(video: VideoFacts): string | null {
  const profile = H264_PROFILES[(video.profile ?? '').toLowerCase()];
  if (!profile) return null;
  const level = statedLevel(video, [
    [414_720, 30],
    [921_600, 31],
    [2_228_224, 41],
    [Infinity, 51],
  ]);
  return `avc1.${hex2(profile[0])}${hex2(profile[1])}${hex2(level)}`.toLowerCase();
}

function hevcCodec(video: VideoFacts): string | null {
  const name = (video.profile ?? '').toLowerCase();
  // general_profile_idc, and its compatibility flag written bit-reversed as the RFC asks (Main: 0x6, Main 10: 0x4).
  const profile = name === 'main' ? [1, 6] : name === 'main 10' ? [2, 4] : name === 'rext' ? [4, 10] : null;
  if (!profile) return null;
  const level = statedLevel(video, [
    [921_600, 93],
    [2_228_224, 120],
    [Infinity, 153],
  ]);
  return `hev1.${profile[0]}.${profile[1]}.L${level}.90`;
}

function vp9Codec(video: VideoFacts): string {
  const profile = /profile (\d)/i.exec(video.profile ?? '')?.[1] ?? ((video.bitDepth ?? 8) > 8 ? '2' : '0');
  const level = levelForSize(video.width, video.height, [
    [921_600, 31],
    [2_228_224, 40],
    [Infinity, 51],
  ]);
  return `vp09.0${profile}.${level}.${String(video.bitDepth ?? 8).padStart(2, '0')}`;
}

function av1Codec(video: VideoFacts): string {
  const profile = { main: 0, high: 1, professional: 2 }[(video.profile ?? 'main').toLowerCase()] ?? 0;
  const level = statedLevel(
    video,
    [
      [921_600, 5],
      [2_228_224, 8],
      [Infinity, 12],
    ],
    true,
  );
  return `av01.${profile}.${String(level).padStart(2, '0')}M.${String(video.bitDepth ?? 8).padStart(2, '0')}`;
}

/** The RFC 6381 codec string of a video stream (`avc1.640028`, `hev1.2.4.L120.90`, `vp09.00.40.08`), null if unknown. */
export function videoMimeCodec(video: VideoFacts): string | null {
  switch (video.codec) {
    case 'h264':
      return h264Codec(video);
    case 'hevc':
      return hevcCodec(video);
    case 'vp9':
      return vp9Codec(video);
    case 'vp8':
      return 'vp8';
    case 'av1':
      return av1Codec(video);
    case 'mpeg4':
      return 'mp4v.20.9';
    default:
      return null;
  }
}

const AAC_OBJECT_TYPES: Record<string, number> = { lc: 2, he: 5, 'he-aac': 5, 'he-aacv2': 29, main: 1, ltp: 4 };

/** The RFC 6381 codec string of an audio stream (`mp4a.40.2`, `opus`, `flac`, `ac-3`, `ec-3`), null if unknown. */
export function audioMimeCodec(audio: AudioFacts): string | null {
  switch (audio.codec) {
    case 'aac':
      return `mp4a.40.${AAC_OBJECT_TYPES[(audio.profile ?? 'lc').toLowerCase()] ?? 2}`;
    case 'mp3':
      return 'mp4a.6B';
    case 'opus':
      return 'opus';
    case 'flac':
      return 'flac';
    case 'vorbis':
      return 'vorbis';
    case 'ac3':
      return 'ac-3';
    case 'eac3':
      return 'ec-3';
    case 'dts':
      return 'dtsc';
    case 'truehd':
      return 'mlpa';
    case 'alac':
      return 'alac';
    default:
      return null;
  }
}

/** The short container name from ffprobe's `format_name` and the file's extension. */
export function containerOf(formatName: string, fileName: string): string {
  const extension = fileName.toLowerCase().split('.').pop() ?? '';
  const formats = formatName.split(',');
  if (formats.includes('matroska')) return extension === 'webm' ? 'webm' : 'matroska';
  if (formats.includes('mp4') || formats.includes('mov')) return extension === 'mov' ? 'mov' : 'mp4';
  return formats[0] || extension;
}

const CONTAINER_MIME: Record<string, string> = {
  matroska: 'video/x-matroska',
  webm: 'video/webm',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  mpegts: 'video/mp2t',
  ogg: 'video/ogg',
};

/** WebM names its codecs plainly; the other containers use the RFC 6381 strings. */
const WEBM_NAMES: Record<string, string> = { vp8: 'vp8', vp9: 'vp9', opus: 'opus', vorbis: 'vorbis' };

/**
 * The MIME type with codecs a browser is asked about before playing the file directly, e.g.
 * `video/mp4; codecs="avc1.640028, mp4a.40.2"`; the codecs part is left out when a stream's string is unknown.
 */
export function directMimeType(
  container: string,
  video: { codec: string; mimeCodec: string | null } | null,
  audio: { codec: string; mimeCodec: string | null } | null,
): string {
  const base = CONTAINER_MIME[container] ?? 'application/octet-stream';
  const codecs = [video, audio]
    .filter((stream): stream is { codec: string; mimeCodec: string | null } => stream !== null)
    .map((stream) => (container === 'webm' ? (WEBM_NAMES[stream.codec] ?? stream.mimeCodec) : stream.mimeCodec));
  if (!codecs.length || codecs.some((codec) => codec === null)) return base;
  return `${base}; codecs="${codecs.join(', ')}"`;
}

/** Video a fragmented MP4 can carry as it is. */
const FMP4_VIDEO = new Set(['h264', 'hevc', 'vp9', 'av1']);
/** Audio a fragmented MP4 can carry as it is (browsers' MSE accept these in MP4 when they decode them at all). */
const FMP4_AUDIO = new Set(['aac', 'mp3', 'opus', 'flac', 'ac3', 'eac3', 'alac']);

export type StreamMode = 'Copy' | 'Transcode';

/**
 * Copy the video when the browser said it decodes the codec, the stream fits in fMP4 and nothing is burnt in. H.264
 * above 8 bits (Hi10P) is always transcoded: browsers that report `h264` decode only 8-bit pictures.
 */
export function videoMode(video: VideoFacts, canDecode: readonly string[], burnIn: boolean): StreamMode {
  if (burnIn || !FMP4_VIDEO.has(video.codec) || !canDecode.includes(video.codec)) return 'Transcode';
  if (video.codec === 'h264' && (video.bitDepth ?? 8) > 8) return 'Transcode';
  return 'Copy';
}

/** Copy the audio the browser decodes and fMP4 carries; anything else becomes AAC stereo. */
export function audioMode(audio: AudioFacts, canDecode: readonly string[]): StreamMode {
  return FMP4_AUDIO.has(audio.codec) && canDecode.includes(audio.codec) ? 'Copy' : 'Transcode';
}

/** What a subtitle URL serves: ASS for ASS/SSA, WebVTT for the other text formats, nothing for image subtitles. */
export function subtitleFormat(codec: string): 'ass' | 'vtt' | null {
  if (codec === 'ass' || codec === 'ssa') return 'ass';
  if (['subrip', 'srt', 'webvtt', 'mov_text', 'text'].includes(codec)) return 'vtt';
  return null;
}

/** The x264 presets a transcode can run with (the setting's values but `Automatic`). */
export type X264Preset = 'ultrafast' | 'superfast' | 'veryfast' | 'faster' | 'fast' | 'medium';

/**
 * The x264 preset for a transcode. Automatic: on fewer than four cores a picture larger than 720p is encoded with
 * `ultrafast`, since decoding 1080p HEVC from the keyframe before a seek point and encoding a segment with `veryfast`
 * takes 2.5 s on two cores (1.6 s with `ultrafast`, at about three times the bitrate); otherwise `veryfast`.
 */
export function x264Preset(setting: X264Preset | 'Automatic', width: number, height: number, cores: number): X264Preset {
  if (setting !== 'Automatic') return setting;
  return cores < 4 && width * height > 1280 * 720 ? 'ultrafast' : 'veryfast';
}
