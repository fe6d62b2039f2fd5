import type { LogEvent, LogLevel } from '@shoko-ts/contract';

/** One line as pino writes it (the fields this service reads). */
export interface PinoRecord {
  level: number;
  time: number;
  name?: unknown;
  msg?: unknown;
  err?: { message?: unknown; stack?: unknown };
}

const LEVELS: Array<[number, LogLevel]> = [
  [60, 'Fatal'],
  [50, 'Error'],
  [40, 'Warn'],
  [30, 'Info'],
  [20, 'Debug'],
  [10, 'Trace'],
];

export function levelName(level: number): LogLevel {
  return LEVELS.find(([threshold]) => level >= threshold)?.[1] ?? 'Trace';
}

/** Contract rule: settings dumps mentioning credentials are not logged at all. */
export function isSuppressed(message: string): boolean {
  return message.startsWith('Settings.') && /password|token|key/i.test(message);
}

const QUERY_SECRET = /\b(access_token|apikey|api_key|password|token)=([^&\s"']+)/gi;
const BEARER = /\b(Bearer\s+)[^\s"']+/gi;

/** Masks credentials that found their way into a message: query parameters, bearer headers and known values. */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text.replace(QUERY_SECRET, '$1=***').replace(BEARER, '$1***');
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join('***');
  }
  return out;
}

const SECRET_SETTING = /password|token|secret|apikey/i;

/** Collects the values of credential-like settings (AniDB/DB passwords, Plex/Trakt tokens, personal API keys). */
export function secretSettingValues(settings: unknown, found: Set<string> = new Set()): Set<string> {
  if (!settings || typeof settings !== 'object') return found;
  for (const [key, value] of Object.entries(settings as Record<string, unknown>)) {
    // Very short values would mask ordinary words everywhere; real credentials are longer.
    if (typeof value === 'string' && SECRET_SETTING.test(key) && value.length >= 4) found.add(value);
    else if (value && typeof value === 'object') secretSettingValues(value, found);
  }
  return found;
}

/** Turns a pino record into the hub's LogEvent; the error's message (not its stack) is appended as Shoko does. */
export function toLogEvent(record: PinoRecord, secrets: Iterable<string>): LogEvent {
  const msg = typeof record.msg === 'string' ? record.msg : record.msg === undefined ? '' : String(record.msg);
  const errorMessage = typeof record.err?.message === 'string' ? record.err.message : '';
  let message = msg;
  if (errorMessage && errorMessage !== msg) message = msg ? `${msg}: ${errorMessage}` : errorMessage;
  return {
    Level: levelName(record.level),
    TimeStamp: new Date(record.time).toISOString(),
    LoggerName: typeof record.name === 'string' && record.name ? record.name : 'Shoko',
    Caller: '::',
    Message: redact(message, secrets),
  };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2025-01-31 13:45:12.345 Info  [Init] message` in local time, with the stack on following lines for errors. */
export function formatLine(entry: LogEvent, record: PinoRecord, secrets: Iterable<string>): string {
  const t = new Date(record.time);
  const stamp =
    `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())} ` +
    `${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}.${pad(t.getMilliseconds(), 3)}`;
  let line = `${stamp} ${entry.Level.padEnd(5)} [${entry.LoggerName}] ${entry.Message}`;
  if (record.level >= 50 && typeof record.err?.stack === 'string') {
    const stack = record.err.stack.split('\n').slice(1).join('\n');
    if (stack) line += `\n${redact(stack, secrets)}`;
  }
  return line + '\n';
}
