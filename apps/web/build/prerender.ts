// After `vite build`: renders the sign-in page to HTML (src/prerender-login.tsx, through
// Vite's SSR loader) into a copy of dist/index.html, dist/login.html, with its brotli and gzip
// copies. The server sends it for /login, so the form paints without waiting for JavaScript;
// its script is asked for after that paint (public/after-paint.js).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer } from 'vite';
import { PRELOAD_FILE } from './budget.ts';
import { compressFile } from './compress.ts';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');

const vite = await createServer({
  root,
  configFile: path.join(root, 'vite.config.ts'),
  appType: 'custom',
  logLevel: 'error',
  server: { middlewareMode: true, hmr: false, ws: false },
});
try {
  const { renderLogin } = (await vite.ssrLoadModule('/src/prerender-login.tsx')) as {
    renderLogin: () => Promise<string>;
  };
  const index = await readFile(path.join(dist, 'index.html'), 'utf8');
  const marker = '<div id="root"></div>';
  if (!index.includes(marker)) throw new Error(`dist/index.html has no ${marker}`);
  // React puts the page's <title> where the page renders it; in the static page it belongs
  // in the head, in place of the default one.
  let body = await renderLogin();
  const title = body.match(/<title>[^<]*<\/title>/)?.[0];
  if (title) body = body.replace(title, '');
  // The entry script leaves the head: public/after-paint.js asks for it (and for the chunks
  // the page needs, from .preload.json) once the static page has painted.
  const entry = index.match(/<script type="module" crossorigin src="([^"]+)"><\/script>\n?\s*/);
  if (!entry?.[1]) throw new Error('dist/index.html has no entry <script type="module">');
  const hints = JSON.parse(await readFile(path.join(dist, PRELOAD_FILE), 'utf8')) as Record<string, string[]>;
  const chunks = (hints['/login'] ?? []).filter((file) => file !== entry[1]);
  const loader = `<script src="/after-paint.js" data-main="${entry[1]}" data-preload="${chunks.join(' ')}" defer></script>`;
  const html = (title ? index.replace(/<title>[^<]*<\/title>/, title) : index)
    .replace(entry[0], '')
    .replace(marker, `<div id="root">${body}</div>`)
    .replace('</body>', `  ${loader}\n  </body>`);
  const out = path.join(dist, 'login.html');
  await writeFile(out, html);
  await compressFile(out);
  process.stdout.write(`prerendered /login: dist/login.html (${(html.length / 1000).toFixed(1)} kB)\n`);
} finally {
  await vite.close();
}
