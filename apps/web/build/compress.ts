// Pre-compresses the built files (brotli and gzip) next to them, so that the server sends
// `x.js.br` or `x.js.gz` to a browser that accepts it without compressing on every request
// (@fastify/static's `preCompressed`). Files that do not shrink enough are left alone.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
/** Below this, the headers cost more than the bytes saved. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

export async function compressDir(dir: string): Promise<number> {
  let count = 0;
  for await (const file of files(dir)) if (await compressFile(file)) count++;
  return count;
}

/** Writes `file.br` and `file.gz` beside a compressible file; false when it is not worth it. */
export async function compressFile(file: string): Promise<boolean> {
  if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) return false;
  const content = await readFile(file);
  const [br, gzipped] = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gz(content, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  // Only worth serving when it saves a tenth or more.
  if (br.length < content.length * 0.9) await writeFile(`${file}.br`, br);
  if (gzipped.length < content.length * 0.9) await writeFile(`${file}.gz`, gzipped);
  return true;
}

/** Vite plugin: compress the output folder once the bundle is written. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'quire:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await compressDir(outDir);
    },
  };
}
