import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import {
  PLAYBACK_NEEDS_FFMPEG,
  PLAYBACK_SESSION_ENDED,
  type PlaybackInfo,
  type PlaybackSession,
  type PlaybackSessionRequest,
  type TranscodePreset,
} from '@shoko-ts/contract';
import { emptyError, notFound, problemError, validationError } from '../../http/problem.js';
import { audioMode, videoMode, x264Preset } from '../../media/ffmpeg/codecs.js';
import { copyPlan, mediaPlaylist, segmentSpan, transcodePlan, type SegmentPlan } from '../../media/ffmpeg/hls-plan.js';
import { HlsProducer } from '../../media/ffmpeg/hls-session.js';
import { keyframeTimes, probeFile, type FfmpegTools, type ProbeResult } from '../../media/ffmpeg/probe.js';
import { extractAttachment, extractSubtitle, readSubtitleFile } from '../../media/ffmpeg/subtitles.js';
import { describeMedia, type MediaDescription } from './media-description.js';
import type { PlaybackStore } from './playback.store.js';
import type { PlaybackGrant, PlaybackTokens } from './playback-tokens.js';

/** How long the URLs of PlaybackInfo and of a session work: a long film, paused for a while. */
export const TOKEN_LIFETIME_MS = 6 * 60 * 60 * 1000;
/** A session nobody asked anything of for this long ends. */
export const SESSION_SILENCE_MS = 60_000;
/** Short segments start playback sooner: the first one is ready once ffmpeg has made this much. */
export const SEGMENT_SECONDS = 3;
/**
 * How long a token's standing (its user exists and may see its file) is trusted before it is checked again; a write to
 * any account (a deleted user, changed tag restrictions) makes it checked at the next use anyway.
 */
export const GRANT_RECHECK_MS = 30_000;
const NOT_FOUND = 'No File entry for the given fileID';

export interface LocatedFile {
  realPath: string;
  name: string;
  stat: { size: number; mtimeMs: number };
}

export interface PlaybackDeps {
  store: PlaybackStore;
  tokens: PlaybackTokens;
  /** null: this server has no ffmpeg (direct play only). */
  tools: FfmpegTools | null;
  /** The readable copy of a file inside its import folder (files domain). */
  locate(fileId: number): Promise<LocatedFile>;
  /** Does the user's tag restriction let them see this AniDB anime? */
  animeAllowed(userId: number, animeId: number): Promise<boolean>;
  settings(): { maxTranscodes: number; languageOrder: string[]; transcodePreset: TranscodePreset };
  /** Where session folders live (removed at start and at shutdown). */
  workDir: string;
  logger: Logger;
}

interface Session {
  id: string;
  userId: number;
  fileId: number;
  transcodes: boolean;
  producer: HlsProducer;
  lastSeen: number;
  expires: number;
}

/** One cache entry per file content and path: a changed or replaced file is probed again. */
const cacheKey = (file: LocatedFile) => `${file.realPath}|${file.stat.size}|${file.stat.mtimeMs}`;

/** A small map that forgets its oldest entries. */
class Recent<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string, make: () => V): V {
    const found = this.map.get(key);
    if (found !== undefined) return found;
    const value = make();
    this.map.set(key, value);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value!);
    return value;
  }
  delete(key: string) {
    this.map.delete(key);
  }
}

/**
 * Playing files in the browser: what a file holds (ffprobe, cached per file content), signed URLs, and HLS sessions
 * over ffmpeg with their limit, silence timeout and clean-up.
 */
export class PlaybackService {
  private readonly sessions = new Map<string, Session>();
  private readonly probes = new Recent<Promise<ProbeResult>>(256);
  private readonly keyframes = new Recent<Promise<number[]>>(32);
  private readonly texts = new Recent<Promise<string>>(32);
  /** `userId:fileId` → whether tokens for it still hold, as of an account-cache version and until a time. */
  private readonly standing = new Map<string, { holds: boolean; version: number; until: number }>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(private readonly deps: PlaybackDeps) {}

