import path from 'node:path';
import type { StreamMode, X264Preset } from './codecs.js';

/**
 * One HLS play session over ffmpeg: a media playlist of fMP4 segments covering the whole file, produced on demand.
 *
 * ffmpeg writes *units*, one per keyframe interval (`-hls_time` below any GOP makes its HLS muxer cut at every
 * keyframe), named by their global index (`-start_number`). A playlist segment is a run of consecutive units served
 * as one body (several moof/mdat pairs, as fMP4 allows). When the video is transcoded, keyframes are forced at every
 * multiple of the segment length and nowhere else, so a unit is a segment. When the video is copied, units are the
 * file's own GOPs, found by an ffprobe packet scan, and segments group them to at least the segment length: cutting
 * a copied stream anywhere else is impossible, and naming units by keyframe makes every restart of ffmpeg (a seek far
 * ahead) produce exactly the units an earlier run would have, so the playlist never changes.
 *
 * Timestamps are the file's own (`-copyts`): a segment produced by a restarted ffmpeg carries the times the playlist
 * gives it.
 */

export interface SegmentPlan {
  /** Start time (seconds) of every unit, ascending; the first is 0. */
  unitStarts: number[];
  /** First unit of every segment, ascending; the first is 0. */
  segmentUnits: number[];
  duration: number;
}

/** Transcoded video: a unit, and a segment, every `segmentSeconds`. */
export function transcodePlan(duration: number, segmentSeconds: number): SegmentPlan {
  const count = Math.max(1, Math.ceil(duration / segmentSeconds - 1e-6));
  const unitStarts = Array.from({ length: count }, (_, i) => i * segmentSeconds);
  return { unitStarts, segmentUnits: unitStarts.map((_, i) => i), duration };
}

/** A copied stream must leave this much time after a keyframe it restarts at (see seekTarget). */
const MIN_RESTART_GAP = 0.4;

/**
 * Copied video: units at the keyframes; a segment starts at a keyframe at least `segmentSeconds` after the previous
 * segment's start whose GOP is long enough to seek to safely.
 */
export function copyPlan(keyframes: number[], duration: number, segmentSeconds: number): SegmentPlan {
  // ffmpeg's first unit begins at the first keyframe, wherever that lies: it counts as time 0.
  const unitStarts = [0, ...keyframes.filter((time) => time < duration).slice(1)];
  const segmentUnits = [0];
  for (let i = 1; i < unitStarts.length; i++) {
    const gapAfter = (unitStarts[i + 1] ?? duration) - unitStarts[i];
    const lastStart = unitStarts[segmentUnits[segmentUnits.length - 1]];
    if (unitStarts[i] - lastStart >= segmentSeconds && gapAfter >= MIN_RESTART_GAP) segmentUnits.push(i);
  }
  return { unitStarts, segmentUnits, duration };
}

/** Start and end time of a segment. */
export function segmentSpan(plan: SegmentPlan, segment: number): { start: number; end: number } {
  const next = plan.segmentUnits[segment + 1];
  return { start: plan.unitStarts[plan.segmentUnits[segment]], end: next === undefined ? plan.duration : plan.unitStarts[next] };
}

