// The colour theme: the person's choice (System, Light or Dark, stored on the device), applied
// as <html data-theme="light|dark">, which styles.css turns into its colours. index.html runs
// the same resolution inline before the first paint; this module keeps it up to date after.
import { useSyncExternalStore } from 'react';
import { getThemeChoice, setThemeChoice, type ThemeChoice } from './storage';

export type { ThemeChoice };

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The system's preference (light where the browser cannot say). */
function systemQuery(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
}

/** The theme a choice shows now: System follows the operating system's setting. */
export function resolveTheme(choice: ThemeChoice): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return systemQuery()?.matches ? 'dark' : 'light';
}

function paint(choice: ThemeChoice) {
  document.documentElement.dataset.theme = resolveTheme(choice);
}

const listeners = new Set<() => void>();
let stopFollowing: (() => void) | null = null;

/** While the choice is System, a change of the system's setting repaints at once. */
function follow(choice: ThemeChoice) {
  stopFollowing?.();
  stopFollowing = null;
  const query = choice === 'system' ? systemQuery() : null;
  if (!query) return;
  const onChange = () => paint('system');
  query.addEventListener('change', onChange);
  stopFollowing = () => query.removeEventListener('change', onChange);
}

/** Applies the stored choice (at start-up). */
export function applyStoredTheme() {
  const choice = getThemeChoice();
  paint(choice);
  follow(choice);
}

/** Stores and applies a choice. */
export function chooseTheme(choice: ThemeChoice) {
  setThemeChoice(choice);
  paint(choice);
  follow(choice);
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => getThemeChoice();

/** The current choice and a function to change it. */
export function useThemeChoice(): [ThemeChoice, (choice: ThemeChoice) => void] {
  return [useSyncExternalStore(subscribe, snapshot), chooseTheme];
}
