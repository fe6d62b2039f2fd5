import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * Watching in the browser (our extension, issue 43): what a file holds, and HLS sessions that copy what the browser
 * decodes and transcode the rest. Media URLs carry a signed, expiring `token` query parameter because a `<video>`
 * element or hls.js cannot always send the `apikey` header.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A video stream; `MimeCodec` is the RFC 6381 codec string (`avc1.640028`, `hev1.2.4.L120.90`, `vp09.00.40.08`). */
export const PlaybackVideoStream = Type.Object({
  /** The stream index in the file (ffprobe's numbering). */
  Index: Type.Integer(),
  /** ffmpeg's codec id: h264, hevc, vp9, av1, mpeg4, … */
  Codec: Type.String(),
  Profile: Nullable(Type.String()),
  BitDepth: Nullable(Type.Integer()),
  Width: Type.Integer(),
  Height: Type.Integer(),
  MimeCodec: Nullable(Type.String()),
});
export type PlaybackVideoStream = Static<typeof PlaybackVideoStream>;

export const PlaybackAudioStream = Type.Object({
  Index: Type.Integer(),
  /** aac, opus, flac, ac3, eac3, dts, truehd, mp3, vorbis, … */
  Codec: Type.String(),
  Channels: Type.Integer(),
  /** ISO 639-2 code, or null when the file does not say. */
  Language: Nullable(Type.String()),
  Title: Nullable(Type.String()),
  Default: Type.Boolean(),
  /** `mp4a.40.2`, `opus`, `flac`, `ac-3`, `ec-3`, `mp4a.6B`, … null if unknown. */
  MimeCodec: Nullable(Type.String()),
});
export type PlaybackAudioStream = Static<typeof PlaybackAudioStream>;

export const PlaybackSubtitleKind = Type.Union([Type.Literal('Embedded'), Type.Literal('External')]);
export type PlaybackSubtitleKind = Static<typeof PlaybackSubtitleKind>;

/** What a subtitle `Url` serves: ASS for ass/ssa, WebVTT for subrip/webvtt/mov_text; null for image subtitles. */
export const PlaybackSubtitleFormat = Nullable(Type.Union([Type.Literal('ass'), Type.Literal('vtt')]));
export type PlaybackSubtitleFormat = Static<typeof PlaybackSubtitleFormat>;

export const PlaybackSubtitle = Type.Object({
  /** `embedded-<stream index>` or `external-<n>` (n counts the external files from 0). */
  ID: Type.String(),
  Kind: PlaybackSubtitleKind,
  /** ass, ssa, subrip, webvtt, mov_text, hdmv_pgs_subtitle, dvd_subtitle, … */
  Codec: Type.String(),
  IsText: Type.Boolean(),
  Format: PlaybackSubtitleFormat,
  Language: Nullable(Type.String()),
  Title: Nullable(Type.String()),
  Default: Type.Boolean(),
  Forced: Type.Boolean(),
  /** Tokenized `Playback/File/{id}/Subtitle/{ID}`; null for image subtitles (burn them in through a session). */
  Url: Nullable(Type.String()),
});
export type PlaybackSubtitle = Static<typeof PlaybackSubtitle>;

/** A font attached to a Matroska file, for the ASS renderer. */
export const PlaybackFont = Type.Object({
  Name: Type.String(),
  MimeType: Type.String(),
  /** Tokenized `Playback/File/{id}/Font/{index}`. */
  Url: Type.String(),
});
export type PlaybackFont = Static<typeof PlaybackFont>;

/** A chapter, in seconds (an opening or ending is found by its title). */
export const PlaybackChapter = Type.Object({
  Title: Nullable(Type.String()),
  Start: Type.Number(),
  End: Type.Number(),
});
export type PlaybackChapter = Static<typeof PlaybackChapter>;

/** `GET /api/v3/File/{fileID}/Playback`. */
export const PlaybackInfo = Type.Object({
  FileID: Type.Integer(),
  EpisodeIDs: Type.Array(Type.Integer()),
  SeriesID: Nullable(Type.Integer()),
  FileName: Type.String(),
  /** Seconds. */
  Duration: Type.Number(),
  /** matroska, mp4, webm, avi, mpegts, … */
  Container: Type.String(),
  Video: Type.Array(PlaybackVideoStream),
  Audio: Type.Array(PlaybackAudioStream),
  Subtitles: Type.Array(PlaybackSubtitle),
  Fonts: Type.Array(PlaybackFont),
  Chapters: Type.Array(PlaybackChapter),
  /** `File/{id}/Stream?token=…`, the server's base path included. */
  DirectUrl: Type.String(),
  /** e.g. `video/mp4; codecs="avc1.640028, mp4a.40.2"`: what to ask MediaSource.isTypeSupported / canPlayType. */
  DirectMimeType: Type.String(),
  /** When the tokens in the URLs above stop working (ISO date-time). */
  TokenExpires: Type.String({ format: 'date-time' }),
  /** Seconds, or null when the user has none. */
  ResumePosition: Nullable(Type.Number()),
  Watched: Type.Boolean(),
  /** ISO 639-2 codes from the server's language settings (the series title order), in order of preference. */
  PreferredAudioLanguages: Type.Array(Type.String()),
  PreferredSubtitleLanguages: Type.Array(Type.String()),
  FfmpegAvailable: Type.Boolean(),
});
export type PlaybackInfo = Static<typeof PlaybackInfo>;

