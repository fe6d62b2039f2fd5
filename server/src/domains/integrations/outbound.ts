/** A reply from Trakt or Plex: status and raw text (parsed by the caller, which knows the format). */
export interface OutboundReply {
  status: number;
  text: string;
  /** The `Retry-After` header (seconds or an HTTP date) when there was one. */
  retryAfter?: string;
}

/** Base URLs of the services, overridable so tests and the demo point at the loopback fakes. */
export function serviceUrl(variable: string, fallback: string, env: NodeJS.ProcessEnv = process.env): string {
  return (env[variable]?.trim() || fallback).replace(/\/+$/, '');
}

/** One HTTP request with a deadline; network failures and timeouts throw (the message names the host, never a token). */
export async function send(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; timeoutMs: number },
): Promise<OutboundReply> {
  try {
    const response = await fetch(url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(init.timeoutMs),
    });
    return { status: response.status, text: await response.text(), retryAfter: response.headers.get('retry-after') ?? undefined };
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${init.timeoutMs} ms`
        : error instanceof Error
          ? ((error.cause as Error | undefined)?.message ?? error.message)
          : String(error);
    throw new Error(`${init.method} ${new URL(url).host}${new URL(url).pathname} failed: ${reason}`);
  }
}
