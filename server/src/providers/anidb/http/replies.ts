import { AniDBAnimeNotFoundError, AniDBHttpClientRejectedError, AniDBHttpError } from './errors.js';
import { decodeEntities } from './xml-nodes.js';

/** AniDB's ban reply (`<error>Banned</error>`, `<error code="500">banned</error>`), whatever the HTTP status. */
export function isBannedReply(body: string): boolean {
  return />\s*banned\s*</i.test(body);
}

const ERROR_REPLY = /^\s*(?:<\?xml[^>]*\?>\s*)?<error\b([^>]*)>([\s\S]*?)<\/error>/i;

/** The `<error>` reply AniDB sends with HTTP 200 instead of data, or null when the body is something else. */
export function errorReply(body: string): { code: number | null; message: string } | null {
  const match = body.match(ERROR_REPLY);
  if (!match) return null;
  const code = match[1].match(/\bcode\s*=\s*["'](\d+)["']/i)?.[1];
  return { code: code ? Number(code) : null, message: decodeEntities(match[2]).trim() };
}

export function errorFromReply(reply: { code: number | null; message: string }, animeId: number): AniDBHttpError {
  const text = reply.code === null ? reply.message : `${reply.code} ${reply.message}`;
  if (/not found/i.test(reply.message)) return new AniDBAnimeNotFoundError(`AniDB has no anime ${animeId}`, reply.code);
  if (reply.code === 302 || /client/i.test(reply.message))
    return new AniDBHttpClientRejectedError(`AniDB rejected this client: ${text}`, reply.code);
  return new AniDBHttpError(`AniDB refused the request for anime ${animeId}: ${text}`, reply.code);
}
