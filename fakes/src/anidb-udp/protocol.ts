/** Wire format of the AniDB UDP API as the fake sees it: requests in, reply datagrams out. */

export interface FakeUdpRequest {
  /** Upper-cased command name, e.g. `AUTH`. */
  command: string;
  /** Parameters with client-side escaping (`&amp;`, `<br />`) undone. */
  params: Record<string, string>;
  /** The `tag=` parameter, echoed in front of the reply code. */
  tag: string | null;
  /** The `s=` parameter. */
  session: string | null;
}

export interface FakeUdpReply {
  code: number;
  /** Rest of the first line, e.g. `LOGIN ACCEPTED` or `{session} LOGIN ACCEPTED`. */
  text: string;
  /** Data lines; each field is escaped the way AniDB escapes reply fields. */
  rows?: ReadonlyArray<ReadonlyArray<string | number>>;
}

/**
 * Text of a request datagram. Clients normally send ASCII/UTF-8; Shoko-style clients switch to UTF-16BE (no BOM)
 * after `enc=utf-16`, recognisable by a zero high byte in front of the first letter.
 */
export function decodeRequestDatagram(datagram: Buffer): string {
  let text: string;
  if (datagram.length >= 2 && datagram.length % 2 === 0 && datagram[0] === 0) {
    text = Buffer.from(datagram).swap16().toString('utf16le');
  } else {
    text = datagram.toString('utf8');
  }
  return text.replace(/^\uFEFF/, '').replace(/\r?\n$/, '');
}

const unescapeRequestValue = (value: string) => value.replace(/<br \/>/g, '\n').replace(/&amp;/g, '&');

export function parseRequest(text: string): FakeUdpRequest {
  const space = text.indexOf(' ');
  const command = (space < 0 ? text : text.slice(0, space)).trim().toUpperCase();
  const params: Record<string, string> = {};
  if (space >= 0) {
    // `&amp;` inside a value must not split it: split only on `&` that does not start `&amp;`.
    for (const pair of text.slice(space + 1).split(/&(?!amp;)/)) {
      const equals = pair.indexOf('=');
      if (equals > 0) params[pair.slice(0, equals).trim()] = unescapeRequestValue(pair.slice(equals + 1));
    }
  }
  return { command, params, tag: params.tag ?? null, session: params.s ?? null };
}

/** AniDB's escaping inside reply fields: newline → `<br />`, apostrophe → backtick, pipe → slash. */
export function escapeReplyField(value: string | number): string {
  return String(value).replace(/\r?\n/g, '<br />').replace(/'/g, '`').replace(/\|/g, '/');
}

export function formatReply(reply: FakeUdpReply, tag: string | null): string {
  const head = `${tag ? `${tag} ` : ''}${reply.code} ${reply.text}`;
  const rows = (reply.rows ?? []).map((row) => row.map(escapeReplyField).join('|'));
  return [head, ...rows].join('\n') + '\n';
}
