import { EVENT_REVISION_HEADER } from '@shoko-ts/contract';
import { serverUrl } from '@/lib/basePath';
import { getApiKey } from '@/lib/session';

/** A failed HTTP call, carrying what the server said in a form a person can read. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly url: string,
    readonly body: unknown,
  ) {
    super(describeFailure(status, body));
    this.name = 'ApiError';
  }
}

function describeFailure(status: number, body: unknown): string {
  if (typeof body === 'string' && body.trim()) return body.trim();
  if (body && typeof body === 'object') {
    const problem = body as { errors?: Record<string, string[]>; detail?: string; title?: string };
    const messages = problem.errors ? Object.values(problem.errors).flat().filter(Boolean) : [];
    if (messages.length) return messages.join(' ');
    if (problem.detail) return problem.detail;
    if (problem.title) return problem.title;
  }
  if (status === 0) return 'The server could not be reached.';
  return `Request failed with status ${status}.`;
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

type QueryValue = string | number | boolean;
/** Array values become repeated keys (`include=A&include=B`), the form Shoko's list parameters take. */
export type Query = Record<string, QueryValue | readonly QueryValue[] | undefined | null>;

interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Lets the request finish after the page is left (a player's last position). */
  keepalive?: boolean;
}

export function buildUrl(path: string, query?: Query): string {
  const url = serverUrl(path.startsWith('/') ? path : `/api/v3/${path}`);
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${url}?${text}` : url;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * One HTTP call. Paths without a leading slash are API v3 (`Init/Status` → `/api/v3/Init/Status`); others are used
 * as given (`/api/auth`). Every request carries the `apikey` header (empty before login), as Shoko's clients do.
 */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const url = buildUrl(path, options.query);
  const headers: Record<string, string> = { apikey: getApiKey(), accept: 'application/json, text/plain, */*' };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(url, { method, headers, body, signal: options.signal, keepalive: options.keepalive });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, method, url, undefined);
  }
  const data = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, method, url, data);
  const revision = Number(response.headers.get(EVENT_REVISION_HEADER) ?? NaN);
  if (data && typeof data === 'object' && Number.isFinite(revision)) answerRevisions.set(data, revision);
  return data as T;
}

const answerRevisions = new WeakMap<object, number>();

/** The server's event revision when the request of this answer arrived (EVENT_REVISION_HEADER); null when unknown. */
export function answerRevision(data: unknown): number | null {
  return data && typeof data === 'object' ? (answerRevisions.get(data) ?? null) : null;
}

/** `part` of the answer `whole` (a widget's part of a summary), read at the same revision. */
export function partOf<T>(whole: unknown, part: T): T {
  const revision = answerRevision(whole);
  if (revision !== null && part && typeof part === 'object') answerRevisions.set(part, revision);
  return part;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('DELETE', path, { ...options, body }),
};

/**
 * A failure split for a form: messages of a 400 validation problem by field (lower-cased, as servers differ in
 * casing: `Path`, `path`), and everything else as one general message.
 */
export function formErrors(error: unknown): { fields: Record<string, string[]>; general: string | null } {
  if (!error) return { fields: {}, general: null };
  const body = isApiError(error, 400) ? (error.body as { errors?: unknown } | undefined) : undefined;
  const errors =
    body && typeof body === 'object' && body.errors && typeof body.errors === 'object' ? (body.errors as Record<string, unknown>) : null;
  if (!errors) return { fields: {}, general: error instanceof Error ? error.message : String(error) };
  const fields: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    const list = (Array.isArray(messages) ? messages : [messages]).filter((m): m is string => typeof m === 'string' && m !== '');
    if (list.length) (fields[field.replace(/^\$\./, '').toLowerCase()] ??= []).push(...list);
  }
  return { fields, general: null };
}
