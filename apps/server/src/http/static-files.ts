import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@kb/contracts/errors';

/**
 * Files whose name carries a content hash: Vite writes every built asset as `assets/<name>-<hash>.<ext>`
 * (the hash is 8 URL-safe characters), so a changed file gets a new name and the old one may be kept
 * by any cache for good. Anything else (index.html, favicon.svg) may change under the same name.
 */
const HASHED_ASSET = /^assets\/[^/]+-[\w-]{8}\.[a-z0-9]+(\.br|\.gz)?$/i;

export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** May be stored, but must be revalidated (a 304 through its ETag) before each use. */
const REVALIDATE_CACHE_CONTROL = 'no-cache';

/** The Cache-Control of a file of the web app, by its path relative to the build's root. */
export function cacheControlFor(relativePath: string): string {
  return HASHED_ASSET.test(relativePath.split(path.sep).join('/')) ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL;
}

/**
 * Serves the built single-page app (apps/web/dist): files as they are, every other non-API GET as
 * index.html. Compression happens at build time (apps/web/vite.config.ts writes `.br` and `.gz`
 * siblings); here the sibling the browser accepts is sent with `Content-Encoding` and the original
 * file's type, else the file itself. Hashed assets are cached for a year, the rest revalidated.
 */
export function registerWebApp(app: FastifyInstance, webDist: string): void {
  const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    app.register(fastifyStatic, {
      root: webDist,
      // Files are looked up per request, so a rebuilt web app is served without a restart; a path
      // with no file falls through to the not-found handler below (the single-page app).
      wildcard: true,
      // Directories (e.g. `/`) are pages of the app, not listings.
      index: false,
      allowedPath: (pathname) => !pathname.endsWith('/'),
      preCompressed: true,
      // Our own header per file below, instead of the default `public, max-age=0`.
      cacheControl: false,
      setHeaders: (response, filePath) => {
        response.setHeader('cache-control', cacheControlFor(path.relative(webDist, filePath)));
        // The answer depends on Accept-Encoding: a shared cache must not give brotli to a client
        // that asked for none.
        response.setHeader('vary', 'accept-encoding');
      },
    });
  }
  app.setNotFoundHandler({ preHandler: undefined }, (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (pathname.startsWith('/api/') || pathname === '/api' || request.method !== 'GET') {
      return reply.code(404).send({ message: `No API call ${request.method} ${pathname}.`, code: ERROR_CODES.notFound });
    }
    // A missing file (an old asset, a favicon) is a 404, not the app's HTML under a script's name.
    if (/\.[a-z0-9]+$/i.test(pathname)) return reply.code(404).type('text/plain').send('Not found');
    if (!hasWeb) return reply.code(503).type('text/plain').send('The web app is not built. Run `npm start`, which builds it.');
    // Every route of the app is this one page; it names the current hashed scripts, so it is
    // revalidated on each visit (setHeaders above gives it `no-cache` too).
    return reply.type('text/html').header('cache-control', REVALIDATE_CACHE_CONTROL).sendFile('index.html');
  });
}
