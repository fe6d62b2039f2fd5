import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TimeSpanText } from './common.js';

/*
 * contract files.md §1.8 — `File.MediaInfo`. Shoko serialises some of these classes with "omit null members"
 * (StreamFormat, VideoStream) and the others with nulls written out (AudioStream, TextStream), so the same base field
 * is `Optional` in one schema and `T | null` in another.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `Name` is left out when MediaInfo knows no readable codec name; `Simplified` is an upper-case id such as `H264`. */
export const Codec = Type.Object({
  Name: Type.Optional(Type.String()),
  Simplified: Type.String(),
  Raw: Nullable(Type.String()),
});
export type Codec = Static<typeof Codec>;

/** Every member but `Name` is left out when unknown; the video-only ones are always absent on audio and text. */
export const StreamFormat = Type.Object({
  Name: Type.String(),
  Profile: Type.Optional(Type.String()),
  Level: Type.Optional(Type.String()),
  Settings: Type.Optional(Type.String()),
  AdditionalFeatures: Type.Optional(Type.String()),
  Endianness: Type.Optional(Type.String()),
  Tier: Type.Optional(Type.String()),
  Commercial: Type.Optional(Type.String()),
  HDR: Type.Optional(Type.String()),
  HDRCompatibility: Type.Optional(Type.String()),
  CABAC: Type.Optional(Type.Boolean()),
  BVOP: Type.Optional(Type.Boolean()),
  QPel: Type.Optional(Type.Boolean()),
  GMC: Type.Optional(Type.String()),
  ReferenceFrames: Type.Optional(Type.Integer()),
});
export type StreamFormat = Static<typeof StreamFormat>;

/** TitleLanguage enum name (`English`, `Japanese`, `Unknown`, …). */
const LanguageName = Type.String();
/** ISO 639-2 three-letter code. */
const LanguageCode = Type.String({ minLength: 3, maxLength: 3 });

const streamBase = {
  ID: Type.Integer(),
  UID: Type.String(),
  Order: Type.Integer(),
  IsDefault: Type.Boolean(),
  IsForced: Type.Boolean(),
  Codec,
  Format: StreamFormat,
};

/** Null members omitted — including the base stream's `Title`, `Language` and `LanguageCode`. */
export const VideoStream = Type.Object({
  ...streamBase,
  Title: Type.Optional(Type.String()),
  Language: Type.Optional(LanguageName),
  LanguageCode: Type.Optional(LanguageCode),
  Width: Type.Integer(),
  Height: Type.Integer(),
  Resolution: Type.Optional(Type.String()),
  PixelAspectRatio: Type.Number(),
  FrameRate: Type.Number(),
  FrameRateMode: Type.Optional(Type.String()),
  FrameCount: Type.Integer(),
  ScanType: Type.Optional(Type.String()),
  ColorSpace: Type.Optional(Type.String()),
  ChromaSubsampling: Type.Optional(Type.String()),
  MatrixCoefficients: Type.Optional(Type.String()),
  BitRate: Type.Integer(),
  BitDepth: Type.Integer(),
});
export type VideoStream = Static<typeof VideoStream>;

const nullableBase = {
  ...streamBase,
  Title: Nullable(Type.String()),
  Language: Nullable(LanguageName),
  LanguageCode: Nullable(LanguageCode),
};

export const AudioStream = Type.Object({
  ...nullableBase,
  Channels: Type.Integer(),
  ChannelLayout: Nullable(Type.String()),
  SamplesPerFrame: Type.Integer(),
  SamplingRate: Type.Integer(),
  CompressionMode: Nullable(Type.String()),
  BitRate: Type.Integer(),
  BitRateMode: Nullable(Type.String()),
  BitDepth: Type.Integer(),
});
export type AudioStream = Static<typeof AudioStream>;

/** `ExternalFilename` (the subtitle file's name) is present only on external subtitle files. */
export const TextStream = Type.Object({
  ...nullableBase,
  SubTitle: Nullable(Type.String()),
  IsExternal: Type.Boolean(),
  ExternalFilename: Type.Optional(Type.String()),
});
export type TextStream = Static<typeof TextStream>;

export const Chapter = Type.Object({
  Title: Type.String(),
  Language: LanguageName,
  Timestamp: TimeSpanText,
});
export type Chapter = Static<typeof Chapter>;

export const MediaInfo = Type.Object({
  Title: Nullable(Type.String()),
  Duration: TimeSpanText,
  BitRate: Type.Integer(),
  FrameRate: Type.Number(),
  /** ISO-8601 UTC. */
  Encoded: Nullable(Type.String()),
  /** Always `false`: Shoko 5.3.3 serialises the property but never sets it. */
  IsStreamable: Type.Boolean(),
  FileExtension: Type.String(),
  MediaContainer: Type.String(),
  MediaContainerVersion: Type.Integer(),
  Video: Type.Array(VideoStream),
  Audio: Type.Array(AudioStream),
  Subtitles: Type.Array(TextStream),
  Chapters: Type.Array(Chapter),
});
export type MediaInfo = Static<typeof MediaInfo>;
