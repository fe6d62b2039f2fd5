import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMD4 } from 'hash-wasm';

/**
 * Short, really playable episodes made with ffmpeg (issue 43), one of each kind the browser player must handle:
 * - `ass`: H.264/AAC in Matroska with two audio tracks (jpn 440 Hz, eng 660 Hz — tell them apart by ear or by track),
 *   a styled ASS track (positions, colours, a top line) using an attached font, and chapters naming the OP and ED;
 * - `hevc`: HEVC Main 10 with FLAC audio and an embedded SubRip track (the browser needs a transcode);
 * - `srt`: H.264/AAC in MP4 with an external `.srt` beside it.
 * Every picture shows the episode and its running time, so a seek can be checked by eye.
 */
export type DemoMediaKind = 'ass' | 'hevc' | 'srt';

export interface DemoMediaFile {
  kind: DemoMediaKind;
  /** Absolute path of the video. */
  path: string;
  /** Absolute paths of files beside it (the external subtitle). */
  sidecars: string[];
}

export interface DemoMediaOptions {
  /** Seconds per clip (default 30). */
  seconds?: number;
  /** Picture size (default 640x360). */
  width?: number;
  height?: number;
  /** Which kinds to write (default all). */
  kinds?: DemoMediaKind[];
  /** File names (without extension) by kind; defaults are plain `demo-<kind>`. */
  names?: Partial<Record<DemoMediaKind, string>>;
  /** ffmpeg to use (default: `ffmpeg` on the PATH). */
  ffmpeg?: string;
}

/** The cue every test looks for: on screen from 1 s to 4 s in each subtitle track. */
export const DEMO_CUE_TEXT = 'Welcome aboard the dusk train';

/** Is a working ffmpeg on this machine? */
export function ffmpegAvailable(ffmpeg = 'ffmpeg'): boolean {
  const result = spawnSync(ffmpeg, ['-hide_banner', '-version'], { stdio: 'ignore' });
  return result.status === 0;
}

const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf',
];

/** A TrueType font of the system to attach and to draw the clock with; null when none is installed. */
export function systemFont(): string | null {
  return FONT_CANDIDATES.find((candidate) => fs.existsSync(candidate)) ?? null;
}

/** `h:mm:ss.cc`, ASS's time format. */
const assTime = (seconds: number) => {
  const cs = Math.round(seconds * 100);
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
};

/** `hh:mm:ss,mmm`, SubRip's. */
const srtTime = (seconds: number) => {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3600000))}:${pad(Math.floor((ms % 3600000) / 60000))}:${pad(Math.floor((ms % 60000) / 1000))},${pad(ms % 1000, 3)}`;
};

function assScript(fontFamily: string, seconds: number, width: number, height: number): string {
  const lines = [
    '[Script Info]',
    'Title: Dusk Train demo subtitles',
    'ScriptType: v4.00+',
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Default,${fontFamily},${Math.round(height / 14)},&H0000FFFF,&H000000FF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,2,1,2,20,20,20,1`,
    `Style: Sign,${fontFamily},${Math.round(height / 18)},&H00FFFFFF,&H000000FF,&H00803000,&H00000000,0,0,0,0,100,100,0,0,1,3,0,8,20,20,20,1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    `Dialogue: 0,${assTime(1)},${assTime(4)},Default,,0,0,0,,${DEMO_CUE_TEXT}`,
    `Dialogue: 0,${assTime(1)},${assTime(6)},Sign,,0,0,0,,{\\an8}Dusk Line — Platform 3`,
    `Dialogue: 0,${assTime(5)},${assTime(9)},Default,,0,0,0,,{\\pos(${Math.round(width * 0.3)},${Math.round(height * 0.45)})\\c&H00FF80FF&}The lanterns come on one by one`,
  ];
  for (let t = 10; t + 3 <= seconds; t += 5) {
    lines.push(`Dialogue: 0,${assTime(t)},${assTime(t + 3)},Default,,0,0,0,,Next stop at ${t} seconds`);
  }
  return `${lines.join('\n')}\n`;
}

function srtScript(seconds: number): string {
  const cues: Array<[number, number, string]> = [
    [1, 4, DEMO_CUE_TEXT],
    [5, 9, 'The lanterns come on one by one'],
  ];
  for (let t = 10; t + 3 <= seconds; t += 5) cues.push([t, t + 3, `Next stop at ${t} seconds`]);
  return cues.map(([start, end, text], i) => `${i + 1}\n${srtTime(start)} --> ${srtTime(end)}\n${text}\n`).join('\n');
}

function chaptersMetadata(seconds: number): string {
  const op = Math.min(5, seconds / 4);
  const ed = Math.max(op, seconds - 5);
  const chapter = (start: number, end: number, title: string) =>
    `[CHAPTER]\nTIMEBASE=1/1000\nSTART=${Math.round(start * 1000)}\nEND=${Math.round(end * 1000)}\ntitle=${title}\n`;
  return `;FFMETADATA1\n${chapter(0, op, 'Opening')}${chapter(op, ed, 'Episode')}${chapter(ed, seconds, 'Ending')}`;
}

function run(ffmpeg: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg failed (${code}): ${errors.trim()}`))));
  });
}

