import { spawn, spawnSync } from 'node:child_process';

/** The ffmpeg and ffprobe programs the server runs; null when this machine has none (direct play still works). */
export interface FfmpegTools {
  ffmpeg: string;
  ffprobe: string;
}

/**
 * Finds ffmpeg and ffprobe: `SHOKO_FFMPEG` / `SHOKO_FFPROBE` name them (`none` turns playback transcoding off), else
 * the PATH's. Both must answer `-version`.
 */
export function findFfmpeg(env: NodeJS.ProcessEnv = process.env): FfmpegTools | null {
  const ffmpeg = env.SHOKO_FFMPEG?.trim() || 'ffmpeg';
  const ffprobe = env.SHOKO_FFPROBE?.trim() || (env.SHOKO_FFMPEG?.trim() ? ffmpeg.replace(/ffmpeg(\.exe)?$/, 'ffprobe$1') : 'ffprobe');
  if (ffmpeg === 'none') return null;
  const works = (program: string) => spawnSync(program, ['-hide_banner', '-version'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
  return works(ffmpeg) && works(ffprobe) ? { ffmpeg, ffprobe } : null;
}

/** Runs a program to its end and answers its standard output; rejects with its error output on failure. */
export function runToEnd(program: string, args: string[], options: { timeoutMs?: number } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let errors = '';
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : null;
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
    child.once('error', (error) => {
      if (timer) clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`${program} failed (${code ?? signal}): ${errors.trim()}`));
    });
  });
}

export interface ProbeStream {
  index: number;
  codec_name?: string;
  codec_type: 'video' | 'audio' | 'subtitle' | 'attachment' | 'data';
  profile?: string;
  level?: number;
  pix_fmt?: string;
  bits_per_raw_sample?: string;
  width?: number;
  height?: number;
  channels?: number;
  start_time?: string;
  disposition?: Record<string, number>;
  tags?: Record<string, string>;
}

export interface ProbeResult {
  streams: ProbeStream[];
  format: { format_name: string; duration?: string; start_time?: string };
  chapters: Array<{ start_time: string; end_time: string; tags?: Record<string, string> }>;
}

/** What ffprobe says of a file's container, streams and chapters. */
export async function probeFile(tools: FfmpegTools, file: string): Promise<ProbeResult> {
  const out = await runToEnd(
    tools.ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-show_chapters', file],
    { timeoutMs: 60_000 },
  );
  const parsed = JSON.parse(out.toString('utf8')) as Partial<ProbeResult>;
  return { streams: parsed.streams ?? [], format: parsed.format ?? { format_name: '' }, chapters: parsed.chapters ?? [] };
}

/**
 * The presentation times (seconds) of a video stream's keyframes, from a packet scan (the demuxer reads the file but
 * decodes nothing), in order.
 */
export async function keyframeTimes(tools: FfmpegTools, file: string, streamIndex: number): Promise<number[]> {
  const out = await runToEnd(
    tools.ffprobe,
    ['-v', 'error', '-select_streams', String(streamIndex), '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', file],
    { timeoutMs: 300_000 },
  );
  const times: number[] = [];
  for (const line of out.toString('utf8').split('\n')) {
    const [time, flags] = line.split(',');
    if (flags?.startsWith('K')) {
      const value = Number(time);
      if (Number.isFinite(value)) times.push(value);
    }
  }
  return times.sort((a, b) => a - b);
}

/** Bits per sample of a video stream: from the pixel format (`yuv420p10le` → 10) or the raw sample size. */
export function bitDepthOf(stream: ProbeStream): number | null {
  const fromFormat = /p(\d{2})(le|be)$/.exec(stream.pix_fmt ?? '')?.[1];
  if (fromFormat) return Number(fromFormat);
  if (stream.pix_fmt) return 8;
  const raw = Number(stream.bits_per_raw_sample);
  return Number.isFinite(raw) && raw > 0 ? raw : null;
}
