import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  plugins: [react()],
  server: { port: 5173, proxy: apiProxy },
  preview: { proxy: apiProxy },
  build: { outDir: 'dist', sourcemap: true },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/testing/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