  get ffmpegAvailable(): boolean {
    return this.deps.tools !== null;
  }

  /** Removes session folders a previous run left behind and starts the silence check. */
  async start(): Promise<void> {
    await fs.rm(this.deps.workDir, { recursive: true, force: true });
    await fs.mkdir(this.deps.workDir, { recursive: true });
    this.sweeper = setInterval(() => void this.sweep(), 5_000);
    this.sweeper.unref();
  }

  /** Ends every session (server shutdown). */
  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id)));
  }

  /** Ends the sessions silent for a minute at `now`; answers their ids. */
  async sweep(now = Date.now()): Promise<string[]> {
    const silent = [...this.sessions.values()].filter((s) => now - s.lastSeen >= SESSION_SILENCE_MS || now >= s.expires).map((s) => s.id);
    await Promise.all(silent.map((id) => this.end(id)));
    return silent;
  }

  /** The ffmpeg process of a session (tests check it is gone after the session ends). */
  sessionProcess(sessionId: string): { pid: number | null; paused: boolean; dir: string; starts: number } | null {
    const session = this.sessions.get(sessionId);
    if (!session) return null;
    const { producer } = session;
    return { pid: producer.pid, paused: producer.paused, dir: producer.dir, starts: producer.starts };
  }

  private async end(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    await session.producer.stop().catch((error: unknown) => this.deps.logger.warn({ err: error }, 'Ending a playback session failed'));
  }

  /** The file's episode links when the user may see it (a known file not only in series hidden from them), else null. */
  private async visibleLinks(userId: number, fileId: number) {
    if (!(await this.deps.store.fileExists(fileId))) return null;
    const links = await this.deps.store.links(fileId);
    if (links.length) {
      const allowed = await Promise.all([...new Set(links.map((l) => l.animeId))].map((id) => this.deps.animeAllowed(userId, id)));
      if (!allowed.some(Boolean)) return null;
    }
    return links;
  }

  /** The file, after the 404 checks: unknown, no readable copy, or every series it belongs to hidden from the user. */
  private async visibleFile(userId: number, fileId: number) {
    const links = await this.visibleLinks(userId, fileId);
    if (!links) throw notFound(NOT_FOUND);
    const file = await this.deps.locate(fileId);
    return { file, links };
  }

  /**
   * Does a token still carry authority: its user exists and may still see its file? Tokens are checked at issue and
   * live for hours; this is asked at every use, so the answer is cached per user and file until any account changes.
   */
  private async grantHolds(grant: PlaybackGrant, now: number): Promise<boolean> {
    const key = `${grant.userId}:${grant.fileId}`;
    // Read before the queries: an account written meanwhile leaves an entry that the next use does not trust.
    const version = this.deps.store.accounts.version;
    const known = this.standing.get(key);
    if (known && known.version === version && now < known.until) return known.holds;
    const holds = (await this.deps.store.userExists(grant.userId)) && (await this.visibleLinks(grant.userId, grant.fileId)) !== null;
    if (this.standing.size >= 1_000) this.standing.clear();
    this.standing.set(key, { holds, version, until: now + GRANT_RECHECK_MS });
    return holds;
  }

  private probe(file: LocatedFile): Promise<ProbeResult> {
    const tools = this.deps.tools;
    if (!tools) return Promise.resolve({ streams: [], format: { format_name: '' }, chapters: [] });
    const key = cacheKey(file);
    const probe = this.probes.get(key, () => probeFile(tools, file.realPath));
    probe.catch(() => this.probes.delete(key));
    return probe;
  }

  private async describe(file: LocatedFile): Promise<MediaDescription> {
    return describeMedia(file, await this.probe(file));
  }

  private grantUrl(prefix: string, pathname: string, grant: PlaybackGrant): string {
    return `${prefix}${pathname}?token=${encodeURIComponent(this.deps.tokens.sign(grant))}`;
  }

  /** GET File/{id}/Playback. */
  async info(userId: number, fileId: number, prefix: string, now = Date.now()): Promise<PlaybackInfo> {
    const { file, links } = await this.visibleFile(userId, fileId);
    const media = await this.describe(file);
    const grant: PlaybackGrant = { userId, fileId, sessionId: null, expires: now + TOKEN_LIFETIME_MS };
    const url = (pathname: string) => this.grantUrl(prefix, pathname, grant);
    const state = await this.deps.store.userState(userId, fileId);
    const languages = this.deps.settings().languageOrder;
    return {
      FileID: fileId,
      EpisodeIDs: links.map((l) => l.episodeId),
      SeriesID: links[0]?.seriesId ?? null,
      FileName: file.name,
      Duration: media.duration,
      Container: media.container,
      Video: media.video.map(({ facts: _facts, ...video }) => video),
      Audio: media.audio,
      Subtitles: media.subtitles.map(({ streamIndex: _index, externalName: _name, ...subtitle }) => ({
        ...subtitle,
        Url: subtitle.Format ? url(`/api/v3/Playback/File/${fileId}/Subtitle/${subtitle.ID}`) : null,
      })),
      Fonts: media.fonts.map((font, index) => ({
        Name: font.name,
        MimeType: font.mimeType,
        Url: url(`/api/v3/Playback/File/${fileId}/Font/${index}`),
      })),
      Chapters: media.chapters,
      DirectUrl: url(`/api/v3/File/${fileId}/Stream`),
      DirectMimeType: media.directMimeType,
      TokenExpires: new Date(grant.expires).toISOString(),
      ResumePosition: state && state.resumeMs > 0 ? state.resumeMs / 1000 : null,
      Watched: state?.watched ?? false,
      PreferredAudioLanguages: languages,
      PreferredSubtitleLanguages: languages,
      FfmpegAvailable: this.ffmpegAvailable,
    };
  }

  private keyframesOf(tools: FfmpegTools, file: LocatedFile, streamIndex: number): Promise<number[]> {
    const key = `${cacheKey(file)}|${streamIndex}`;
    const times = this.keyframes.get(key, () => keyframeTimes(tools, file.realPath, streamIndex));
    times.catch(() => this.keyframes.delete(key));
    return times;
  }

  /** POST Playback/Session. */
  async createSession(userId: number, request: PlaybackSessionRequest, prefix: string, now = Date.now()): Promise<PlaybackSession> {
    const tools = this.deps.tools;
    const { file } = await this.visibleFile(userId, request.FileID);
    if (!tools) throw problemError(503, PLAYBACK_NEEDS_FFMPEG);
    const media = await this.describe(file);
    const video = media.video[0];
    if (!video) throw validationError('FileID', 'The file has no video stream to play.');
    const audio =
      request.AudioStreamIndex === undefined
        ? (media.audio.find((a) => a.Default) ?? media.audio[0] ?? null)
        : media.audio.find((a) => a.Index === request.AudioStreamIndex);
    if (audio === undefined) throw validationError('AudioStreamIndex', `The file has no audio stream ${request.AudioStreamIndex}.`);
    let burn: number | null = null;
    if (request.BurnSubtitleID) {
      const subtitle = media.subtitles.find((s) => s.ID === request.BurnSubtitleID);
      if (!subtitle) throw validationError('BurnSubtitleID', `The file has no subtitle ${request.BurnSubtitleID}.`);
      if (subtitle.IsText || subtitle.streamIndex === null) {
        throw validationError('BurnSubtitleID', 'Only embedded image subtitles are burnt in; text subtitles are drawn by the player.');
      }
      burn = subtitle.streamIndex;
    }
    const start = request.StartPosition ?? 0;
    if (start > media.duration) throw validationError('StartPosition', `The position is past the end of the file (${media.duration} s).`);

    const vMode = videoMode(video.facts, request.CanDecode.Video, burn !== null);
    const aMode = audio ? audioMode({ codec: audio.Codec, profile: null }, request.CanDecode.Audio) : 'Copy';
    const transcodes = vMode === 'Transcode' || (audio !== null && aMode === 'Transcode');
    const plan: SegmentPlan =
      vMode === 'Copy'
        ? copyPlan(await this.keyframesOf(tools, file, video.Index), media.duration, SEGMENT_SECONDS)
        : transcodePlan(media.duration, SEGMENT_SECONDS);

    // Checked and taken with no wait in between, so two requests at once cannot both take the last place.
    const settings = this.deps.settings();
    const limit = settings.maxTranscodes;
    if (transcodes && [...this.sessions.values()].filter((s) => s.transcodes).length >= limit) {
      throw problemError(
        429,
        `The server is already transcoding for ${limit} viewer${limit === 1 ? '' : 's'}, the limit of Playback.MaxConcurrentTranscodes. Stop another playback first.`,
      );
    }
    const id = randomUUID().replace(/-/g, '');
    const dir = path.join(this.deps.workDir, id);
    const producer = new HlsProducer(
      tools,
      plan,
      {
        input: file.realPath,
        formatStart: media.formatStart,
        videoStream: video.Index,
        audioStream: audio?.Index ?? null,
        videoMode: vMode,
        audioMode: aMode,
        burnSubtitleStream: burn,
        videoCodec: video.Codec,
        segmentSeconds: SEGMENT_SECONDS,
        videoPreset: x264Preset(settings.transcodePreset, video.facts.width, video.facts.height, os.availableParallelism()),
      },
      dir,
    );
    const session: Session = {
      id,
      userId,
      fileId: request.FileID,
      transcodes,
      producer,
      lastSeen: now,
      expires: now + TOKEN_LIFETIME_MS,
    };
    this.sessions.set(id, session);
    try {
      await fs.mkdir(dir, { recursive: true });
      await producer.prepare(segmentAt(plan, start));
    } catch (error) {
      await this.end(id);
      throw error;
    }
    const grant: PlaybackGrant = { userId, fileId: request.FileID, sessionId: id, expires: session.expires };
    return {
      SessionID: id,
      PlaylistUrl: this.grantUrl(prefix, `/api/v3/Playback/Session/${id}/index.m3u8`, grant),
      VideoMode: vMode,
      AudioMode: audio ? aMode : 'Copy',
      SegmentSeconds: SEGMENT_SECONDS,
      Duration: media.duration,
      Expires: new Date(session.expires).toISOString(),
    };
  }

  /**
   * The session a token names, alive; 403 for a token that does not carry it (or whose user was deleted or may no
   * longer see the file: the session ends), 404 with PLAYBACK_SESSION_ENDED for an ended session.
   */
  private async sessionOf(token: string | undefined, sessionId: string, now: number): Promise<Session> {
    const grant = this.deps.tokens.verify(token, now);
    if (!grant || grant.sessionId !== sessionId) throw emptyError(403);
    const session = this.sessions.get(sessionId);
    if (!session || session.userId !== grant.userId) throw problemError(404, PLAYBACK_SESSION_ENDED);
    if (!(await this.grantHolds(grant, now))) {
      await this.end(sessionId);
      throw emptyError(403);
    }
    session.lastSeen = Math.max(session.lastSeen, now);
    return session;
  }

  /** POST Playback/Session/{id}/KeepAlive: a paused viewer keeps the session past the silence timeout. */
  async keepAlive(token: string | undefined, sessionId: string, now = Date.now()): Promise<void> {
    await this.sessionOf(token, sessionId, now);
  }

  /** GET Playback/Session/{id}/{name}: the playlist, the init segment or a segment. */
  async sessionFile(
    token: string | undefined,
    sessionId: string,
    name: string,
    now = Date.now(),
  ): Promise<{ type: string; body: Buffer | string }> {
    const session = await this.sessionOf(token, sessionId, now);
    const { producer } = session;
    if (name === 'index.m3u8') {
      const suffix = `?token=${encodeURIComponent(token!)}`;
      return { type: 'application/vnd.apple.mpegurl', body: mediaPlaylist(producer.plan, (file) => `${file}${suffix}`) };
    }
    if (name === 'init.mp4') return { type: 'video/mp4', body: await producer.init() };
    const segment = /^segment-(\d{1,7})\.m4s$/.exec(name);
    if (!segment || Number(segment[1]) >= producer.plan.segmentUnits.length) throw emptyError(404);
    return { type: 'video/mp4', body: await producer.segment(Number(segment[1])) };
  }

  /** Stop with a session token (sendBeacon). */
  async stopWithToken(token: string | undefined, sessionId: string, now = Date.now()): Promise<void> {
    const grant = this.deps.tokens.verify(token, now);
    if (!grant || grant.sessionId !== sessionId) throw emptyError(403);
    await this.end(sessionId);
  }

  /** DELETE Playback/Session/{id} with an API key: the user's own sessions (an admin's: any). */
  async stop(userId: number, isAdmin: boolean, sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session || (!isAdmin && session.userId !== userId)) throw notFound('No playback session with this id.');
    await this.end(sessionId);
  }

  /**
   * The user a token for this file speaks for (File/{id}/Stream and its external subtitles), or null: forged, expired,
   * for another file, or its user deleted or no longer allowed to see the file.
   */
  async streamUser(token: string | undefined, fileId: number, now = Date.now()): Promise<number | null> {
    const grant = this.deps.tokens.verify(token, now);
    if (!grant || grant.fileId !== fileId) return null;
    return (await this.grantHolds(grant, now)) ? grant.userId : null;
  }

  private async fileForToken(token: string | undefined, fileId: number, now: number) {
    const userId = await this.streamUser(token, fileId, now);
    if (userId === null) throw emptyError(403);
    const { file } = await this.visibleFile(userId, fileId);
    return { file, media: await this.describe(file) };
  }

  /** GET Playback/File/{id}/Subtitle/{subtitleID}: ASS or WebVTT text. */
  async subtitle(token: string | undefined, fileId: number, subtitleId: string, now = Date.now()): Promise<{ type: string; text: string }> {
    const { file, media } = await this.fileForToken(token, fileId, now);
    const subtitle = media.subtitles.find((s) => s.ID === subtitleId);
    if (!subtitle || !subtitle.Format) throw notFound('The file has no text subtitle with this id.');
    const format = subtitle.Format;
    const type = format === 'ass' ? 'text/x-ssa; charset=utf-8' : 'text/vtt; charset=utf-8';
    const tools = this.deps.tools;
    const key = `${cacheKey(file)}|${subtitleId}`;
    const text = this.texts.get(key, () => {
      if (subtitle.externalName !== null)
        return readSubtitleFile(tools, path.join(path.dirname(file.realPath), subtitle.externalName), format);
      if (!tools) return Promise.reject(problemError(503, PLAYBACK_NEEDS_FFMPEG));
      return extractSubtitle(tools, file.realPath, subtitle.streamIndex!, format);
    });
    text.catch(() => this.texts.delete(key));
    return { type, text: await text };
  }

  /** GET Playback/File/{id}/Font/{index}. */
  async font(token: string | undefined, fileId: number, index: number, now = Date.now()): Promise<{ type: string; body: Buffer }> {
    const { file, media } = await this.fileForToken(token, fileId, now);
    const font = media.fonts[index];
    const tools = this.deps.tools;
    if (!font || !tools) throw notFound('The file has no font attachment with this index.');
    return { type: font.mimeType, body: await extractAttachment(tools, file.realPath, font.streamIndex) };
  }
}

/** The segment holding `time`. */
function segmentAt(plan: SegmentPlan, time: number): number {
  let segment = 0;
  while (segment + 1 < plan.segmentUnits.length && segmentSpan(plan, segment + 1).start <= time) segment++;
  return segment;
}
