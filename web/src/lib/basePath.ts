/**
 * Where the console and its server live. The server writes `<base href="<prefix>/webui/">` into index.html — `/webui/`
 * at the root, `/shoko/webui/` behind a reverse proxy serving it under `/shoko` — so one build works under any prefix:
 * the router's basename is that path, and the server's own routes (`/api`, `/signalr`, `/plex`) sit next to `/webui`
 * under the same prefix. Without the tag (unit tests) everything is at the root.
 */
export function serverPrefixFrom(baseHref: string | null | undefined): string {
  const match = /^(\/[^?#]*?)?\/webui\/?$/i.exec(baseHref ?? '');
  return match?.[1] ?? '';
}

const SERVER_PREFIX = serverPrefixFrom(typeof document === 'undefined' ? null : document.querySelector('base')?.getAttribute('href'));

/** The router's basename: `/webui`, or `/shoko/webui` under a prefix. */
export const CONSOLE_BASENAME = `${SERVER_PREFIX}/webui`;

/** A server path (`/api/v3/…`, `/signalr/…`) as the browser must request it. */
export const serverUrl = (path: string): string => `${SERVER_PREFIX}${path}`;
