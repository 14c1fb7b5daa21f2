// The app's one TanStack Query client, created when the first page that needs it loads.
// The sign-in page does without it, so TanStack Query's core (about 10 kB gzip) is not part of
// /login's first load: app/lazy-page.tsx waits for `loadQueryClient()` beside every other page's
// chunk and hands the client to that page.
import type { QueryClient } from '@tanstack/react-query';

let current: QueryClient | undefined;
let loading: Promise<QueryClient> | undefined;

/** The client, once created (or provided); undefined before the first page that needs it. */
export function loadedQueryClient(): QueryClient | undefined {
  return current;
}

/** Creates the client on first call (its module is a chunk of its own); later calls share it. */
export function loadQueryClient(): Promise<QueryClient> {
  loading ??= import('./query-client').then(({ createQueryClient }) => {
    const client = createQueryClient();
    // Lives as long as the page: listens for focus and going back online once, for good.
    client.mount();
    current = client;
    return client;
  });
  return loading;
}

/** Uses `client` from now on (tests give theirs, with their own options). */
export function provideQueryClient(client: QueryClient): void {
  current = client;
  loading = Promise.resolve(client);
}