/** The media playlist: every segment with its duration; `uri` makes each URI (the token goes into its query). */
export function mediaPlaylist(plan: SegmentPlan, uri: (name: string) => string): string {
  const spans = plan.segmentUnits.map((_, n) => segmentSpan(plan, n));
  const target = Math.max(1, ...spans.map((span) => Math.ceil(span.end - span.start)));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-MAP:URI="${uri('init.mp4')}"`,
  ];
  spans.forEach((span, n) => lines.push(`#EXTINF:${(span.end - span.start).toFixed(6)},`, uri(`segment-${n}.m4s`)));
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

export interface HlsJob {
  input: string;
  /** Seconds the container's timeline starts at (ffprobe's format start_time). */
  formatStart: number;
  videoStream: number;
  audioStream: number | null;
  videoMode: StreamMode;
  audioMode: StreamMode;
  /** Stream index of an image subtitle to overlay (forces a transcode). */
  burnSubtitleStream: number | null;
  videoCodec: string;
  segmentSeconds: number;
  /** x264 preset of a transcode. */
  videoPreset: X264Preset;
}

/**
 * Where ffmpeg is told to start for unit `unit`. A transcode seeks exactly (ffmpeg decodes from the keyframe before
 * and drops what precedes). A copy starts at the keyframe itself: ffmpeg seeks to the keyframe at or before its target,
 * and moves a target back by 3/23 s when the video has reordered frames, so the target lies a little past the keyframe.
 */
export function seekTarget(plan: SegmentPlan, job: HlsJob, unit: number): number {
  const time = plan.unitStarts[unit];
  if (unit === 0) return 0;
  const offset = job.videoMode === 'Copy' ? Math.min(0.25, ((plan.unitStarts[unit + 1] ?? plan.duration) - time) / 2) : 0;
  return Math.max(0, time + offset - job.formatStart);
}

/** ffmpeg's arguments for a run producing units from `unit` on into `dir`. */
export function ffmpegArguments(plan: SegmentPlan, job: HlsJob, unit: number, dir: string): string[] {
  const seek = seekTarget(plan, job, unit);
  const video =
    job.burnSubtitleStream !== null
      ? ['-filter_complex', `[0:${job.videoStream}][0:${job.burnSubtitleStream}]overlay=eof_action=pass[v]`, '-map', '[v]']
      : ['-map', `0:${job.videoStream}`];
  const videoCodec =
    job.videoMode === 'Copy'
      ? ['-c:v', 'copy', ...(job.videoCodec === 'hevc' ? ['-tag:v', 'hvc1'] : [])]
      : [
          '-c:v',
          'libx264',
          '-preset',
          job.videoPreset,
          '-crf',
          '23',
          '-pix_fmt',
          'yuv420p',
          '-profile:v',
          'high',
          // Keyframes at the segment grid and nowhere else: a unit is then exactly a segment.
          '-x264-params',
          'scenecut=0:keyint=99999:min-keyint=1',
          '-force_key_frames',
          `expr:gte(t,n_forced*${job.segmentSeconds})`,
        ];
  const audio =
    job.audioStream === null
      ? ['-an']
      : [
          '-map',
          `0:${job.audioStream}`,
          // ffmpeg 5 still calls FLAC in MP4 experimental and refuses to copy it there without -strict; browsers play it.
          ...(job.audioMode === 'Copy' ? ['-c:a', 'copy', '-strict', '-2'] : ['-c:a', 'aac', '-ac', '2', '-b:a', '192k']),
        ];
  return [
    '-hide_banner',
    '-v',
    'error',
    '-nostdin',
    '-y',
    '-copyts',
    ...(seek > 0 ? ['-ss', seek.toFixed(3)] : []),
    '-i',
    job.input,
    ...video,
    ...audio,
    ...videoCodec,
    '-sn',
    '-dn',
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    '-max_muxing_queue_size',
    '2048',
    '-f',
    'hls',
    '-hls_time',
    '0.001',
    '-hls_segment_type',
    'fmp4',
    // Every fragment's decode time is its packets' own (tfdt): a restarted ffmpeg's segments keep the file's times.
    '-hls_segment_options',
    'movflags=+frag_discont',
    '-hls_flags',
    'temp_file',
    '-hls_list_size',
    '0',
    '-start_number',
    String(unit),
    '-hls_fmp4_init_filename',
    'init.mp4',
    '-hls_segment_filename',
    path.join(dir, 'u%d.m4s'),
    path.join(dir, 'ffmpeg.m3u8'),
  ];
}

/** Whether `bytes` are whole ISO BMFF boxes, one of them a `moov`: an fMP4 initialisation segment fully written. */
export function isCompleteInitSegment(bytes: Buffer): boolean {
  let offset = 0;
  let hasMovie = false;
  while (offset + 8 <= bytes.length) {
    const size = bytes.readUInt32BE(offset);
    // 0 (to the end of the file) and 1 (a 64-bit size) are not written by ffmpeg's init segments.
    if (size < 8 || offset + size > bytes.length) return false;
    if (bytes.toString('latin1', offset + 4, offset + 8) === 'moov') hasMovie = true;
    offset += size;
  }
  return hasMovie && offset === bytes.length;
}
