import dgram from 'node:dgram';
import { randomBytes } from 'node:crypto';

/** A request as the fake parsed it. */
export interface FakeUdpRequest {
  command: string;
  params: Record<string, string>;
  session: string | null;
}

export type FakeUdpHandler = (request: FakeUdpRequest, fake: FakeAniDBUdp) => string | Buffer | null;

export interface FakeAniDBUdpOptions {
  port?: number;
  users?: Record<string, string>;
  /** Answer every packet with 555 BANNED. */
  banned?: boolean;
  /** Never answer (an unreachable server, or one dropping packets over its rate limit). */
  silent?: boolean;
  /** Extra commands (FILE, ANIME, …) added by later fakes. */
  handlers?: Record<string, FakeUdpHandler>;
}

export interface FakeAniDBUdp {
  host: string;
  port: number;
  /** Every datagram received, as text. */
  received: string[];
  sessions: Map<string, string>;
  options: FakeAniDBUdpOptions;
  close(): Promise<void>;
}

const unescape = (value: string) => value.replace(/<br \/>/g, '\n').replace(/&amp;/g, '&');

function parse(text: string): FakeUdpRequest {
  const space = text.indexOf(' ');
  const command = (space < 0 ? text : text.slice(0, space)).trim().toUpperCase();
  const params: Record<string, string> = {};
  if (space >= 0) {
    for (const pair of text.slice(space + 1).trim().split('&')) {
      const eq = pair.indexOf('=');
      if (eq > 0) params[pair.slice(0, eq)] = unescape(pair.slice(eq + 1));
    }
  }
  return { command, params, session: params.s ?? null };
}

const SESSIONLESS = new Set(['AUTH', 'PING', 'ENCRYPT', 'VERSION']);

const BUILT_IN: Record<string, FakeUdpHandler> = {
  AUTH: ({ params }, fake) => {
    const users = fake.options.users ?? {};
    if (!params.user || users[params.user] === undefined || users[params.user] !== params.pass) return '500 LOGIN FAILED\n';
    if (params.protover !== '3') return '503 CLIENT VERSION OUTDATED\n';
    const session = randomBytes(4).toString('hex').slice(0, 5);
    fake.sessions.set(session, params.user);
    return `200 ${session} LOGIN ACCEPTED\n`;
  },
  LOGOUT: ({ session }, fake) => {
    if (!session || !fake.sessions.delete(session)) return '403 NOT LOGGED IN\n';
    return '203 LOGGED OUT\n';
  },
  PING: () => '300 PONG\n',
  UPTIME: () => `208 UPTIME\n${60_000}\n`,
};

/** A loopback AniDB UDP API speaking the real reply codes, for tests and the offline demo. */
export async function startFakeAniDBUdp(options: FakeAniDBUdpOptions = {}): Promise<FakeAniDBUdp> {
  const socket = dgram.createSocket('udp4');
  const handlers = { ...BUILT_IN, ...options.handlers };
  const fake: FakeAniDBUdp = {
    host: '127.0.0.1',
    port: 0,
    received: [],
    sessions: new Map(),
    options,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (message, peer) => {
    const text = message.toString('utf8');
    fake.received.push(text);
    if (fake.options.silent) return;
    let reply: string | Buffer | null;
    const request = parse(text);
    if (fake.options.banned) reply = '555 BANNED\nToo many requests from this client\n';
    else if (!handlers[request.command]) reply = '598 UNKNOWN COMMAND\n';
    else if (!SESSIONLESS.has(request.command) && request.command !== 'LOGOUT' && !request.session) reply = '501 LOGIN FIRST\n';
    else if (!SESSIONLESS.has(request.command) && request.command !== 'LOGOUT' && !fake.sessions.has(request.session!)) reply = '506 INVALID SESSION\n';
    else reply = handlers[request.command](request, fake);
    if (reply === null) return;
    const tag = request.params.tag;
    const body = typeof reply === 'string' ? Buffer.from(tag ? `${tag} ${reply}` : reply, 'utf8') : reply;
    socket.send(body, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(options.port ?? 0, '127.0.0.1', () => resolve()));
  fake.port = socket.address().port;
  return fake;
}
