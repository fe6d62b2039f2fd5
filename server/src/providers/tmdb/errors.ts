/**
 * Failures of the TMDB client. `httpStatus` is the HTTP status (null when no answer arrived); `tmdbStatusCode` and the
 * message come from TMDB's error body (`status_code` / `status_message`) when it sent one.
 */
export class TmdbError extends Error {
  constructor(
    message: string,
    readonly httpStatus: number | null = null,
    readonly tmdbStatusCode: number | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 401: the API key is missing, wrong or revoked (TMDB status_code 7). Retrying cannot help until the key changes. */
export class TmdbAuthError extends TmdbError {}

/** 404: the id does not exist on TMDB (status_code 34). Callers treat it as "not found", not as a failed job. */
export class TmdbNotFoundError extends TmdbError {}

/** 429 still answered after every allowed wait (status_code 25). The caller's job may be retried later. */
export class TmdbRateLimitError extends TmdbError {}

/** No usable answer: connection failure or timeout, retries included. */
export class TmdbNetworkError extends TmdbError {}
