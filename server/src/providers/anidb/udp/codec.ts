import { inflateSync } from 'node:zlib';

export type UdpParams = Record<string, string | number | boolean | undefined>;

/** Values sent to AniDB are form-escaped: `&` would end the value and a newline the datagram. */
export function escapeValue(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/\r?\n/g, '<br />');
}

/** Inside reply fields AniDB writes newlines as `<br />` and apostrophes as backticks. */
export function unescapeField(field: string): string {
  return field.replace(/<br \/>|<br>/g, '\n').replace(/`/g, "'");
}

export function encodeCommand(command: string, params: UdpParams = {}): string {
  const pairs = Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${escapeValue(String(value))}`);
  return pairs.length ? `${command} ${pairs.join('&')}` : command;
}

export interface UdpReply {
  code: number;
  /** The first line after the code (for 200/201: the session key, then the text). */
  text: string;
  /** Data lines split into unescaped fields. */
  rows: string[][];
  raw: string;
}

function decodeText(buffer: Buffer): string {
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return Buffer.from(buffer.subarray(2)).swap16().toString('utf16le');
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return buffer.subarray(2).toString('utf16le');
  if (buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf) return buffer.subarray(3).toString('utf8');
  return buffer.toString('utf8').replace(/^\uFEFF/, '');
}

export class MalformedReplyError extends Error {}

/** True for the all-zero datagram AniDB sends to a banned client. */
export const isZeroReply = (buffer: Buffer) => buffer.length > 0 && buffer.every((byte) => byte === 0);

export function decodeReply(datagram: Buffer): UdpReply {
  // Compressed replies (comp=1) start with two zero bytes and carry a zlib stream.
  const buffer = datagram.length > 2 && datagram[0] === 0 && datagram[1] === 0 ? inflateSync(datagram.subarray(2)) : datagram;
  const raw = decodeText(buffer);
  const [first = '', ...rest] = raw.split('\n');
  const match = /^(\d{3})(?: (.*))?$/.exec(first.trim());
  if (!match) throw new MalformedReplyError(`Unexpected AniDB reply: ${first.slice(0, 80)}`);
  const rows = rest.map((line) => line.trim()).filter(Boolean).map((line) => line.split('|').map(unescapeField));
  return { code: Number(match[1]), text: match[2] ?? '', rows, raw };
}
