import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { loginBudget, preloadHints } from './build/budget.ts';
import { precompress } from './build/compress.ts';

// The API answers these prefixes; in development they go to the API server, in production
// the API serves this build from the same origin.
const apiTarget = 'http://127.0.0.1:3000';
const apiProxy = Object.fromEntries(
  ['/api', '/account', '/user', '/v1'].map((prefix) => [
    // `^/user(/|$)` rather than `/user`, so a page such as /users stays with the client.
    `^${prefix}(/|$)`,
    { target: apiTarget, changeOrigin: false },
  ]),
);

/** `.test.ts` files that need a browser (localStorage, window): the rest run in plain Node. */
const DOM_TESTS = [
  'src/lib/storage.test.ts',
  'src/lib/error-reporting.test.ts',
  'src/lib/api-client.test.ts',
  'src/lib/upload.test.ts',
];

export default defineConfig({
  plugins: [react(), loginBudget(), preloadHints(), precompress()],
  resolve: {
    alias: {
      // The contract's access table has no zod in it: the first chunk (the router, the sign-in
      // page) imports it from here, so that zod and the schemas load only with the pages that
      // validate with them. tsconfig.json's `paths` says the same to TypeScript.
      '@quire/contract/access': path.resolve(import.meta.dirname, '../../packages/contract/src/access.ts'),
    },
  },
  server: { port: 5173, proxy: apiProxy },
  preview: { proxy: apiProxy },
  // No source maps: nothing of the source is served in production.
  build: { outDir: 'dist', sourcemap: false },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'logic',
          // Pure logic: no DOM, so no jsdom to set up per file.
          environment: 'node',
          include: ['src/**/*.test.ts'],
          exclude: DOM_TESTS,
          restoreMocks: true,
          unstubGlobals: true,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx', ...DOM_TESTS],
          setupFiles: ['./src/testing/setup.ts'],
          // A whole form typed key by key takes seconds on a shared 2-core machine, and more
          // than 15 s at a load of 15 (a clean-clone run beside other work timed one out).
          testTimeout: 30_000,
          // One jsdom and one module graph per worker, not per file: most of the run was
          // setting up jsdom and importing React, React Aria and the pages again for each
          // file. Tests leave nothing behind (setup.ts cleans the DOM and storage; stubs are
          // restored).
          isolate: false,
          restoreMocks: true,
          unstubGlobals: true,
        },
      },
    ],
  },
});
