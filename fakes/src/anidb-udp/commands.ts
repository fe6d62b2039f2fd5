import { randomInt } from 'node:crypto';
import type { FakeUdpReply, FakeUdpRequest } from './protocol.js';

export interface FakeUdpSession {
  key: string;
  user: string;
  /** Where the client's datagrams come from (what AniDB reports back with `nat=1`). */
  address: string;
  port: number;
  lastSeenAt: number;
  /** AUTH asked for `comp=1`: replies longer than AniDB's 1400 bytes are sent deflated instead of cut off. */
  compress?: boolean;
}

/** What a command handler can see and change besides its own request. */
export interface FakeUdpContext {
  users: Record<string, string>;
  sessions: Map<string, FakeUdpSession>;
  peer: { address: string; port: number };
  /** The session named by `s=`; always set for commands with `needsSession`. */
  session: FakeUdpSession | null;
}

export interface FakeUdpCommand {
  /** Without a valid `s=` the fake answers 501 / 506 instead of calling `handle`. */
  needsSession: boolean;
  /** A reply, or null to stay silent. */
  handle(request: FakeUdpRequest, context: FakeUdpContext): FakeUdpReply | null;
}

const SESSION_KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function newSessionKey(sessions: Map<string, FakeUdpSession>): string {
  for (;;) {
    let key = '';
    for (let i = 0; i < 5; i++) key += SESSION_KEY_ALPHABET[randomInt(SESSION_KEY_ALPHABET.length)];
    if (!sessions.has(key)) return key;
  }
}

const REQUIRED_AUTH_PARAMS = ['user', 'pass', 'protover', 'client', 'clientver'];

const auth: FakeUdpCommand = {
  needsSession: false,
  handle({ params }, { users, sessions, peer }) {
    if (REQUIRED_AUTH_PARAMS.some((name) => params[name] === undefined)) return { code: 505, text: 'ILLEGAL INPUT OR ACCESS DENIED' };
    if (params.protover !== '3') return { code: 503, text: 'CLIENT VERSION OUTDATED' };
    if (!Object.hasOwn(users, params.user) || users[params.user] !== params.pass) return { code: 500, text: 'LOGIN FAILED' };
    const key = newSessionKey(sessions);
    sessions.set(key, {
      key,
      user: params.user,
      address: peer.address,
      port: peer.port,
      lastSeenAt: Date.now(),
      compress: params.comp === '1',
    });
    const seenFrom = params.nat === '1' ? ` ${peer.address}:${peer.port}` : '';
    return { code: 200, text: `${key}${seenFrom} LOGIN ACCEPTED` };
  },
};

const logout: FakeUdpCommand = {
  // LOGOUT answers 403 itself rather than 501/506.
  needsSession: false,
  handle({ session }, { sessions }) {
    if (!session || !sessions.delete(session)) return { code: 403, text: 'NOT LOGGED IN' };
    return { code: 203, text: 'LOGGED OUT' };
  },
};

const ping: FakeUdpCommand = {
  needsSession: false,
  handle({ params }, { peer }) {
    return params.nat === '1' ? { code: 300, text: 'PONG', rows: [[peer.port]] } : { code: 300, text: 'PONG' };
  },
};

const startedAt = Date.now();

const uptime: FakeUdpCommand = {
  needsSession: true,
  handle: () => ({ code: 208, text: 'UPTIME', rows: [[Date.now() - startedAt]] }),
};

/** Session and housekeeping commands; FILE, ANIME, EPISODE, MYLIST… are added to this map as they are faked. */
export function builtInCommands(): Record<string, FakeUdpCommand> {
  return { AUTH: auth, LOGOUT: logout, PING: ping, UPTIME: uptime };
}
