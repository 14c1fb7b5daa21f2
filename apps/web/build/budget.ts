// The first-load budget and preload hints.
//
// The first-load budget: the JavaScript a browser needs to show /login (the entry chunk, the
// sign-in page's chunk and every chunk they import statically), gzip-compressed, must stay
// within INITIAL_JS_BUDGET (100 KiB, issue 25). A build over it fails, naming the chunks.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

export const INITIAL_JS_BUDGET = 100 * 1024;

interface ChunkInfo {
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
  facadeModuleId: string | null;
  moduleIds: string[];
}

/** The chunks loaded up front: the entry's, and (given one) a route module's static imports. */
export function initialChunks(chunks: ChunkInfo[], routeModule: RegExp | null): ChunkInfo[] {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const isRoute = (c: ChunkInfo) =>
    routeModule !== null && c.facadeModuleId !== null && routeModule.test(c.facadeModuleId);
  const roots = chunks.filter((c) => c.isEntry || isRoute(c));
  if (routeModule && !roots.some(isRoute)) throw new Error(`No chunk for the route module ${routeModule}`);
  const seen = new Set<string>();
  const visit = (chunk: ChunkInfo) => {
    if (seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    for (const name of chunk.imports) {
      const next = byName.get(name);
      if (next) visit(next);
    }
  };
  roots.forEach(visit);
  return [...seen].map((name) => byName.get(name)!);
}

export const gzipSize = (code: string) => gzipSync(code, { level: 9 }).length;

/** Vite plugin: checks the /login budget when the bundle is written. */
export function loginBudget(budget = INITIAL_JS_BUDGET): Plugin {
  return {
    name: 'quire:login-budget',
    apply: 'build',
    writeBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((o): o is typeof o & ChunkInfo => o.type === 'chunk');
      const initial = initialChunks(chunks, /features[\\/]auth[\\/]routes[\\/]login\.tsx$/);
      const sizes = initial.map((c) => ({ file: c.fileName, gzip: gzipSize(c.code) }));
      const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
      const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
      const lines = sizes
        .sort((a, b) => b.gzip - a.gzip)
        .map((s) => `  ${kb(s.gzip).padStart(9)}  ${s.file}`);
      const verdict = `initial JS for /login: ${kb(total)} gzip (budget ${kb(budget)})`;
      if (total > budget) this.error(`${verdict}: over budget\n${lines.join('\n')}`);
      this.info(`${verdict}\n${lines.join('\n')}`);
    },
  };
}

/** The layout around every signed-in page (app/router.tsx), a chunk of its own. */
const SIGNED_IN = String.raw`app[\\/]signed-in-layout\.tsx`;

/**
 * The pages people arrive on from outside, and their route modules: the public pages, and the
 * homes a sign-in lands on (the staff dashboard, the Company Admin's categories) with the
 * signed-in layout around them.
 */
const ENTRY_PAGES: Record<string, RegExp> = {
  '/': /features[\\/]landing[\\/]routes[\\/]home\.tsx$/,
  '/dashboard': new RegExp(String.raw`(app[\\/]routes[\\/]dashboard\.tsx|${SIGNED_IN})$`),
  '/admin/category': new RegExp(
    String.raw`(features[\\/]category[\\/]routes[\\/]category-home\.tsx|${SIGNED_IN})$`,
  ),
  '/login': /features[\\/]auth[\\/]routes[\\/]login\.tsx$/,
  '/register': /features[\\/]auth[\\/]routes[\\/]register\.tsx$/,
  '/forgot-password': /features[\\/]auth[\\/]routes[\\/]forgot-password\.tsx$/,
  '/reset-password': /features[\\/]auth[\\/]routes[\\/]reset-password\.tsx$/,
  '/verify-email': /features[\\/]auth[\\/]routes[\\/]verify-email\.tsx$/,
};

/** The module that creates the query client, and the pages that load without it (app/router.tsx). */
const QUERY_CLIENT_MODULE = /lib[\\/]query-client\.ts$/;
const PAGES_WITHOUT_QUERIES = new Set(['/login']);

export const PRELOAD_FILE = '.preload.json';

/**
 * Pages that load no zod up front: the sign-in page and the signed-in homes (zod and the
 * contract's schemas come with the forms that validate, when first opened; API calls go
 * through the zod-free calls table). The build fails when one of their chunks holds zod,
 * naming the chunk.
 */
const ZOD_FREE_PAGES = ['/login', '/dashboard', '/admin/category'];
const ZOD_MODULE = /[\\/]node_modules[\\/](?:\.pnpm[\\/][^\\/]+[\\/]node_modules[\\/])?zod[\\/]/;

/**
 * Vite plugin: writes `dist/.preload.json`, the chunks of each page people arrive on (beyond
 * the entry's own), so that the server can send them as `Link: rel=modulepreload` with
 * index.html and the browser fetches them with the entry rather than after it.
 */
export function preloadHints(): Plugin {
  return {
    name: 'quire:preload-hints',
    apply: 'build',
    writeBundle(options, bundle) {
      const chunks = Object.values(bundle).filter((o): o is typeof o & ChunkInfo => o.type === 'chunk');
      // The entry's chunks first (the browser then asks for them before the page's own).
      const entry = initialChunks(chunks, null).map((c) => c.fileName);
      const ownChunks = (module: RegExp) =>
        initialChunks(chunks, module)
          .map((c) => c.fileName)
          .filter((file) => !entry.includes(file));
      // Every page but the sign-in page loads with the app's query client (app/lazy-page.tsx).
      const queries = ownChunks(QUERY_CLIENT_MODULE);
      const hints: Record<string, string[]> = {};
      for (const [page, module] of Object.entries(ENTRY_PAGES)) {
        const own = ownChunks(module);
        if (ZOD_FREE_PAGES.includes(page)) {
          const withZod = [...entry, ...own]
            .map((file) => chunks.find((c) => c.fileName === file)!)
            .filter((c) => c.moduleIds.some((id) => ZOD_MODULE.test(id)));
          if (withZod.length)
            this.error(
              `${page} loads zod up front (${withZod.map((c) => c.fileName).join(', ')}): import types, calls (@quire/contract/calls) or a zod-free module of the contract`,
            );
        }
        if (!PAGES_WITHOUT_QUERIES.has(page)) own.push(...queries.filter((file) => !own.includes(file)));
        hints[page] = [...entry, ...own].map((file) => `/${file}`);
      }
      writeFileSync(path.join(options.dir ?? 'dist', PRELOAD_FILE), `${JSON.stringify(hints, null, 2)}\n`);
    },
  };
}
