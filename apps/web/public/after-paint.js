// The sign-in page's loader (dist/login.html, build/prerender.ts). The page arrives as HTML
// and paints without JavaScript; its script and the chunks it needs are asked for only once
// that first paint is on screen, so that they do not compete with it on a slow connection.
// `data-main` is the entry module, `data-preload` the chunks it will import.
(() => {
  // A Sign in pressed before the page is ready is held, not sent as a plain form post; the
  // page does it once it has taken over (releaseHeldSubmit in src/lib/prerendered.ts).
  let held = false;
  const hold = (event) => {
    event.preventDefault();
    event.stopPropagation();
    held = true;
  };
  document.addEventListener('submit', hold, true);
  window.quireReleaseSubmit = () => {
    document.removeEventListener('submit', hold, true);
    const was = held;
    held = false;
    return was;
  };
  const tag = document.currentScript;
  if (!tag) return;
  const main = tag.dataset.main;
  const preload = (tag.dataset.preload || '').split(' ').filter(Boolean);
  const start = () => {
    for (const href of preload) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = main;
    document.head.append(script);
  };
  // After the frame that paints the page: requestAnimationFrame runs before that paint,
  // the timeout after it.
  requestAnimationFrame(() => setTimeout(start, 0));
})();
