import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Paths that belong to the API: never answered with the web client's HTML. */
export const API_PREFIXES = ['/api/', '/account/', '/user/', '/v1/'];

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return API_PREFIXES.some((p) => pathname.startsWith(p) || pathname === p.slice(0, -1));
}

/**
 * The build's `.preload.json`: for the pages people arrive on, the chunks beyond the entry
 * that the page needs. Sent as `Link: rel=modulepreload` with index.html, so that the browser
 * fetches them alongside the entry rather than after it has run.
 */
const preloadLinks = new WeakMap<FastifyInstance, Map<string, string>>();

/**
 * Pages the build rendered to HTML (apps/web/build/prerender.ts): sent instead of index.html
 * for their path, so that they paint before the JavaScript has arrived.
 */
const PRERENDERED: Record<string, string> = { '/login': 'login.html' };
const prerendered = new WeakMap<FastifyInstance, Map<string, string>>();

function readPreloadLinks(webDist: string): Map<string, string> {
  try {
    const hints = JSON.parse(readFileSync(path.join(webDist, '.preload.json'), 'utf8')) as Record<
      string,
      string[]
    >;
    return new Map(
      Object.entries(hints).map(([page, files]) => [
        page,
        files.map((file) => `<${file}>; rel=modulepreload; crossorigin`).join(', '),
      ]),
    );
  } catch {
    return new Map();
  }
}

/** Cache-Control of a built file: hashed assets never change; the rest is checked each time. */
export function cacheControlFor(filePath: string): string {
  return filePath.includes(`${path.sep}assets${path.sep}`)
    ? 'public, max-age=31536000, immutable'
    : 'no-cache';
}

/**
 * Serves the built web client's files: the brotli or gzip copy made at build time when the
 * browser accepts it (`preCompressed`), hashed assets cached for good, everything else
 * revalidated. Source maps are never served. Returns false when the client is not built.
 */
export async function registerWeb(app: FastifyInstance, webDist: string): Promise<boolean> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    app.log.warn({ webDist }, 'web client is not built: run `pnpm build`');
    return false;
  }
  preloadLinks.set(app, readPreloadLinks(webDist));
  prerendered.set(
    app,
    new Map(Object.entries(PRERENDERED).filter(([, file]) => existsSync(path.join(webDist, file)))),
  );
  await app.register(fastifyStatic, {
    root: webDist,
    // One route for all the files, each looked up on disk when asked for; one that is not
    // there goes to the not-found handler (notFoundHandler). `wildcard: false` read the whole
    // folder at start and made routes for each file (about 0.2 s of a start, measured).
    wildcard: true,
    index: false,
    preCompressed: true,
    // Only what the build put there: no `.map`, no dotfiles. A folder ('/', '/assets/') is
    // no file: it falls to the not-found handler, which answers it as a page.
    allowedPath: (pathname) =>
      !pathname.endsWith('/') &&
      !pathname.endsWith('.map') &&
      !pathname.split('/').some((p) => p.startsWith('.')),
    setHeaders: (res, filePath) => {
      res.header('cache-control', cacheControlFor(filePath));
    },
  });
  return true;
}

/** Unknown paths: index.html for a page of the web client (SPA fallback), else a JSON 404. */
export function notFoundHandler(serveIndex: boolean) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (
      serveIndex &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      !isApiPath(pathname) &&
      !path.extname(pathname)
    ) {
      const prerenderedPage = prerendered.get(req.server)?.get(pathname);
      // A prerendered page asks for its chunks itself, once it has painted (after-paint.js).
      const links = prerenderedPage ? undefined : preloadLinks.get(req.server)?.get(pathname);
      if (links) reply.header('link', links);
      return reply.header('cache-control', 'no-cache').sendFile(prerenderedPage ?? 'index.html');
    }
    return reply.status(404).send({ message: `No such call: ${req.method} ${pathname}`, code: 'not_found' });
  };
}
