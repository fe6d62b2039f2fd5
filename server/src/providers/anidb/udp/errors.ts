/** Failures of the AniDB UDP client; `code` is AniDB's reply code when one was received. */
export class AniDBUdpError extends Error {
  constructor(
    message: string,
    readonly code: number | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 555 BANNED or an all-zero reply: no UDP traffic until the ban pause is over. */
export class AniDBBannedError extends AniDBUdpError {}

/** 6xx: AniDB is down or overloaded; traffic pauses for a few minutes. */
export class AniDBServerBusyError extends AniDBUdpError {}

/** No reply, retries included. AniDB silently drops packets over its rate limit, so do not hammer it. */
export class AniDBTimeoutError extends AniDBUdpError {}

/** 500 LOGIN FAILED, or no credentials: the user has to fix them before we try again. */
export class AniDBLoginFailedError extends AniDBUdpError {}

/** 503 CLIENT VERSION OUTDATED / 504 CLIENT BANNED: this client build must be updated, retrying is pointless. */
export class AniDBClientRejectedError extends AniDBUdpError {}

/** 502 ACCESS DENIED / 505 ILLEGAL INPUT OR ACCESS DENIED: this exact command must not be resent. */
export class AniDBAccessDeniedError extends AniDBUdpError {}

/** The session was refused again right after a fresh login (501/506/598 twice in a row). */
export class AniDBSessionError extends AniDBUdpError {}
