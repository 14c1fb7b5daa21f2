// The first-load budget: the JavaScript a browser needs to show /login (the entry chunk, the
// sign-in page's chunk and every chunk they import statically), gzip-compressed, must stay
// within INITIAL_JS_BUDGET. A build over it fails, naming the chunks.
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

export const INITIAL_JS_BUDGET = 120 * 1000;

interface ChunkInfo {
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
  facadeModuleId: string | null;
}

/** The chunks loaded up front for a page: its entry's and its route module's static imports. */
export function initialChunks(chunks: ChunkInfo[], routeModule: RegExp): ChunkInfo[] {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const roots = chunks.filter((c) => c.isEntry || (c.facadeModuleId && routeModule.test(c.facadeModuleId)));
  if (!roots.some((c) => !c.isEntry)) throw new Error(`No chunk for the route module ${routeModule}`);
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
      const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
      const lines = sizes
        .sort((a, b) => b.gzip - a.gzip)
        .map((s) => `  ${kb(s.gzip).padStart(9)}  ${s.file}`);
      const verdict = `initial JS for /login: ${kb(total)} gzip (budget ${kb(budget)})`;
      if (total > budget) this.error(`${verdict}: over budget\n${lines.join('\n')}`);
      this.info(`${verdict}\n${lines.join('\n')}`);
    },
  };
}
