// What a person typed into a page the build rendered to HTML (dist/login.html) before the
// script took over: main.tsx reads it just before React renders over the static page, and
// the page's fields start from it, so nothing typed meanwhile is lost.

let typed = new Map<string, string>();

/** Reads the named fields inside `root`. */
export function captureTyped(root: HTMLElement): void {
  const fields = root.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name], select[name]');
  typed = new Map([...fields].filter((f) => f.value !== '').map((f) => [f.name, f.value]));
}

/** The value typed into field `name` before the script ran, if any. */
export function typedBefore(name: string): string | undefined {
  return typed.get(name);
}

/**
 * Whether Sign in was pressed on the static page before the script ran: public/after-paint.js
 * holds that submit (no plain form post) until the page calls this, which also stops holding.
 */
export function releaseHeldSubmit(): boolean {
  const w = window as { quireReleaseSubmit?: () => boolean };
  return w.quireReleaseSubmit?.() ?? false;
}

/**
 * Hands the static page's <title> over to React's without a moment with no title. React adopts
 * the first <title> in the document unless it has `itemprop`; adopted, the static one is left
 * behind when a later page renders its own, and that page's title is lost. So the static one
 * is marked to be passed over, stays while hydration runs, and goes once React's is in the head.
 */
export function handTitleToReact(): void {
  const staticTitle = document.querySelector('head > title');
  if (!staticTitle) return;
  staticTitle.setAttribute('itemprop', 'name');
  const observer = new MutationObserver(() => {
    if (!document.querySelector('head > title:not([itemprop])')) return;
    staticTitle.remove();
    observer.disconnect();
  });
  observer.observe(document.head, { childList: true });
}
