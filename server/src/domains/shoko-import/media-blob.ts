import { decode, decodeMulti, ExtData } from '@msgpack/msgpack';
import type { MediaInfo } from '@shoko-ts/contract';
import { MediaInfoError, toMediaInfoModel } from '../../media/mediainfo/index.js';

/*
 * Shoko Server's VideoLocal.MediaBlob → the MediaInfo model we store in files.media_info.
 *
 * Shoko 5.0–5.3 write MediaVersion 5: its MediaContainer class serialised by MessagePack-CSharp 2.5 with LZ4 "block
 * array" compression:
 *   blob      = [ext 98 (each block's uncompressed length, as msgpack ints), bin (LZ4 block), …]
 *               (a serialisation shorter than 64 bytes is stored as is, uncompressed)
 *   container = [media];  media = [tracks];  tracks = [[kind, fields] | nil, …]
 *   kind      = 0 General, 1 Video, 2 Audio, 3 Text, 4 Menu (nil: a MediaInfo track kind Shoko does not keep)
 *   fields    = a map keyed by MediaInfo's own field names (Format, CodecID, Width, Language, extra, …), every
 *               member written: strings or nil, ints (0 when MediaInfo gave none), flags true/false, Duration a
 *               float64 of seconds, FrameRate / PixelAspectRatio decimal strings, Encoded_Date a msgpack timestamp.
 *               Shoko adds LanguageCode / LanguageName, and External / Filename on subtitle files found beside the video.
 * Because the names are MediaInfo's, each track becomes a MediaInfo JSON track again and goes through the same mapper
 * as our own analysis (media/mediainfo), so an imported file reads exactly like one we analysed.
 */

/** The MediaVersion Shoko 5.x writes; lower ones hold an older LZ4-compressed JSON that Shoko itself re-analyses. */
export const SHOKO_MEDIA_VERSION = 5;

export type ShokoMediaBlobFailure =
  | 'unknown-version' // a MediaVersion other than 5
  | 'undecodable' // not MessagePack / LZ4 of Shoko's MediaContainer
  | 'not-media'; // decoded, but without a General track or without any audio or video track

export type ShokoMediaBlobResult = { ok: true; mediaInfo: MediaInfo } | { ok: false; reason: ShokoMediaBlobFailure; detail: string };

type MediaInfoDocument = Parameters<typeof toMediaInfoModel>[0];
type MediaTrack = NonNullable<NonNullable<MediaInfoDocument['media']>['track']>[number];

const TRACK_KINDS = ['General', 'Video', 'Audio', 'Text', 'Menu'] as const;
const LZ4_BLOCK_ARRAY = 98;
/** Far above any real media info; guards against a corrupt length header asking for a huge allocation. */
const MAX_UNCOMPRESSED_BYTES = 64 * 1024 * 1024;

/**
 * Flags MediaInfo writes only for some formats (CABAC for AVC, …). Shoko stores `false` both for "No" and for
 * "not given", so a false flag is kept only on the formats that carry it, as our own analysis would show it.
 */
const FORMAT_SPECIFIC_FLAGS: Record<string, readonly string[]> = {
  Format_Settings_CABAC: ['avc'],
  Format_Settings_BVOP: ['mpeg-4 visual', 'mpeg video'],
  Format_Settings_QPel: ['mpeg-4 visual'],
};

const fail = (detail: string): never => {
  throw new Error(detail);
};

/** One LZ4 block (the format's block layout, no frame) that must expand to exactly `length` bytes. */
function lz4Decompress(input: Uint8Array, length: number): Uint8Array {
  const output = new Uint8Array(length);
  let inputAt = 0;
  let outputAt = 0;
  const next = () => (inputAt < input.length ? input[inputAt++] : fail('LZ4 block ends early'));
  const extendedLength = (start: number) => {
    let total = start;
    // 15 in the token's nibble means "more follows": bytes of 255 continue, the first smaller one ends it.
    if (start === 15) {
      let byte: number;
      do {
        byte = next();
        total += byte;
      } while (byte === 255);
    }
    return total;
  };
  while (inputAt < input.length) {
    const token = next();
    const literals = extendedLength(token >> 4);
    if (inputAt + literals > input.length || outputAt + literals > length) fail('LZ4 literals overrun');
    output.set(input.subarray(inputAt, inputAt + literals), outputAt);
    inputAt += literals;
    outputAt += literals;
    if (inputAt === input.length) break; // the last sequence is literals only
    const offset = next() | (next() << 8);
    const matchLength = extendedLength(token & 15) + 4;
    if (offset === 0 || offset > outputAt || outputAt + matchLength > length) fail('LZ4 match out of range');
    // Byte by byte: a match may overlap the bytes it is producing (offset < length repeats them).
    for (let i = 0; i < matchLength; i++, outputAt++) output[outputAt] = output[outputAt - offset];
  }
  if (outputAt !== length) fail(`LZ4 block gave ${outputAt} bytes, its header says ${length}`);
  return output;
}

/** The MessagePack of the container, out of MessagePack-CSharp's Lz4BlockArray envelope when it has one. */
function uncompressed(blob: Uint8Array): unknown {
  const outer = decode(blob);
  if (!Array.isArray(outer) || !(outer[0] instanceof ExtData) || outer[0].type !== LZ4_BLOCK_ARRAY) return outer;
  const lengthHeader = outer[0].data;
  const lengths = typeof lengthHeader === 'function' ? fail('LZ4 length header is not data') : [...decodeMulti(lengthHeader)];
  const blocks = outer.slice(1);
  if (lengths.length !== blocks.length) fail('LZ4 block count differs from its header');
  let total = 0;
  for (const length of lengths) {
    if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) fail('bad LZ4 block length');
    total += length as number;
  }
  if (total > MAX_UNCOMPRESSED_BYTES) fail(`claims ${total} bytes uncompressed`);
  const joined = new Uint8Array(total);
  let at = 0;
  blocks.forEach((block, index) => {
    if (!(block instanceof Uint8Array)) fail('LZ4 block is not binary');
    joined.set(lz4Decompress(block as Uint8Array, lengths[index] as number), at);
    at += lengths[index] as number;
  });
  return decode(joined);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/** `Encoded_Date` as MediaInfo writes it: Shoko parsed that text without a zone, so the timestamp's UTC fields are it. */
