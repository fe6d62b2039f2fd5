/** Failures of the AniDB HTTP client; `code` is the `code` attribute of AniDB's `<error>` reply when it had one. */
export class AniDBHttpError extends Error {
  constructor(
    message: string,
    readonly code: number | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** AniDB answered "banned", or an earlier ban has not run out yet; no HTTP requests until it has. */
export class AniDBHttpBannedError extends AniDBHttpError {}

/** `<error>Anime not found</error>`: AniDB has no anime with this id. */
export class AniDBAnimeNotFoundError extends AniDBHttpError {}

/** AniDB refused this client (`302 client version missing or invalid`, `Client Values Missing or Invalid`). */
export class AniDBHttpClientRejectedError extends AniDBHttpError {}

/** Network failure, timeout or a non-2xx status, after the retry. */
export class AniDBHttpRequestError extends AniDBHttpError {}

/** The body is not an anime record: no `<anime id>` root, no main title, or not XML at all. */
export class AniDBInvalidAnimeXmlError extends AniDBHttpError {}

/** The anime was requested less than a day ago and no cached copy can be served: AniDB is not asked again yet. */
export class AniDBAnimeTooSoonError extends AniDBHttpError {}
