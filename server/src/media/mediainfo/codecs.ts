import type { Codec } from '@shoko-ts/contract';
import type { MediaTrack } from './track.js';
import { text } from './track.js';

interface KnownCodec {
  simplified: string;
  name: string;
}

const known = (simplified: string, name: string): KnownCodec => ({ simplified, name });

/** MediaInfoLib `Format` (lower-cased) → the contract's short upper-case id and a readable name. */
const BY_FORMAT: Record<string, KnownCodec> = {
  avc: known('H264', 'H.264 / AVC'),
  hevc: known('HEVC', 'H.265 / HEVC'),
  av1: known('AV1', 'AV1'),
  vp8: known('VP8', 'VP8'),
  vp9: known('VP9', 'VP9'),
  'mpeg-4 visual': known('MPEG4', 'MPEG-4 Visual'),
  'vc-1': known('VC1', 'VC-1'),
  theora: known('THEORA', 'Theora'),
  'h.263': known('H263', 'H.263'),
  prores: known('PRORES', 'Apple ProRes'),
  ffv1: known('FFV1', 'FFV1'),
  aac: known('AAC', 'AAC'),
  'ac-3': known('AC3', 'Dolby Digital'),
  'e-ac-3': known('EAC3', 'Dolby Digital Plus'),
  'mlp fba': known('TRUEHD', 'Dolby TrueHD'),
  dts: known('DTS', 'DTS'),
  flac: known('FLAC', 'FLAC'),
  opus: known('OPUS', 'Opus'),
  vorbis: known('VORBIS', 'Vorbis'),
  pcm: known('PCM', 'PCM'),
  alac: known('ALAC', 'Apple Lossless'),
  wma: known('WMA', 'Windows Media Audio'),
  ass: known('ASS', 'Advanced SubStation Alpha'),
  ssa: known('SSA', 'SubStation Alpha'),
  'utf-8': known('SRT', 'SubRip'),
  subrip: known('SRT', 'SubRip'),
  pgs: known('PGS', 'Blu-ray PGS'),
  vobsub: known('VOBSUB', 'VobSub'),
  webvtt: known('WEBVTT', 'WebVTT'),
  'timed text': known('TX3G', 'MPEG-4 Timed Text'),
  'dvb subtitle': known('DVBSUB', 'DVB Subtitle'),
  'eia-608': known('EIA608', 'EIA-608 Closed Captions'),
  'eia-708': known('EIA708', 'EIA-708 Closed Captions'),
};

/** MediaInfoLib names a few codecs only together with a version or layer. */
function knownCodec(format: string, track: MediaTrack): KnownCodec | undefined {
  const key = format.toLowerCase();
  if (key === 'mpeg video') {
    return /version 1/i.test(text(track.Format_Version) ?? '') ? known('MPEG1', 'MPEG-1 Video') : known('MPEG2', 'MPEG-2 Video');
  }
  if (key === 'mpeg audio') {
    const layer = /layer (\d)/i.exec(text(track.Format_Profile) ?? '')?.[1];
    return layer === '3' ? known('MP3', 'MP3') : layer === '2' ? known('MP2', 'MPEG Audio Layer 2') : known('MPA', 'MPEG Audio');
  }
  // DTS-HD Master Audio is DTS core plus the lossless XLL extension.
  if (key === 'dts' && /\bXLL\b/.test(text(track.Format_AdditionalFeatures) ?? '')) return known('DTSHD', 'DTS-HD Master Audio');
  return BY_FORMAT[key];
}

/** `Codec` of a stream (files.md §1.8.1). Unknown formats keep MediaInfo's name, reduced to an upper-case id. */
export function streamCodec(track: MediaTrack): Codec {
  const format = text(track.Format) ?? '';
  const match = knownCodec(format, track);
  const simplified = match?.simplified ?? (format.toUpperCase().replace(/[^A-Z0-9]/g, '') || 'UNKNOWN');
  return { ...(match ? { Name: match.name } : {}), Simplified: simplified, Raw: text(track.CodecID) };
}

/** Codec of an external subtitle file, known only from its extension (and, for `.sub`, whether an `.idx` goes with it). */
export function subtitleFileCodec(extension: string): { codec: Codec; format: string } | null {
  const byExtension: Record<string, [format: string, codec: KnownCodec]> = {
    srt: ['SubRip', BY_FORMAT.subrip],
    ass: ['ASS', BY_FORMAT.ass],
    ssa: ['SSA', BY_FORMAT.ssa],
    vtt: ['WebVTT', BY_FORMAT.webvtt],
    idx: ['VobSub', BY_FORMAT.vobsub],
    sub: ['MicroDVD', known('MICRODVD', 'MicroDVD')],
  };
  const entry = byExtension[extension.toLowerCase()];
  if (!entry) return null;
  const [format, codec] = entry;
  return { codec: { Name: codec.name, Simplified: codec.simplified, Raw: null }, format };
}