const mediaInfoDate = (date: Date) =>
  Number.isNaN(date.getTime()) ? undefined : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** A Shoko field back as MediaInfo's JSON would give it; undefined for what MediaInfo would have left out. */
function mediaInfoValue(name: string, value: unknown, fields: Record<string, unknown>): unknown {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return mediaInfoDate(value);
  if (typeof value === 'boolean') {
    if (value) return 'Yes';
    const formats = FORMAT_SPECIFIC_FLAGS[name];
    return !formats || formats.includes(String(fields.Format ?? '').toLowerCase()) ? 'No' : undefined;
  }
  // MediaInfo never reports zero reference frames: 0 is Shoko's "not given".
  if (name === 'Format_Settings_RefFrames' && value === 0) return undefined;
  return value;
}

function mediaTracks(container: unknown): Array<{ track: MediaTrack; fields: Record<string, unknown> }> {
  const media = Array.isArray(container) ? container[0] : fail('container is not an array');
  if (media === null) return [];
  const tracks = Array.isArray(media) ? media[0] : fail('media is not an array');
  if (tracks === null) return [];
  if (!Array.isArray(tracks)) fail('track list is not an array');
  return (tracks as unknown[])
    .filter((entry) => entry !== null)
    .map((entry) => {
      const [kindIndex, fields] = Array.isArray(entry) && entry.length === 2 ? entry : fail('track is not [kind, fields]');
      const kind = TRACK_KINDS[kindIndex as number] ?? fail(`unknown track kind ${String(kindIndex)}`);
      if (!isRecord(fields)) fail(`${kind} track has no fields`);
      const track: MediaTrack = { '@type': kind };
      for (const [name, value] of Object.entries(fields as Record<string, unknown>)) {
        const converted = mediaInfoValue(name, value, fields as Record<string, unknown>);
        if (converted !== undefined) track[name] = converted;
      }
      return { track, fields: fields as Record<string, unknown> };
    });
}

/**
 * Subtitle files Shoko found beside the video: marked external and numbered after the container's own streams, as
 * our analysis numbers the ones it finds.
 */
function markExternalSubtitles(model: MediaInfo, textFields: Array<Record<string, unknown>>): void {
  const external = new Set(textFields.flatMap((fields, index) => (fields.External === true ? [index] : [])));
  if (external.size === 0) return;
  const internal = [...model.Video, ...model.Audio, ...model.Subtitles.filter((_, index) => !external.has(index))];
  let nextId = Math.max(0, ...internal.map((stream) => stream.ID)) + 1;
  let nextOrder = Math.max(-1, ...internal.map((stream) => stream.Order)) + 1;
  model.Subtitles = model.Subtitles.map((stream, index) => {
    if (!external.has(index)) return stream;
    const filename = textFields[index].Filename;
    return {
      ...stream,
      ID: nextId++,
      Order: nextOrder++,
      IsExternal: true,
      ...(typeof filename === 'string' && filename ? { ExternalFilename: filename } : {}),
    };
  });
}

/**
 * Decodes a VideoLocal.MediaBlob written with the given MediaVersion into our stored MediaInfo model. Never throws:
 * a blob it cannot use comes back as `{ ok: false, reason, detail }`.
 */
export function readShokoMediaBlob(blob: Uint8Array, mediaVersion: number): ShokoMediaBlobResult {
  if (mediaVersion !== SHOKO_MEDIA_VERSION) {
    return { ok: false, reason: 'unknown-version', detail: `MediaVersion ${mediaVersion} (only ${SHOKO_MEDIA_VERSION} is read)` };
  }
  let tracks: ReturnType<typeof mediaTracks>;
  try {
    tracks = mediaTracks(uncompressed(blob));
  } catch (error) {
    return { ok: false, reason: 'undecodable', detail: error instanceof Error ? error.message : String(error) };
  }
  const general = tracks.find(({ track }) => track['@type'] === 'General')?.track;
  const extension = typeof general?.FileExtension === 'string' ? general.FileExtension : '';
  try {
    // The mapper takes the file extension from a path only when it does not know the container.
    const mediaInfo = toMediaInfoModel({ media: { track: tracks.map(({ track }) => track) } }, `shoko-media.${extension}`);
    markExternalSubtitles(
      mediaInfo,
      tracks.filter(({ track }) => track['@type'] === 'Text').map(({ fields }) => fields),
    );
    return { ok: true, mediaInfo };
  } catch (error) {
    if (error instanceof MediaInfoError) return { ok: false, reason: 'not-media', detail: error.message };
    return { ok: false, reason: 'undecodable', detail: error instanceof Error ? error.message : String(error) };
  }
}

/** {@link readShokoMediaBlob}'s model, or null for an unknown MediaVersion or a blob that cannot be used. */
export function mediaInfoFromShokoBlob(blob: Uint8Array, mediaVersion: number): MediaInfo | null {
  const result = readShokoMediaBlob(blob, mediaVersion);
  return result.ok ? result.mediaInfo : null;
}
