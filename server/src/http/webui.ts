import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './types.js';

const NO_CACHE = { 'cache-control': 'no-cache, no-store, must-revalidate', expires: '0' };

const BASE_ELEMENT = /<base\s[^>]*>/i;

/** A year, never revalidated: a built asset's name carries a hash of its content, so a new build has new names. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * What a build names with a content hash: `assets/<name>-<8 or more hash characters>.<ext>` (Vite's default), and the
 * `.br`/`.gz` variants the build writes beside it.
 */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+(\.br|\.gz)?$/i;

/**
 * Cache-Control for a file of the console: hashed assets for good, anything else (version.json, the favicon, files
 * a build does not rename) revalidated on every use, so an update of the console in place shows at once.
 */
export function consoleAssetCacheControl(filePath: string): string {
  return HASHED_ASSET.test(filePath) ? IMMUTABLE : 'no-cache';
}

/**
 * index.html tells the console where it lives with `<base href="<prefix>/webui/">`: its assets are addressed
 * relative to it, and it derives the router's basename and the API's address from it, so one build serves any
 * base path. The tag is replaced (or added after `<head>`) for every request, as the prefix may come per proxy.
 */
export function withConsoleBase(html: string, publicPrefix: string): string {
  // The prefix is a normalised path (base-path.ts): nothing in it needs escaping.
  const element = `<base href="${publicPrefix}/webui/" />`;
  return BASE_ELEMENT.test(html) ? html.replace(BASE_ELEMENT, element) : html.replace(/<head[^>]*>/i, (head) => `${head}${element}`);
}

/**
 * The built console at /webui: static assets, `/` and `/index.html` → `/webui`, `/webui/index.html` → `/webui`,
 * and index.html for every other path under /webui so deep links work.
 */
export async function registerWebUI(app: App, webuiDir: string | null) {
  const root = '/webui';
  const redirect = (request: FastifyRequest, reply: FastifyReply) => reply.redirect(`${request.publicPrefix}${root}`, 302);
  for (const url of ['/', '/index.html', `${root}/index.html`]) {
    app.get(url, { config: { auth: 'none', initFriendly: true }, schema: { hide: true } }, redirect);
  }

  const indexFile = webuiDir ? path.join(webuiDir, 'index.html') : null;
  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!indexFile || !fs.existsSync(indexFile)) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web console is not built. Run `npm start` (or `npm run build -w web`) from the repository root.');
    }
    return reply
      .headers(NO_CACHE)
      .type('text/html; charset=utf-8')
      .send(withConsoleBase(await fs.promises.readFile(indexFile, 'utf8'), request.publicPrefix));
  };

  if (webuiDir && fs.existsSync(webuiDir)) {
    await app.register(fastifyStatic, {
      root: webuiDir,
      prefix: `${root}/`,
      index: false,
      decorateReply: false,
      // The build writes `<asset>.br` and `<asset>.gz` beside its scripts and styles: a browser that accepts one of
      // the encodings gets it (Vary: Accept-Encoding), anyone else the file as it is.
      preCompressed: true,
      // Nothing the build keeps in a dot-folder (its manifest in .vite/) is the console's to serve.
      dotfiles: 'ignore',
      // Set per file below; ETags and Last-Modified (on by default) answer revalidations with 304.
      cacheControl: false,
      setHeaders: (reply, filePath) => reply.header('cache-control', consoleAssetCacheControl(filePath)),
    });
  }

  app.get(root, { config: { auth: 'none', initFriendly: true }, schema: { hide: true } }, (request, reply) => sendIndex(request, reply));
  return {
    /** For the app's not-found handler: console routes get index.html; missing assets stay 404. */
    async serveConsoleRoute(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
      const pathname = request.url.split('?')[0]!.toLowerCase();
      if (!pathname.startsWith(`${root}/`)) return false;
      if (/\.[a-z0-9]{1,8}$/i.test(pathname) && !pathname.endsWith('.html')) return false;
      await sendIndex(request, reply);
      return true;
    },
  };
}
