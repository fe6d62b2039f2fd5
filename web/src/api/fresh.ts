/**
 * How long an answer counts as fresh for the queries a route loader asks for ahead of its page (app/landing.ts): the
 * page mounting a moment later uses it instead of asking again. Changes the server announces still refetch at once.
 */
export const PREFETCHED_FRESH_MS = 5_000;
