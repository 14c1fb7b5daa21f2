import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Paths that belong to the API: never answered with the web client's HTML. */
export const API_PREFIXES = ['/api/', '/account/', '/user/', '/v1/'];

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return API_PREFIXES.some((p) => pathname.startsWith(p) || pathname === p.slice(0, -1));
}

/** Serves the built web client's files. Returns false when it is not built. */
export async function registerWeb(app: FastifyInstance, webDist: string): Promise<boolean> {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    app.log.warn({ webDist }, 'web client is not built: run `pnpm build`');
    return false;
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    setHeaders: (res, filePath) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
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
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ message: `No such call: ${req.method} ${pathname}`, code: 'not_found' });
  };
}