/** Codec ids (as in PlaybackInfo) the browser said it decodes. */
export const PlaybackCanDecode = Type.Object({
  Video: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }),
  Audio: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 }),
});
export type PlaybackCanDecode = Static<typeof PlaybackCanDecode>;

/** `POST /api/v3/Playback/Session`. */
export const PlaybackSessionRequest = Type.Object({
  FileID: Type.Integer({ minimum: 1 }),
  /** The audio stream's `Index`; the file's default (or first) audio stream when left out. */
  AudioStreamIndex: Type.Optional(Type.Integer({ minimum: 0 })),
  /** A subtitle `ID` to burn into the picture (image subtitles); forces a video transcode. */
  BurnSubtitleID: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  /** Seconds; the playlist still covers the whole file, the first segments produced are those from here. */
  StartPosition: Type.Optional(Type.Number({ minimum: 0 })),
  CanDecode: PlaybackCanDecode,
});
export type PlaybackSessionRequest = Static<typeof PlaybackSessionRequest>;

export const PlaybackStreamMode = Type.Union([Type.Literal('Copy'), Type.Literal('Transcode')]);
export type PlaybackStreamMode = Static<typeof PlaybackStreamMode>;

export const PlaybackSession = Type.Object({
  SessionID: Type.String(),
  /** HLS media playlist (fMP4 segments), tokenized, the server's base path included. */
  PlaylistUrl: Type.String(),
  VideoMode: PlaybackStreamMode,
  AudioMode: PlaybackStreamMode,
  /** Target segment duration in seconds (segments may be shorter where a copied stream has its keyframes). */
  SegmentSeconds: Type.Number(),
  Duration: Type.Number(),
  /** When the session's token stops working (ISO date-time); a silent session ends after 60 s anyway. */
  Expires: Type.String({ format: 'date-time' }),
});
export type PlaybackSession = Static<typeof PlaybackSession>;

export const PlaybackSessionParams = Type.Object({ sessionID: Type.String({ minLength: 1, maxLength: 64 }) });
export type PlaybackSessionParams = Static<typeof PlaybackSessionParams>;

/** `GET Playback/Session/{sessionID}/{name}`: `index.m3u8`, `init.mp4`, `segment-<n>.m4s`. */
export const PlaybackSessionFileParams = Type.Object({
  sessionID: Type.String({ minLength: 1, maxLength: 64 }),
  name: Type.String({ minLength: 1, maxLength: 64 }),
});
export type PlaybackSessionFileParams = Static<typeof PlaybackSessionFileParams>;

export const PlaybackTokenQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 512 }) });
export type PlaybackTokenQuery = Static<typeof PlaybackTokenQuery>;

export const PlaybackSubtitleParams = Type.Object({
  fileID: Type.Integer({ minimum: 1 }),
  subtitleID: Type.String({ minLength: 1, maxLength: 64 }),
});
export type PlaybackSubtitleParams = Static<typeof PlaybackSubtitleParams>;

export const PlaybackFontParams = Type.Object({
  fileID: Type.Integer({ minimum: 1 }),
  index: Type.Integer({ minimum: 0 }),
});
export type PlaybackFontParams = Static<typeof PlaybackFontParams>;

/** The problem text of a session asked for while the server has no ffmpeg (503). */
export const PLAYBACK_NEEDS_FFMPEG = 'This file needs ffmpeg on the server to play in the browser.';

/**
 * The problem `detail` of a 404 for a session that has ended (stopped, silent for a minute, or its server restarted): a
 * player that sees it starts a new session at its position.
 */
export const PLAYBACK_SESSION_ENDED = 'The playback session has ended.';

/** The playback routes (beyond the Shoko contract); the token routes take no API key. */
export const PLAYBACK_ROUTES = [
  'GET /api/v3/File/{fileID}/Playback',
  'POST /api/v3/Playback/Session',
  'GET /api/v3/Playback/Session/{sessionID}/{name}',
  'POST /api/v3/Playback/Session/{sessionID}/Stop',
  'POST /api/v3/Playback/Session/{sessionID}/KeepAlive',
  'DELETE /api/v3/Playback/Session/{sessionID}',
  'GET /api/v3/Playback/File/{fileID}/Subtitle/{subtitleID}',
  'GET /api/v3/Playback/File/{fileID}/Font/{index}',
] as const;

/** x264 presets a transcode may use, fastest first; `Automatic` lets the server choose by picture size and cores. */
export const TRANSCODE_PRESETS = ['Automatic', 'ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium'] as const;
export type TranscodePreset = (typeof TRANSCODE_PRESETS)[number];

/** Settings section `Playback` (our extension of the server settings). */
export const PlaybackSettings = Type.Object({
  /** Transcoding sessions running at once (1–16); a further one is refused with 429. */
  MaxConcurrentTranscodes: Type.Integer({ minimum: 1, maximum: 16 }),
  /**
   * A player's `stop` report (File/{id}/Scrobble) at or past this share of the file (50–100 %) marks it watched,
   * unless the report says `watched` itself.
   */
  WatchedThresholdPercent: Type.Integer({ minimum: 50, maximum: 100 }),
  /**
   * The x264 preset of transcoded video: a faster one starts playback and seeks sooner and needs less CPU for more
   * bandwidth. `Automatic` (default): `ultrafast` for pictures larger than 720p on a server of fewer than four cores,
   * `veryfast` otherwise.
   */
  TranscodePreset: Type.Union(TRANSCODE_PRESETS.map((preset) => Type.Literal(preset))),
});
export type PlaybackSettings = Static<typeof PlaybackSettings>;
