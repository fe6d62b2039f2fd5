import path from 'node:path';
import type { PlaybackAudioStream, PlaybackChapter, PlaybackSubtitle, PlaybackVideoStream } from '@shoko-ts/contract';
import { audioMimeCodec, containerOf, directMimeType, subtitleFormat, videoMimeCodec, type VideoFacts } from '../../media/ffmpeg/codecs.js';
import { bitDepthOf, type ProbeResult, type ProbeStream } from '../../media/ffmpeg/probe.js';
import { findExternalSubtitles } from '../../media/mediainfo/external-subtitles.js';
import { lookupLanguage } from '../../media/mediainfo/languages.js';

/** A file's playable streams as the player sees them, with what the server needs to reach each one again. */
export interface MediaDescription {
  duration: number;
  formatStart: number;
  container: string;
  directMimeType: string;
  video: Array<PlaybackVideoStream & { facts: VideoFacts }>;
  audio: PlaybackAudioStream[];
  /** `Url` is filled in by the service; `streamIndex` is set for embedded tracks, `externalName` for files beside. */
  subtitles: Array<Omit<PlaybackSubtitle, 'Url'> & { streamIndex: number | null; externalName: string | null }>;
  fonts: Array<{ name: string; mimeType: string; streamIndex: number }>;
  chapters: PlaybackChapter[];
}

const FONT_TYPES = /^(application\/(x-)?(truetype|font)|font\/|application\/vnd\.ms-opentype|application\/x-font)/i;
const FONT_EXTENSIONS = /\.(ttf|otf|ttc|woff2?)$/i;
const EXTERNAL_CODECS: Record<string, string> = {
  '.srt': 'subrip',
  '.ass': 'ass',
  '.ssa': 'ssa',
  '.vtt': 'webvtt',
  '.idx': 'dvd_subtitle',
  '.sub': 'microdvd',
};

const tag = (stream: ProbeStream, name: string): string | null => {
  const tags = stream.tags ?? {};
  const key = Object.keys(tags).find((k) => k.toLowerCase() === name);
  return key ? tags[key] || null : null;
};

/** ISO 639-2 of a stream's language tag (`en` → `eng`); null for none or `und`. */
function languageOf(value: string | null): string | null {
  if (!value || value.toLowerCase() === 'und') return null;
  return lookupLanguage(value)?.code ?? value.toLowerCase();
}

const seconds = (value: string | undefined) => {
  const number = Number(value);
  return Number.isFinite(number) ? number : 0;
};

export async function describeMedia(file: { realPath: string; name: string }, probe: ProbeResult): Promise<MediaDescription> {
  const streams = probe.streams;
  const video = streams
    .filter((s) => s.codec_type === 'video' && !s.disposition?.attached_pic)
    .map((s) => {
      const facts: VideoFacts = {
        codec: s.codec_name ?? 'unknown',
        profile: s.profile ?? null,
        level: typeof s.level === 'number' ? s.level : null,
        bitDepth: bitDepthOf(s),
        width: s.width ?? 0,
        height: s.height ?? 0,
      };
      return {
        Index: s.index,
        Codec: facts.codec,
        Profile: facts.profile,
        BitDepth: facts.bitDepth,
        Width: facts.width,
        Height: facts.height,
        MimeCodec: videoMimeCodec(facts),
        facts,
      };
    });
  const audio = streams
    .filter((s) => s.codec_type === 'audio')
    .map((s): PlaybackAudioStream => ({
      Index: s.index,
      Codec: s.codec_name ?? 'unknown',
      Channels: s.channels ?? 2,
      Language: languageOf(tag(s, 'language')),
      Title: tag(s, 'title'),
      Default: !!s.disposition?.default,
      MimeCodec: audioMimeCodec({ codec: s.codec_name ?? '', profile: s.profile ?? null }),
    }));
  const embedded = streams
    .filter((s) => s.codec_type === 'subtitle')
    .map((s) => {
      const codec = s.codec_name ?? 'unknown';
      const format = subtitleFormat(codec);
      return {
        ID: `embedded-${s.index}`,
        Kind: 'Embedded' as const,
        Codec: codec,
        IsText: format !== null,
        Format: format,
        Language: languageOf(tag(s, 'language')),
        Title: tag(s, 'title'),
        Default: !!s.disposition?.default,
        Forced: !!s.disposition?.forced,
        streamIndex: s.index,
        externalName: null,
      };
    });
  const external = (await findExternalSubtitles(file.realPath)).map((found, n) => {
    const name = found.ExternalFilename ?? '';
    const codec = EXTERNAL_CODECS[path.extname(name).toLowerCase()] ?? 'unknown';
    const format = codec === 'microdvd' ? 'vtt' : subtitleFormat(codec);
    return {
      ID: `external-${n}`,
      Kind: 'External' as const,
      Codec: codec,
      IsText: format !== null,
      Format: format,
      Language: found.LanguageCode ?? null,
      Title: found.Title ?? name,
      Default: found.IsDefault,
      Forced: found.IsForced,
      streamIndex: null,
      externalName: name,
    };
  });
  const fonts = streams
    .filter((s) => s.codec_type === 'attachment')
    .map((s) => ({ name: tag(s, 'filename') ?? `font-${s.index}`, mimeType: tag(s, 'mimetype') ?? '', streamIndex: s.index }))
    .filter((a) => FONT_TYPES.test(a.mimeType) || FONT_EXTENSIONS.test(a.name))
    .map((a) => ({ ...a, mimeType: a.mimeType || 'application/x-truetype-font' }));
  const container = containerOf(probe.format.format_name, file.name);
  const defaultAudio = audio.find((a) => a.Default) ?? audio[0] ?? null;
  return {
    duration: seconds(probe.format.duration),
    formatStart: seconds(probe.format.start_time),
    container,
    directMimeType: directMimeType(
      container,
      video[0] ? { codec: video[0].Codec, mimeCodec: video[0].MimeCodec } : null,
      defaultAudio ? { codec: defaultAudio.Codec, mimeCodec: defaultAudio.MimeCodec } : null,
    ),
    video,
    audio,
    subtitles: [...embedded, ...external],
    fonts,
    chapters: probe.chapters.map((c) => ({ Title: c.tags?.title ?? null, Start: seconds(c.start_time), End: seconds(c.end_time) })),
  };
}
