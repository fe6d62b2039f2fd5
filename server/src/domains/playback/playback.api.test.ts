import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYBACK_SESSION_ENDED, type PlaybackInfo, type PlaybackSession } from '@shoko-ts/contract';
import { DEMO_CUE_TEXT, ffmpegAvailable, writeDemoMedia } from '../../../../fakes/src/demo/demo-media.js';
import { completeFirstRun, createTestServer, createUser, type TestServer } from '../../test/harness.js';
import { insertSeries } from '../groups/synthetic.store.js';
import { PlaybackTokens } from './playback-tokens.js';
import { processState, until } from '../../test/process-state.js';
import { seedImportFolder } from '../../test/seed-files.js';

/**
 * Playing in the browser (issue 43) over the demo's three kinds of clip, made once with ffmpeg: H.264/AAC MKV with
 * two audio tracks, ASS, a font and chapters; HEVC 10-bit/FLAC MKV with SubRip; H.264/AAC MP4 with an external .srt.
 * A series "Dusk Train" links one clip per episode; "Hidden Line" (tag 4242) links the MP4 again for a restricted user.
 */
const CLIP_SECONDS = 60;
/** A clip well past the window ffmpeg may run ahead of its viewer (90 s), in GOPs and so segments of 3 s. */
const LONG_SECONDS = 1800;
const H264_AAC = { Video: ['h264'], Audio: ['aac'] };

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The unit files (u<n>.m4s) a session's folder holds. */
const unitsIn = (dir: string) =>
  fs
    .readdirSync(dir)
    .map((name) => /^u(\d+)\.m4s$/.exec(name))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]));

