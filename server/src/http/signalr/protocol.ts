/**
 * Framing of the SignalR JSON hub protocol, version 1: every message is one JSON text followed by the ASCII record
 * separator. Only the text (JSON) format is supported; MessagePack clients are refused at the handshake.
 */

export const RECORD_SEPARATOR = '\u001e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
} as const;

export interface InvocationMessage {
  type: 1;
  target: string;
  arguments: unknown[];
  invocationId?: string;
}

export interface HubMessage {
  type: number;
  [field: string]: unknown;
}

/** Serialises one message with its trailing separator. */
export function frame(message: unknown): string {
  return JSON.stringify(message) + RECORD_SEPARATOR;
}

export const PING_FRAME = frame({ type: MessageType.Ping });

export const invocationFrame = (target: string, args: unknown[]): string =>
  frame({ type: MessageType.Invocation, target, arguments: args });

export const closeFrame = (error?: string): string =>
  frame(error === undefined ? { type: MessageType.Close } : { type: MessageType.Close, error });

/**
 * Accumulates transport chunks and hands out complete records. A record may be split across chunks (long polling
 * sends, fragmented WebSocket writes), so the remainder after the last separator is kept for the next chunk.
 */
export class FrameReader {
  private pending = '';

  push(chunk: string): string[] {
    const text = this.pending + chunk;
    const parts = text.split(RECORD_SEPARATOR);
    this.pending = parts.pop() ?? '';
    return parts;
  }
}

export type HandshakeResult = { ok: true } | { ok: false; error: string };

/** Validates the handshake request `{"protocol":"json","version":1}`. */
export function checkHandshake(record: string): HandshakeResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(record);
  } catch {
    return { ok: false, error: 'Handshake request is not valid JSON.' };
  }
  if (!parsed || typeof parsed !== 'object') return { ok: false, error: 'Handshake request must be a JSON object.' };
  const { protocol, version } = parsed as { protocol?: unknown; version?: unknown };
  if (typeof protocol !== 'string') return { ok: false, error: "Missing required property 'protocol'." };
  if (protocol.toLowerCase() !== 'json') {
    return { ok: false, error: `The protocol '${protocol}' is not supported.` };
  }
  if (version !== 1) {
    return { ok: false, error: `The server does not support version ${String(version)} of the '${protocol}' protocol.` };
  }
  return { ok: true };
}

/** Parses one record into a hub message, or null when it is not a JSON object with a numeric type. */
export function parseMessage(record: string): HubMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(record);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  if (typeof (parsed as { type?: unknown }).type !== 'number') return null;
  return parsed as HubMessage;
}
