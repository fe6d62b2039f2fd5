import dgram from 'node:dgram';
import { deflateSync } from 'node:zlib';
import { builtInCommands, type FakeUdpCommand, type FakeUdpContext, type FakeUdpSession } from './commands.js';
import { updatedCommand, type FakeAnimeUpdate } from './updated-command.js';
import { StrictAniDB, type StrictRules } from '../anidb-strict/index.js';
import { decodeRequestDatagram, formatReply, parseRequest, type FakeUdpReply, type FakeUdpRequest } from './protocol.js';

export interface FakeAniDBUdpOptions {
  /** Port on 127.0.0.1; 0 or unset = any free port. */
  port?: number;
  /** Accepted logins, username → password. */
  users?: Record<string, string>;
  /** Answer every packet with `555 BANNED`. */
  banned?: boolean;
  /** Never answer: an unreachable server, or one dropping packets over its rate limit. */
  silent?: boolean;
  /** Extra or replacement commands, keyed by upper-case command name. */
  commands?: Record<string, FakeUdpCommand>;
  /** A session expires after this much silence from its client (AniDB: 35 minutes). */
  sessionIdleMs?: number;
  /** Enforce AniDB's pacing like AniDB: a client that sends too fast is banned (555, then silence). */
  strict?: StrictRules;
}

/** Faults a test can switch on and off while the fake runs. */
export interface FakeUdpScenario {
  banned: boolean;
  banReason: string;
  /** Answer with an all-zero datagram, AniDB's other way of saying "banned". */
  zeroReply: boolean;
  silent: boolean;
  /** Ignore this many upcoming packets, then answer normally. */
  dropNext: number;
  /** Replies sent (in order, tag echoed) instead of running the next packets' commands, e.g. `602 SERVER BUSY`. */
  nextReplies: FakeUdpReply[];
  /** Hold every reply back this long (a slow server: replies arrive after the client gave up). */
  replyDelayMs: number;
}

export interface FakeAniDBUdp {
  host: string;
  port: number;
  /** Every datagram received, decoded to text, oldest first. */
  received: string[];
  /** Replies sent deflated (comp=1 sessions, over 1400 bytes). */
  compressedReplies: number;
  sessions: Map<string, FakeUdpSession>;
  users: Record<string, string>;
  /** What `UPDATED` reports: push `{ animeId, at }` (unix seconds) when an anime "changes" on AniDB. */
  animeUpdates: FakeAnimeUpdate[];
  /** The rule keeper when started `strict`: its `bans` list every ban it handed out. */
  strict: StrictAniDB | null;
  commands: Record<string, FakeUdpCommand>;
  scenario: FakeUdpScenario;
  close(): Promise<void>;
}

const DEFAULT_SESSION_IDLE_MS = 35 * 60_000;

/** A loopback AniDB UDP API speaking the real reply codes, for tests and the offline demo. */
/** AniDB's reply size limit. */
const MAX_REPLY_BYTES = 1400;

export async function startFakeAniDBUdp(options: FakeAniDBUdpOptions = {}): Promise<FakeAniDBUdp> {
  const socket = dgram.createSocket('udp4');
  const delayedReplies = new Set<NodeJS.Timeout>();
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const animeUpdates: FakeAnimeUpdate[] = [];
  const fake: FakeAniDBUdp = {
    host: '127.0.0.1',
    port: 0,
    received: [],
    compressedReplies: 0,
    sessions: new Map(),
    users: { ...options.users },
    animeUpdates,
    strict: options.strict ? new StrictAniDB(options.strict) : null,
    commands: { ...builtInCommands(), UPDATED: updatedCommand(animeUpdates), ...options.commands },
    scenario: {
      banned: options.banned ?? false,
      banReason: 'Too many requests from this client',
      zeroReply: false,
      silent: options.silent ?? false,
      dropNext: 0,
      nextReplies: [],
      replyDelayMs: 0,
    },
    close: () => {
      for (const timer of delayedReplies) clearTimeout(timer);
      return new Promise((resolve) => socket.close(() => resolve()));
    },
  };

  const expireIdleSessions = () => {
    const cutoff = Date.now() - sessionIdleMs;
    for (const [key, session] of fake.sessions) if (session.lastSeenAt < cutoff) fake.sessions.delete(key);
  };

  const answer = (request: FakeUdpRequest, peer: { address: string; port: number }): FakeUdpReply | Buffer | null => {
    const { scenario } = fake;
    const verdict = fake.strict?.request() ?? { kind: 'ok' };
    if (verdict.kind === 'silent') return null;
    if (verdict.kind === 'ban') return { code: 555, text: 'BANNED', rows: [[verdict.reason]] };
    if (scenario.silent) return null;
    if (scenario.dropNext > 0) {
      scenario.dropNext--;
      return null;
    }
    if (scenario.zeroReply) return Buffer.alloc(16);
    if (scenario.banned) return { code: 555, text: 'BANNED', rows: [[scenario.banReason]] };
    const forced = scenario.nextReplies.shift();
    if (forced) return forced;

    const command = fake.commands[request.command];
    if (!command) return { code: 598, text: 'UNKNOWN COMMAND' };
    expireIdleSessions();
    const session = request.session ? (fake.sessions.get(request.session) ?? null) : null;
    if (command.needsSession) {
      if (!request.session) return { code: 501, text: 'LOGIN FIRST' };
      if (!session) return { code: 506, text: 'INVALID SESSION' };
    }
    if (session) session.lastSeenAt = Date.now();
    const context: FakeUdpContext = { users: fake.users, sessions: fake.sessions, peer, session };
    return command.handle(request, context);
  };

  socket.on('message', (datagram, peer) => {
    const text = decodeRequestDatagram(datagram);
    fake.received.push(text);
    const request = parseRequest(text);
    const reply = answer(request, { address: peer.address, port: peer.port });
    if (reply === null) return;
    let payload = Buffer.isBuffer(reply) ? reply : Buffer.from(formatReply(reply, request.tag), 'utf8');
    if (payload.length > MAX_REPLY_BYTES && !Buffer.isBuffer(reply)) {
      // Like AniDB: deflated behind two zero bytes for sessions that asked for comp=1, otherwise cut off.
      const compress = request.session ? fake.sessions.get(request.session)?.compress : false;
      payload = compress ? Buffer.concat([Buffer.alloc(2), deflateSync(payload)]) : payload.subarray(0, MAX_REPLY_BYTES);
      fake.compressedReplies += compress ? 1 : 0;
    }
    const send = () => socket.send(payload, peer.port, peer.address);
    if (fake.scenario.replyDelayMs <= 0) return send();
    const timer = setTimeout(() => {
      delayedReplies.delete(timer);
      send();
    }, fake.scenario.replyDelayMs);
    delayedReplies.add(timer);
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(options.port ?? 0, '127.0.0.1', () => {
      socket.off('error', reject);
      resolve();
    });
  });
  fake.port = socket.address().port;
  return fake;
}
