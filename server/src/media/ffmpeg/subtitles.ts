import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runToEnd, type FfmpegTools } from './probe.js';

/**
 * Subtitles and fonts for the browser's renderers: a text track as ASS (kept as authored, styles and positions
 * included, for the libass renderer) or as WebVTT (for the browser's own text tracks), and font attachments.
 */

const TEXT_LIMIT_MS = 120_000;

/** A subtitle stream of a container as ASS or WebVTT text. */
export async function extractSubtitle(tools: FfmpegTools, file: string, streamIndex: number, format: 'ass' | 'vtt'): Promise<string> {
  const codec = format === 'ass' ? ['-c:s', 'ass', '-f', 'ass'] : ['-c:s', 'webvtt', '-f', 'webvtt'];
  const out = await runToEnd(
    tools.ffmpeg,
    // The file's own times (-copyts), as the video plays them directly and in a session.
    ['-hide_banner', '-v', 'error', '-nostdin', '-copyts', '-i', file, '-map', `0:${streamIndex}`, ...codec, '-'],
    { timeoutMs: TEXT_LIMIT_MS },
  );
  return out.toString('utf8');
}

/** A subtitle file beside the video, in the format asked for: ASS and WebVTT files as they are, others converted. */
export async function readSubtitleFile(tools: FfmpegTools | null, file: string, format: 'ass' | 'vtt'): Promise<string> {
  const extension = path.extname(file).toLowerCase();
  if ((format === 'ass' && (extension === '.ass' || extension === '.ssa')) || (format === 'vtt' && extension === '.vtt')) {
    return fs.readFile(file, 'utf8');
  }
  if (format === 'vtt' && extension === '.srt') return subRipToWebVtt(await fs.readFile(file, 'utf8'));
  if (!tools) throw new Error('Converting this subtitle file needs ffmpeg.');
  const codec = format === 'ass' ? ['-c:s', 'ass', '-f', 'ass'] : ['-c:s', 'webvtt', '-f', 'webvtt'];
  return (
    await runToEnd(tools.ffmpeg, ['-hide_banner', '-v', 'error', '-nostdin', '-i', file, ...codec, '-'], { timeoutMs: TEXT_LIMIT_MS })
  ).toString('utf8');
}

/**
 * SubRip to WebVTT without ffmpeg: the header, `.` for the milliseconds' comma, cue numbers dropped. SubRip's own
 * tags (<i>, <b>, <u>) are WebVTT's too; font tags are removed.
 */
export function subRipToWebVtt(text: string): string {
  const blocks = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/);
  const cues: string[] = [];
  for (const block of blocks) {
    const lines = block.split('\n').filter((line, index) => !(index === 0 && /^\d+$/.test(line.trim())));
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing < 0) continue;
    const times = lines[timing].replace(/(\d{2}:\d{2}:\d{2}),(\d{3})/g, '$1.$2').replace(/(^|\s)(\d:\d{2}:\d{2}\.)/g, '$10$2');
    const body = lines
      .slice(timing + 1)
      .map((line) => line.replace(/<\/?font[^>]*>/gi, ''))
      .filter((line) => line.trim() !== '');
    cues.push([times.trim(), ...body].join('\n'));
  }
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/** The bytes of an attachment stream (a font) of a Matroska file. */
export async function extractAttachment(tools: FfmpegTools, file: string, streamIndex: number): Promise<Buffer> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'shoko-attachment-'));
  const target = path.join(folder, 'attachment');
  try {
    // ffmpeg dumps attachments while opening the input and then complains that no output was given: the file counts.
    await runToEnd(tools.ffmpeg, ['-hide_banner', '-v', 'error', '-nostdin', `-dump_attachment:${streamIndex}`, target, '-i', file], {
      timeoutMs: TEXT_LIMIT_MS,
    }).catch(() => undefined);
    return await fs.readFile(target);
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}
