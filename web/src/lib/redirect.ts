/** `/login` with `redirectTo` holding the encoded path, search and hash; no parameter for the root. */
export function loginPathFor(location: { pathname: string; search: string; hash: string }): string {
  const target = `${location.pathname}${location.search}${location.hash}`;
  if (location.pathname === '/' || location.pathname === '') return '/login';
  return `/login?redirectTo=${encodeURIComponent(target)}`;
}

/**
 * Where to go after login: the redirectTo value when it is a path inside the console (never another origin),
 * otherwise the console root. Paths are relative to /webui; a full /webui/… path is accepted too.
 */
export function safeRedirectTarget(redirectTo: string | null): string {
  if (!redirectTo || !redirectTo.startsWith('/') || redirectTo.startsWith('//') || redirectTo.includes('\\')) return '/';
  if (redirectTo === '/webui') return '/';
  if (redirectTo.startsWith('/webui/')) return redirectTo.slice('/webui'.length);
  return redirectTo;
}
