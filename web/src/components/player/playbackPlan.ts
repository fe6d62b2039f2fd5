import type { PlaybackAudioStream, PlaybackCanDecode, PlaybackInfo, PlaybackSessionRequest, PlaybackSubtitle } from '@shoko-ts/contract';

/** What the browser says it can play; the real one asks a `<video>` element and Media Source Extensions. */
export interface MediaProbe {
  canPlayType(type: string): string;
  isTypeSupported(type: string): boolean;
}

export function browserProbe(): MediaProbe {
  const video = document.createElement('video');
  return {
    canPlayType: (type) => video.canPlayType(type),
    isTypeSupported: (type) => typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported(type),
  };
}

/** The tracks the viewer picked: an audio stream `Index` and a subtitle `ID` (null: the file's default / none). */
export interface TrackChoice {
  audioIndex: number | null;
  subtitleId: string | null;
}

export type PlaybackPlan = { kind: 'direct'; url: string; mimeType: string } | { kind: 'session'; request: PlaybackSessionRequest };

/** The audio stream a `<video>` playing the file itself plays: the one flagged default, else the first. */
export function directAudioIndex(audio: readonly PlaybackAudioStream[]): number | null {
  return (audio.find((stream) => stream.Default) ?? audio[0])?.Index ?? null;
}

const mseType = (kind: 'video' | 'audio', codec: string) => `${kind}/mp4; codecs="${codec}"`;

// The codecs a transcode produces: said to decode when the browser does, so the server may copy streams already in them.
const TRANSCODE_TARGETS = { video: [['h264', 'avc1.640028']], audio: [['aac', 'mp4a.40.2']] } as const;

/**
 * The codec ids (ffmpeg's, as PlaybackInfo names them) of the file's streams that Media Source Extensions take in
 * fragmented MP4, the form the server's HLS segments have; what is missing here the server transcodes.
 */
export function canDecode(info: Pick<PlaybackInfo, 'Video' | 'Audio'>, probe: MediaProbe): PlaybackCanDecode {
  const decodes = (kind: 'video' | 'audio', streams: readonly { Codec: string; MimeCodec: string | null }[]) => {
    const codecs = new Set<string>();
    for (const [codec, mime] of TRANSCODE_TARGETS[kind]) if (probe.isTypeSupported(mseType(kind, mime))) codecs.add(codec);
    for (const stream of streams) if (stream.MimeCodec && probe.isTypeSupported(mseType(kind, stream.MimeCodec))) codecs.add(stream.Codec);
    return [...codecs];
  };
  return { Video: decodes('video', info.Video), Audio: decodes('audio', info.Audio) };
}

/**
 * Whether the browser plays the file as it is. A definite answer for the container with its codecs decides; a
 * hesitant one ("maybe", the container alone) needs every stream's own codec to be known and playable.
 */
export function playsDirectly(info: Pick<PlaybackInfo, 'DirectMimeType' | 'Video' | 'Audio'>, probe: MediaProbe): boolean {
  const answer = probe.canPlayType(info.DirectMimeType);
  if (answer === 'probably') return true;
  if (answer !== 'maybe') return false;
  const streams = [
    ...info.Video.map((stream) => ['video', stream.MimeCodec] as const),
    ...info.Audio.map((stream) => ['audio', stream.MimeCodec] as const),
  ];
  return info.Video.length > 0 && streams.every(([kind, codec]) => !!codec && probe.canPlayType(mseType(kind, codec)) !== '');
}

/** The subtitle the picture must carry: an image subtitle cannot be drawn in the browser, the transcoder burns it in. */
export function burntSubtitle(subtitles: readonly PlaybackSubtitle[], subtitleId: string | null): string | null {
  const subtitle = subtitles.find((candidate) => candidate.ID === subtitleId);
  return subtitle && (!subtitle.IsText || !subtitle.Url) ? subtitle.ID : null;
}

/**
 * Direct play when the browser decodes the file and the picked tracks need no server work (a `<video>` element plays
 * only the file's default audio track); otherwise an HLS session that copies what the browser decodes. Without
 * ffmpeg a file the browser plays is still played directly, with its default audio and no burnt-in subtitles.
 */
export function planPlayback(
  info: PlaybackInfo,
  probe: MediaProbe,
  choice: TrackChoice,
  startPosition: number,
  { directFailed = false }: { directFailed?: boolean } = {},
): PlaybackPlan {
  const direct: PlaybackPlan = { kind: 'direct', url: info.DirectUrl, mimeType: info.DirectMimeType };
  // A browser may claim a format and then fail on the file (a profile it does not decode): the server takes over.
  const browserPlays = !directFailed && playsDirectly(info, probe);
  const burn = burntSubtitle(info.Subtitles, choice.subtitleId);
  const defaultAudio = choice.audioIndex === null || choice.audioIndex === directAudioIndex(info.Audio);
  if (browserPlays && ((defaultAudio && !burn) || !info.FfmpegAvailable)) return direct;
  return {
    kind: 'session',
    request: {
      FileID: info.FileID,
      ...(choice.audioIndex !== null ? { AudioStreamIndex: choice.audioIndex } : {}),
      ...(burn ? { BurnSubtitleID: burn } : {}),
      ...(startPosition > 0 ? { StartPosition: Math.floor(startPosition) } : {}),
      CanDecode: canDecode(info, probe),
    },
  };
}

/** Two plans play the same thing (a seek is not a change): a track change that leaves this equal needs no new source. */
export function samePlayback(a: PlaybackPlan | null, b: PlaybackPlan | null): boolean {
  if (!a || !b) return a === b;
  if (a.kind === 'direct' || b.kind === 'direct') return a.kind === b.kind;
  return a.request.AudioStreamIndex === b.request.AudioStreamIndex && a.request.BurnSubtitleID === b.request.BurnSubtitleID;
}