/** The clock drawn on every frame; the filter escapes `:` inside the expansion and `'` around the text. */
function clockFilter(font: string | null, label: string, height: number): string[] {
  if (!font) return [];
  const size = Math.round(height / 10);
  return [`drawtext=fontfile=${font}:fontcolor=white:box=1:boxcolor=black@0.5:fontsize=${size}:x=20:y=20:text='${label} %{pts\\:hms}'`];
}

const lavfiInputs = (seconds: number, width: number, height: number, frequencies: number[]) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc2=size=${width}x${height}:rate=24:duration=${seconds}`,
  ...frequencies.flatMap((frequency) => ['-f', 'lavfi', '-i', `sine=frequency=${frequency}:sample_rate=48000:duration=${seconds}`]),
];

/**
 * Writes the clips into `dir` (those already there are kept, so a user's library is never rewritten) and lists them.
 * Throws when ffmpeg fails; check `ffmpegAvailable()` first.
 */
export async function writeDemoMedia(dir: string, options: DemoMediaOptions = {}): Promise<DemoMediaFile[]> {
  const seconds = options.seconds ?? 30;
  const width = options.width ?? 640;
  const height = options.height ?? 360;
  const ffmpeg = options.ffmpeg ?? 'ffmpeg';
  const kinds = options.kinds ?? ['ass', 'hevc', 'srt'];
  const font = systemFont();
  fs.mkdirSync(dir, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-media-'));
  const written: DemoMediaFile[] = [];
  try {
    const assFile = path.join(work, 'subs.ass');
    fs.writeFileSync(assFile, assScript(font ? 'DejaVu Serif' : 'Sans', seconds, width, height));
    const srtFile = path.join(work, 'subs.srt');
    fs.writeFileSync(srtFile, srtScript(seconds));
    const chapters = path.join(work, 'chapters.txt');
    fs.writeFileSync(chapters, chaptersMetadata(seconds));
    const x264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-g', '48', '-crf', '28'];

    for (const kind of kinds) {
      const base = options.names?.[kind] ?? `demo-${kind}`;
      if (kind === 'ass') {
        const target = path.join(dir, `${base}.mkv`);
        if (!fs.existsSync(target)) {
          const filters = clockFilter(font, 'Episode 1', height);
          await run(ffmpeg, [
            ...lavfiInputs(seconds, width, height, [440, 660]),
            '-i',
            assFile,
            '-i',
            chapters,
            '-map',
            '0:v',
            '-map',
            '1:a',
            '-map',
            '2:a',
            '-map',
            '3:s',
            '-map_metadata',
            '4',
            '-map_chapters',
            '4',
            ...(filters.length ? ['-vf', filters.join(',')] : []),
            ...x264,
            '-c:a',
            'aac',
            '-b:a',
            '96k',
            '-ac',
            '2',
            '-c:s',
            'ass',
            '-metadata:s:a:0',
            'language=jpn',
            '-metadata:s:a:0',
            'title=Japanese (440 Hz)',
            '-metadata:s:a:1',
            'language=eng',
            '-metadata:s:a:1',
            'title=English (660 Hz)',
            '-disposition:a:0',
            'default',
            '-disposition:a:1',
            '0',
            '-metadata:s:s:0',
            'language=eng',
            '-metadata:s:s:0',
            'title=English (styled)',
            '-disposition:s:0',
            'default',
            ...(font
              ? [
                  '-attach',
                  font,
                  '-metadata:s:t:0',
                  'mimetype=application/x-truetype-font',
                  '-metadata:s:t:0',
                  `filename=${path.basename(font)}`,
                ]
              : []),
            target,
          ]);
        }
        written.push({ kind, path: target, sidecars: [] });
      } else if (kind === 'hevc') {
        const target = path.join(dir, `${base}.mkv`);
        if (!fs.existsSync(target)) {
          const filters = clockFilter(font, 'Episode 2', height);
          await run(ffmpeg, [
            ...lavfiInputs(seconds, width, height, [520]),
            '-i',
            srtFile,
            '-map',
            '0:v',
            '-map',
            '1:a',
            '-map',
            '2:s',
            ...(filters.length ? ['-vf', filters.join(',')] : []),
            '-c:v',
            'libx265',
            '-preset',
            'ultrafast',
            '-pix_fmt',
            'yuv420p10le',
            '-x265-params',
            'log-level=error:keyint=48',
            '-c:a',
            'flac',
            '-ac',
            '2',
            '-c:s',
            'srt',
            '-metadata:s:a:0',
            'language=jpn',
            '-metadata:s:s:0',
            'language=eng',
            target,
          ]);
        }
        written.push({ kind, path: target, sidecars: [] });
      } else {
        const target = path.join(dir, `${base}.mp4`);
        const sidecar = path.join(dir, `${base}.en.srt`);
        if (!fs.existsSync(target)) {
          const filters = clockFilter(font, 'Episode 3', height);
          await run(ffmpeg, [
            ...lavfiInputs(seconds, width, height, [600]),
            '-map',
            '0:v',
            '-map',
            '1:a',
            ...(filters.length ? ['-vf', filters.join(',')] : []),
            ...x264,
            '-c:a',
            'aac',
            '-b:a',
            '96k',
            '-ac',
            '2',
            '-metadata:s:a:0',
            'language=jpn',
            '-movflags',
            '+faststart',
            target,
          ]);
        }
        if (!fs.existsSync(sidecar)) fs.copyFileSync(srtFile, sidecar);
        written.push({ kind, path: target, sidecars: [sidecar] });
      }
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return written;
}

const ED2K_CHUNK = 9_728_000;

/** A file's ED2K hash (MD4 of its 9,728,000-byte chunks, or of the bytes for a file within one chunk) and size. */
export async function ed2kOfFile(file: string): Promise<{ ed2k: string; size: number }> {
  const data = fs.readFileSync(file);
  const md4 = async (bytes: Uint8Array) => {
    const hasher = await createMD4();
    hasher.init();
    hasher.update(bytes);
    return Buffer.from(hasher.digest('binary'));
  };
  if (data.length < ED2K_CHUNK) return { ed2k: (await md4(data)).toString('hex').toUpperCase(), size: data.length };
  const digests: Buffer[] = [];
  for (let offset = 0; offset < data.length; offset += ED2K_CHUNK) digests.push(await md4(data.subarray(offset, offset + ED2K_CHUNK)));
  if (data.length % ED2K_CHUNK === 0) digests.push(await md4(new Uint8Array(0)));
  return { ed2k: (await md4(Buffer.concat(digests))).toString('hex').toUpperCase(), size: data.length };
}
