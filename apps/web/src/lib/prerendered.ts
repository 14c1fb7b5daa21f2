// What a person typed into a page the build rendered to HTML (dist/login.html) before the
// script took over: main.tsx reads it just before React renders over the static page, and
// the page's fields start from it, so nothing typed meanwhile is lost.

let typed = new Map<string, string>();
let focused: string | null = null;

/** Reads the named fields inside `root` (and which one has the focus). */
export function captureTyped(root: HTMLElement): void {
  const fields = root.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name], select[name]');
  typed = new Map([...fields].filter((f) => f.value !== '').map((f) => [f.name, f.value]));
  const active = document.activeElement;
  focused = active instanceof HTMLElement && root.contains(active) ? active.getAttribute('name') : null;
}

/** The value typed into field `name` before the script ran, if any. */
export function typedBefore(name: string): string | undefined {
  return typed.get(name);
}

/** The field that had the focus before the script ran, if any. */
export function focusedBefore(): string | null {
  return focused;
}
