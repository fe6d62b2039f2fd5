import { inflateSync } from 'node:zlib';

/** Encoding of AniDB UDP commands and decoding of its replies (protocol reference §1.3). */

export type UdpParamValue = string | number | boolean;
export type UdpParams = Record<string, UdpParamValue | null | undefined>;

export interface UdpReply {
  /** The `tag=` the request carried, echoed by the server; null when the reply has none. */
  tag: string | null;
  code: number;
  /** The rest of the first line, e.g. `LOGIN ACCEPTED` or, for 200/201, `{session} LOGIN ACCEPTED`. */
  text: string;
  /** Data lines, trimmed, empty ones dropped, still escaped. */
  lines: string[];
  /** Data lines split on `|`, each field unescaped. Trailing fields we do not know must be ignored by callers. */
  rows: string[][];
}

export class MalformedReplyError extends Error {
  constructor(readonly firstLine: string) {
    super(`Unexpected AniDB UDP reply: ${firstLine.slice(0, 80)}`);
    this.name = 'MalformedReplyError';
  }
}

/**
 * Request values are form-escaped: a raw `&` would start the next parameter and a raw newline would end the
 * command. (Shoko sends values unescaped, which breaks passwords containing `&`.)
 */
export function escapeValue(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/\r\n|\r|\n/g, '<br />');
}

/** Reply fields carry newlines as `<br />` and apostrophes as backticks (`|` arrives as `/` and cannot be restored). */
export function unescapeField(field: string): string {
  return field.replace(/<br\s*\/?>/g, '\n').replace(/`/g, "'");
}

function formatValue(value: UdpParamValue): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  return escapeValue(String(value));
}

/** `COMMAND key=value&key=value`; parameters that are null/undefined are left out, order is kept. */
export function encodeCommand(command: string, params: UdpParams = {}): string {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined) pairs.push(`${key}=${formatValue(value)}`);
  }
  return pairs.length ? `${command} ${pairs.join('&')}` : command;
}

/** AniDB answers a banned client with a datagram of nothing but zero bytes. */
export function isZeroDatagram(datagram: Buffer): boolean {
  return datagram.length > 0 && datagram.every((byte) => byte === 0);
}

/**
 * Datagram → text. With `comp=1` a long reply arrives as two zero bytes plus a zlib stream; the text itself is
 * UTF-8 (we log in with `enc=utf-8`) unless a byte-order mark says otherwise (a session left in UTF-16 mode).
 */
export function decodeDatagram(datagram: Buffer): string {
  const bytes = datagram.length > 2 && datagram[0] === 0 && datagram[1] === 0 ? inflateSync(datagram.subarray(2)) : datagram;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

const CODE = /^\d{3}$/;

/**
 * `[{tag} ]{code} {text}\n{field}|{field}\n…`. Our tags always contain a letter, so a leading three-digit token
 * is the code of an untagged reply and never a tag.
 */
export function parseReply(text: string): UdpReply {
  const [firstLine = '', ...dataLines] = text.split('\n');
  const first = firstLine.trim();
  const tokens = first.split(' ');
  let tag: string | null = null;
  if (!CODE.test(tokens[0] ?? '')) {
    if (!CODE.test(tokens[1] ?? '')) throw new MalformedReplyError(first);
    tag = tokens.shift()!;
  }
  const code = Number(tokens.shift());
  const lines = dataLines.map((line) => line.trim()).filter((line) => line.length > 0);
  return { tag, code, text: tokens.join(' '), lines, rows: lines.map((line) => line.split('|').map(unescapeField)) };
}

export function decodeReply(datagram: Buffer): UdpReply {
  return parseReply(decodeDatagram(datagram));
}