/** The first video packet's time in init + segment, by ffprobe. */
function firstVideoTime(init: Buffer, segment: Buffer): number {
  const file = path.join(os.tmpdir(), `segment-${process.pid}-${Date.now()}.mp4`);
  fs.writeFileSync(file, Buffer.concat([init, segment]));
  try {
    const out = execFileSync('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'packet=pts_time',
      '-of',
      'csv=p=0',
      file,
    ]);
    return Math.min(...out.toString().trim().split('\n').map(Number));
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const hasFfmpeg = ffmpegAvailable();
if (!hasFfmpeg) console.warn('ffmpeg is not installed: the playback API tests that need it are skipped (npm test installs it as root).');

describe.skipIf(!hasFfmpeg)('playback API', () => {
  let server: TestServer;
  let key: string;
  let otherKey: string;
  let restrictedKey: string;
  let clips: string;
  const files: Record<'ass' | 'hevc' | 'srt' | 'hidden' | 'long', number> = { ass: 0, hevc: 0, srt: 0, hidden: 0, long: 0 };
  let episodeIds: number[];

  const call = (method: string, url: string, options: { body?: unknown; key?: string | null; headers?: Record<string, string> } = {}) =>
    server.request({
      method,
      url,
      key: options.key === null ? undefined : (options.key ?? key),
      body: options.body,
      headers: options.headers,
    });
  const info = async (fileId: number, apiKey = key) => {
    const res = await call('GET', `/api/v3/File/${fileId}/Playback`, { key: apiKey });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlaybackInfo>();
  };
  const startSession = async (fileId: number, canDecode = H264_AAC, extra: Record<string, unknown> = {}) => {
    const res = await call('POST', '/api/v3/Playback/Session', { body: { FileID: fileId, CanDecode: canDecode, ...extra } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PlaybackSession>();
  };
  /** A URL of an answer without the base path's scheme and host (the test server has no base path). */
  const get = (url: string, headers?: Record<string, string>) => call('GET', url, { key: null, headers });
  const sessionUrl = (session: PlaybackSession, name: string) => session.PlaylistUrl.replace('index.m3u8', name);

  beforeAll(async () => {
    clips = fs.mkdtempSync(path.join(os.tmpdir(), 'playback-clips-'));
    await writeDemoMedia(clips, { seconds: CLIP_SECONDS, width: 320, height: 180 });
    fs.copyFileSync(path.join(clips, 'demo-srt.mp4'), path.join(clips, 'hidden.mp4'));
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=160x90:rate=5:duration=${LONG_SECONDS}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '15',
      path.join(clips, 'long.mkv'),
    ]);
    server = await createTestServer();
    key = await completeFirstRun(server);
    otherKey = (await createUser(server, key, 'other', 'other-pass')).key;
    const restricted = await createUser(server, key, 'restricted', 'restricted-pass');
    restrictedKey = restricted.key;
    const db = server.services.db.kysely;
    await db
      .updateTable('users')
      .set({ restricted_tags: JSON.stringify([4242]) })
      .where('id', '=', restricted.id)
      .execute();
    const written = await insertSeries(db, [
      {
        animeId: 9501,
        title: 'Dusk Train',
        episodes: [
          { id: 950101, file: true },
          { id: 950102, file: true },
          { id: 950103, file: true },
        ],
      },
      { animeId: 9502, title: 'Hidden Line', tags: [{ id: 4242, name: 'hidden' }], episodes: [{ id: 950201, file: true }] },
      { animeId: 9503, title: 'Long Line', episodes: [{ id: 950301, file: true }] },
    ]);
    episodeIds = written.get(9501)!.episodeIds;
    const links = await db
      .selectFrom('files as f')
      .innerJoin('file_episode_links as l', (j) => j.onRef('l.ed2k', '=', 'f.ed2k').onRef('l.size', '=', 'f.size'))
      .select(['f.id', 'l.episode_id'])
      .execute();
    const byEpisode = new Map(links.map((l) => [l.episode_id, l.id]));
    Object.assign(files, {
      ass: byEpisode.get(950101),
      hevc: byEpisode.get(950102),
      srt: byEpisode.get(950103),
      hidden: byEpisode.get(950201),
      long: byEpisode.get(950301),
    });
    const folderId = await seedImportFolder(server, 'Clips', clips);
    const location = (fileId: number, name: string) => ({
      file_id: fileId,
      import_folder_id: folderId,
      relative_path: name,
      is_accessible: 1 as const,
      mtime_ms: null,
    });
    await db
      .insertInto('file_locations')
      .values([
        location(files.ass, 'demo-ass.mkv'),
        location(files.hevc, 'demo-hevc.mkv'),
        location(files.srt, 'demo-srt.mp4'),
        location(files.hidden, 'hidden.mp4'),
        location(files.long, 'long.mkv'),
      ])
      .execute();
    await db
      .updateTable('files')
      .set({ media_info: JSON.stringify({ Duration: '00:01:00' }) })
      .where('id', '=', files.srt)
      .execute();
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    fs.rmSync(clips, { recursive: true, force: true });
  });

  it('describes the H.264/AAC MKV: two audio tracks, a styled ASS track, its font and chapters', async () => {
    const body = await info(files.ass);
    expect(body).toMatchObject({
      FileID: files.ass,
      EpisodeIDs: [episodeIds[0]],
      Container: 'matroska',
      FfmpegAvailable: true,
      Watched: false,
    });
    expect(body.FileName).toBe('demo-ass.mkv');
    expect(body.Duration).toBeCloseTo(CLIP_SECONDS, 0);
    expect(body.Video).toEqual([
      expect.objectContaining({ Index: 0, Codec: 'h264', Profile: 'High', BitDepth: 8, Width: 320, Height: 180 }),
    ]);
    expect(body.Video[0].MimeCodec).toMatch(/^avc1\.6400[0-9a-f]{2}$/);
    expect(body.Audio.map((a) => [a.Index, a.Codec, a.Language, a.Default, a.MimeCodec, a.Channels])).toEqual([
      [1, 'aac', 'jpn', true, 'mp4a.40.2', 2],
      [2, 'aac', 'eng', false, 'mp4a.40.2', 2],
    ]);
    expect(body.Subtitles).toEqual([
      expect.objectContaining({
        ID: 'embedded-3',
        Kind: 'Embedded',
        Codec: 'ass',
        IsText: true,
        Format: 'ass',
        Language: 'eng',
        Default: true,
      }),
    ]);
    expect(body.Subtitles[0].Url).toMatch(new RegExp(`^/api/v3/Playback/File/${files.ass}/Subtitle/embedded-3\\?token=`));
    expect(body.Fonts).toEqual([expect.objectContaining({ MimeType: 'application/x-truetype-font' })]);
    expect(body.Fonts[0].Name).toMatch(/\.ttf$/);
    expect(body.Chapters.map((c) => c.Title)).toEqual(['Opening', 'Episode', 'Ending']);
    expect(body.DirectUrl).toMatch(new RegExp(`^/api/v3/File/${files.ass}/Stream\\?token=`));
    expect(body.DirectMimeType).toBe(`video/x-matroska; codecs="${body.Video[0].MimeCodec}, mp4a.40.2"`);
    expect(Date.parse(body.TokenExpires)).toBeGreaterThan(Date.now());
  });

  it('describes the HEVC Main 10 / FLAC MKV and its SubRip track served as WebVTT', async () => {
    const body = await info(files.hevc);
    expect(body.Video[0]).toMatchObject({ Codec: 'hevc', Profile: 'Main 10', BitDepth: 10 });
    expect(body.Video[0].MimeCodec).toMatch(/^hev1\.2\.4\.L\d+\.90$/);
    expect(body.Audio).toEqual([expect.objectContaining({ Codec: 'flac', MimeCodec: 'flac', Language: 'jpn' })]);
    expect(body.Subtitles).toEqual([expect.objectContaining({ ID: 'embedded-2', Codec: 'subrip', Format: 'vtt', IsText: true })]);
    expect(body.Fonts).toEqual([]);
  });

  it('describes the MP4 and the external .srt beside it', async () => {
    const body = await info(files.srt);
    expect(body.Container).toBe('mp4');
    expect(body.DirectMimeType).toMatch(/^video\/mp4; codecs="avc1\.6400[0-9a-f]{2}, mp4a\.40\.2"$/);
    expect(body.Subtitles).toEqual([
      expect.objectContaining({ ID: 'external-0', Kind: 'External', Codec: 'subrip', Format: 'vtt', Language: 'eng' }),
    ]);
  });

  it('serves subtitles as ASS or WebVTT text holding the cue, and the font bytes', async () => {
    const [ass, hevc, srt] = await Promise.all([info(files.ass), info(files.hevc), info(files.srt)]);
    const assText = await get(ass.Subtitles[0].Url!);
    expect(assText.statusCode).toBe(200);
    expect(assText.headers['content-type']).toMatch(/^text\/x-ssa/);
    expect(assText.body).toContain('[Script Info]');
    // The muxer moved every stream by the video's first timestamp (a few hundredths): cue times keep the file's timeline.
    expect(assText.body).toMatch(new RegExp(`Dialogue: 0,0:00:01\\.0\\d,0:00:04\\.0\\d,Default,.*${DEMO_CUE_TEXT}`));
    expect(assText.body).toContain('\\an8');
    for (const subtitle of [hevc.Subtitles[0], srt.Subtitles[0]]) {
      const vtt = await get(subtitle.Url!);
      expect(vtt.statusCode, subtitle.ID).toBe(200);
      expect(vtt.headers['content-type']).toMatch(/^text\/vtt/);
      expect(vtt.body.startsWith('WEBVTT')).toBe(true);
      expect(vtt.body).toMatch(new RegExp(`(00:)?00:01\\.0\\d\\d --> (00:)?00:04\\.0\\d\\d\\n${DEMO_CUE_TEXT}`));
    }
    const font = await server.app.inject({ method: 'GET', url: ass.Fonts[0].Url });
    expect(font.statusCode).toBe(200);
    expect(font.rawPayload.readUInt32BE(0)).toBe(0x00010000);
    expect(font.rawPayload.length).toBeGreaterThan(10_000);
  });

  it('streams a file with its token and honours ranges; refuses a missing, forged, expired or other-file token', async () => {
    const body = await info(files.srt);
    const ranged = await get(body.DirectUrl, { range: 'bytes=0-99' });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.headers['content-range']).toBe(`bytes 0-99/${fs.statSync(path.join(clips, 'demo-srt.mp4')).size}`);
    expect(ranged.rawPayload.subarray(4, 8).toString()).toBe('ftyp');
    expect((await get(`/api/v3/File/${files.srt}/Stream`)).statusCode).toBe(401);
    const token = new URL(body.DirectUrl, 'http://x').searchParams.get('token')!;
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await get(`/api/v3/File/${files.srt}/Stream?token=${encodeURIComponent(forged)}`)).statusCode).toBe(403);
    const tokens = PlaybackTokens.open(server.home);
    const expired = tokens.sign({ userId: 1, fileId: files.srt, sessionId: null, expires: Date.now() - 1000 });
    expect((await get(`/api/v3/File/${files.srt}/Stream?token=${encodeURIComponent(expired)}`)).statusCode).toBe(403);
    expect((await get(`/api/v3/File/${files.ass}/Stream?token=${encodeURIComponent(token)}`)).statusCode).toBe(403);
    expect((await get(`/api/v3/Playback/File/${files.ass}/Subtitle/embedded-3?token=${encodeURIComponent(token)}`)).statusCode).toBe(403);
    const sibling = await get(`/api/v3/File/${files.srt}/StreamDirectory/ExternalSub/demo-srt.en.srt?token=${encodeURIComponent(token)}`);
    expect(sibling.statusCode).toBe(200);
    expect(sibling.body).toContain(DEMO_CUE_TEXT);
  });

  it('hides files of series a user’s tag restrictions hide (404), and answers 404 for unknown files', async () => {
    expect((await call('GET', `/api/v3/File/${files.hidden}/Playback`, { key: restrictedKey })).statusCode).toBe(404);
    const session = await call('POST', '/api/v3/Playback/Session', {
      key: restrictedKey,
      body: { FileID: files.hidden, CanDecode: H264_AAC },
    });
    expect(session.statusCode).toBe(404);
    expect((await call('GET', `/api/v3/File/${files.srt}/Playback`, { key: restrictedKey })).statusCode).toBe(200);
    expect((await call('GET', `/api/v3/File/${files.hidden}/Playback`)).statusCode).toBe(200);
    expect((await call('GET', '/api/v3/File/999999/Playback')).statusCode).toBe(404);
  });

  it('takes a transcode preset from the settings and refuses one x264 does not have', async () => {
    // This server never logged in to AniDB: the settings need an AniDB account to be saved at all.
    const patch = (value: unknown) =>
      call('PATCH', '/api/v3/Settings', {
        body: [
          { op: 'replace', path: '/AniDb/Username', value: 'viewer' },
          { op: 'replace', path: '/AniDb/Password', value: 'secret' },
          { op: 'replace', path: '/Playback/TranscodePreset', value },
        ],
      });
    const refused = await patch('ludicrous');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.body).toContain('TranscodePreset');
    expect((await patch('superfast')).statusCode).toBe(200);
    expect((await call('GET', '/api/v3/Settings')).json().Playback.TranscodePreset).toBe('superfast');
    expect((await patch('Automatic')).statusCode).toBe(200);
  });

  it('refuses bad session requests naming the field', async () => {
    const field = async (body: unknown, name: string) => {
      const res = await call('POST', '/api/v3/Playback/Session', { body });
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().errors ?? {}).join(' '), res.body).toContain(name);
    };
    await field({ FileID: files.ass, CanDecode: H264_AAC, AudioStreamIndex: 7 }, 'AudioStreamIndex');
    await field({ FileID: files.ass, CanDecode: H264_AAC, BurnSubtitleID: 'embedded-3' }, 'BurnSubtitleID');
    await field({ FileID: files.ass, CanDecode: H264_AAC, StartPosition: 9999 }, 'StartPosition');
    await field({ FileID: files.ass }, 'CanDecode');
  });

  it('copies what the browser decodes and transcodes the rest; a third transcode is refused naming the limit', async () => {
    const first = await startSession(files.hevc);
    const second = await startSession(files.ass, { Video: [], Audio: ['aac'] });
    expect([first.VideoMode, first.AudioMode, second.VideoMode, second.AudioMode]).toEqual(['Transcode', 'Transcode', 'Transcode', 'Copy']);
    const third = await call('POST', '/api/v3/Playback/Session', { body: { FileID: files.hevc, CanDecode: H264_AAC } });
    expect(third.statusCode).toBe(429);
    expect(third.json().detail).toContain('Playback.MaxConcurrentTranscodes');
    const copy = await startSession(files.ass);
    expect([copy.VideoMode, copy.AudioMode]).toEqual(['Copy', 'Copy']);
    for (const session of [first, second, copy])
      expect((await call('DELETE', `/api/v3/Playback/Session/${session.SessionID}`)).statusCode).toBe(204);
  });

  it('restarts a transcode near a segment far ahead: its timestamps start there', async () => {
    const session = await startSession(files.hevc);
    const playlist = await get(session.PlaylistUrl);
    expect(playlist.statusCode).toBe(200);
    const length = session.SegmentSeconds;
    expect(playlist.body.match(new RegExp(`#EXTINF:${length}\\.000000,`, 'g'))).toHaveLength(CLIP_SECONDS / length);
    const init = await server.app.inject({ method: 'GET', url: sessionUrl(session, 'init.mp4') });
    // The second-to-last segment, well past what ffmpeg has made this early.
    const far = CLIP_SECONDS / length - 2;
    const segment = await server.app.inject({ method: 'GET', url: sessionUrl(session, `segment-${far}.m4s`) });
    expect(segment.statusCode).toBe(200);
    expect(server.services.playback.sessionProcess(session.SessionID)!.starts).toBeGreaterThanOrEqual(2);
    expect(firstVideoTime(init.rawPayload, segment.rawPayload)).toBeCloseTo(far * length, 0);
    await call('DELETE', `/api/v3/Playback/Session/${session.SessionID}`);
  });

  it('copies FLAC into the segments when the browser decodes it (ffmpeg calls FLAC in MP4 experimental)', async () => {
    const session = await startSession(files.hevc, { Video: ['h264'], Audio: ['aac', 'flac'] });
    expect([session.VideoMode, session.AudioMode]).toEqual(['Transcode', 'Copy']);
    const segment = await server.app.inject({ method: 'GET', url: sessionUrl(session, 'segment-0.m4s') });
    expect(segment.statusCode, segment.body.slice(0, 200)).toBe(200);
    await call('DELETE', `/api/v3/Playback/Session/${session.SessionID}`);
  });

  it('cuts a copied stream at its keyframes, and a far segment starts at its playlist time', async () => {
    const session = await startSession(files.ass, H264_AAC, { AudioStreamIndex: 2 });
    const playlist = (await get(session.PlaylistUrl)).body;
    const durations = [...playlist.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]));
    expect(durations.reduce((a, b) => a + b, 0)).toBeCloseTo(CLIP_SECONDS, 0);
    const n = durations.length - 1;
    const start = durations.slice(0, n).reduce((a, b) => a + b, 0);
    const init = await server.app.inject({ method: 'GET', url: sessionUrl(session, 'init.mp4') });
    const segment = await server.app.inject({ method: 'GET', url: sessionUrl(session, `segment-${n}.m4s`) });
    expect(segment.statusCode).toBe(200);
    expect(Math.abs(firstVideoTime(init.rawPayload, segment.rawPayload) - start)).toBeLessThan(0.1);
    await call('DELETE', `/api/v3/Playback/Session/${session.SessionID}`);
  });

  it('ends a session on Stop (token, no key) and after a silent minute: no ffmpeg, no segment files', async () => {
    const stopped = await startSession(files.hevc);
    const running = server.services.playback.sessionProcess(stopped.SessionID)!;
    expect(running.pid).not.toBeNull();
    expect(isRunning(running.pid!)).toBe(true);
    const token = new URL(stopped.PlaylistUrl, 'http://x').searchParams.get('token')!;
    expect((await call('POST', `/api/v3/Playback/Session/${stopped.SessionID}/Stop`, { key: null })).statusCode).toBe(403);
    const stop = await call('POST', `/api/v3/Playback/Session/${stopped.SessionID}/Stop?token=${encodeURIComponent(token)}`, { key: null });
    expect(stop.statusCode).toBe(204);
    expect(isRunning(running.pid!)).toBe(false);
    expect(fs.existsSync(running.dir)).toBe(false);
    expect((await get(stopped.PlaylistUrl)).statusCode).toBe(404);

    const silent = await startSession(files.hevc);
    const silentRun = server.services.playback.sessionProcess(silent.SessionID)!;
    expect(await server.services.playback.sweep(Date.now() + 30_000)).not.toContain(silent.SessionID);
    expect(await server.services.playback.sweep(Date.now() + 61_000)).toContain(silent.SessionID);
    expect(isRunning(silentRun.pid!)).toBe(false);
    expect(fs.existsSync(silentRun.dir)).toBe(false);
  });

  it('pauses ffmpeg 90 s of media ahead of the viewer, keeps the session folder to the window, continues when asked further', async () => {
    const session = await startSession(files.long, { Video: ['h264'], Audio: [] });
    expect(session.VideoMode).toBe('Copy');
    expect((await get(sessionUrl(session, 'segment-0.m4s'))).statusCode).toBe(200);
    const playback = server.services.playback;
    await until(() => playback.sessionProcess(session.SessionID)!.paused, 'ffmpeg to be paused');
    const run = playback.sessionProcess(session.SessionID)!;
    // The flag is set as SIGSTOP is sent; the kernel stops the process a moment later.
    await until(() => processState(run.pid!) === 'T', 'the kernel to stop ffmpeg');
    // 3 s units: what lies on disk ends near 90 s, far from the clip's 600 s.
    const early = unitsIn(run.dir);
    expect(early.length).toBeGreaterThan(0);
    expect(Math.max(...early) * 3).toBeLessThanOrEqual(120);

    // The viewer asks for 90 s on: the same ffmpeg continues, and the start (over 60 s behind) is deleted.
    expect((await get(sessionUrl(session, 'segment-30.m4s'))).statusCode).toBe(200);
    expect(playback.sessionProcess(session.SessionID)!.pid).toBe(run.pid);
    await until(() => playback.sessionProcess(session.SessionID)!.paused && !unitsIn(run.dir).includes(0), 'the next pause and the trim');
    const later = unitsIn(run.dir);
    expect(Math.min(...later) * 3).toBeGreaterThanOrEqual(90 - 60 - 3);
    expect(Math.max(...later) * 3).toBeLessThanOrEqual(90 + 120);

    // A deleted piece asked for again is made again (ffmpeg restarts there).
    expect((await get(sessionUrl(session, 'segment-0.m4s'))).statusCode).toBe(200);
    expect(playback.sessionProcess(session.SessionID)!.starts).toBe(2);
    await until(() => playback.sessionProcess(session.SessionID)!.paused, 'ffmpeg to be paused again');
    const paused = playback.sessionProcess(session.SessionID)!.pid!;
    expect((await call('DELETE', `/api/v3/Playback/Session/${session.SessionID}`)).statusCode).toBe(204);
    expect(processState(paused)).toBeNull();
    expect(fs.existsSync(run.dir)).toBe(false);
  });

  it('keeps a paused viewer’s session with KeepAlive; an ended session answers 404 naming that it ended', async () => {
    const session = await startSession(files.ass);
    const token = new URL(session.PlaylistUrl, 'http://x').searchParams.get('token')!;
    const keepAlive = `/api/v3/Playback/Session/${session.SessionID}/KeepAlive`;
    expect((await call('POST', keepAlive, { key: null })).statusCode).toBe(403);
    expect((await call('POST', `${keepAlive}?token=${encodeURIComponent(token)}`, { key: null })).statusCode).toBe(204);
    const playback = server.services.playback;
    const start = Date.now();
    // Paused for 50 s, the player says it is still there: a minute after the start the session lives on.
    await playback.keepAlive(token, session.SessionID, start + 50_000);
    expect(await playback.sweep(start + 61_000)).not.toContain(session.SessionID);
    expect(await playback.sweep(start + 111_000)).toContain(session.SessionID);
    for (const res of [
      await call('POST', `${keepAlive}?token=${encodeURIComponent(token)}`, { key: null }),
      await get(session.PlaylistUrl),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ status: 404, detail: PLAYBACK_SESSION_ENDED });
    }
  });

  it('checks a token at every use: a deleted user’s tokens and sessions stop working, and so do a newly hidden file’s', async () => {
    const leaver = await createUser(server, key, 'leaver', 'leaver-pass');
    const media = await info(files.srt, leaver.key);
    expect((await get(media.DirectUrl, { range: 'bytes=0-9' })).statusCode).toBe(206);
    const sessionRes = await call('POST', '/api/v3/Playback/Session', {
      key: leaver.key,
      body: { FileID: files.ass, CanDecode: H264_AAC },
    });
    const session = sessionRes.json<PlaybackSession>();
    expect((await get(session.PlaylistUrl)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/v3/User/${leaver.id}`)).statusCode).toBe(200);
    expect((await get(media.DirectUrl, { range: 'bytes=0-9' })).statusCode).toBe(403);
    expect((await get(media.Subtitles[0].Url!)).statusCode).toBe(403);
    expect((await get(session.PlaylistUrl)).statusCode).toBe(403);
    expect(server.services.playback.sessionProcess(session.SessionID)).toBeNull();

    const narrowed = await createUser(server, key, 'narrowed', 'narrowed-pass');
    const [hidden, visible] = [await info(files.hidden, narrowed.key), await info(files.srt, narrowed.key)];
    expect((await get(hidden.DirectUrl, { range: 'bytes=0-9' })).statusCode).toBe(206);
    const patch = await call('PATCH', `/api/v3/User/${narrowed.id}`, { body: [{ op: 'replace', path: '/RestrictedTags', value: [4242] }] });
    expect(patch.statusCode, patch.body).toBe(200);
    expect((await get(hidden.DirectUrl, { range: 'bytes=0-9' })).statusCode).toBe(403);
    expect((await get(visible.DirectUrl, { range: 'bytes=0-9' })).statusCode).toBe(206);
  });

  it('lets only the owner (or an admin) end a session with a key', async () => {
    const session = await startSession(files.ass);
    expect((await call('DELETE', `/api/v3/Playback/Session/${session.SessionID}`, { key: otherKey })).statusCode).toBe(404);
    const token = new URL(session.PlaylistUrl, 'http://x').searchParams.get('token')!;
    const otherFile = await info(files.srt);
    const fileToken = new URL(otherFile.DirectUrl, 'http://x').searchParams.get('token')!;
    expect((await get(`/api/v3/Playback/Session/${session.SessionID}/index.m3u8?token=${encodeURIComponent(fileToken)}`)).statusCode).toBe(
      403,
    );
    expect((await get(`/api/v3/Playback/Session/${session.SessionID}/index.m3u8?token=${encodeURIComponent(token)}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/v3/Playback/Session/${session.SessionID}`)).statusCode).toBe(204);
  });

  it('offers the resume position, and a stop past the watched threshold marks the file watched', async () => {
    await call('GET', `/api/v3/File/${files.srt}/Scrobble?event=pause&resumePosition=00:00:30`);
    expect(await info(files.srt)).toMatchObject({ ResumePosition: 30, Watched: false });
    await call('GET', `/api/v3/File/${files.srt}/Scrobble?event=stop&resumePosition=00:00:40`);
    expect(await info(files.srt)).toMatchObject({ ResumePosition: 40, Watched: false });
    await call('GET', `/api/v3/File/${files.srt}/Scrobble?event=stop&resumePosition=00:00:55`);
    expect(await info(files.srt)).toMatchObject({ ResumePosition: null, Watched: true });
    expect(await info(files.srt, otherKey)).toMatchObject({ ResumePosition: null, Watched: false });
  });
});

describe('playback without ffmpeg', () => {
  let server: TestServer;
  let key: string;
  const previous = process.env.SHOKO_FFMPEG;

  beforeAll(async () => {
    process.env.SHOKO_FFMPEG = 'none';
    server = await createTestServer();
    key = await completeFirstRun(server);
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.SHOKO_FFMPEG;
    else process.env.SHOKO_FFMPEG = previous;
    await server?.close();
  });

  it('answers 503 naming ffmpeg for a session', async () => {
    const db = server.services.db.kysely;
    const written = await insertSeries(db, [{ animeId: 9601, title: 'No Tools', episodes: [{ id: 960101, file: true }] }]);
    const fileId = (await db.selectFrom('files').select('id').executeTakeFirstOrThrow()).id;
    const folderId = await seedImportFolder(server, 'Here', server.home);
    fs.writeFileSync(path.join(server.home, 'clip.mkv'), 'not really a video');
    await db
      .insertInto('file_locations')
      .values({ file_id: fileId, import_folder_id: folderId, relative_path: 'clip.mkv', is_accessible: 1, mtime_ms: null })
      .execute();
    expect(written.size).toBe(1);
    const playback = await server.request({ method: 'GET', url: `/api/v3/File/${fileId}/Playback`, key });
    expect(playback.statusCode).toBe(200);
    expect(playback.json()).toMatchObject({ FfmpegAvailable: false, Video: [] });
    const res = await server.request({
      method: 'POST',
      url: '/api/v3/Playback/Session',
      key,
      body: { FileID: fileId, CanDecode: H264_AAC },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().detail).toBe('This file needs ffmpeg on the server to play in the browser.');
  });
});
