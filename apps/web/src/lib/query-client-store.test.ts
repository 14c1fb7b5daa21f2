import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { loadedQueryClient, loadQueryClient, provideQueryClient } from './query-client-store';

describe("the app's query client", () => {
  it('does not exist until a page asks for it, then is created once and shared', async () => {
    expect(loadedQueryClient()).toBeUndefined();
    const [first, second] = await Promise.all([loadQueryClient(), loadQueryClient()]);
    expect(second).toBe(first);
    expect(await loadQueryClient()).toBe(first);
    expect(loadedQueryClient()).toBe(first);
    // The app's defaults (lib/query-client.ts), not TanStack Query's.
    expect(first.getDefaultOptions().queries?.staleTime).toBe(30_000);
    first.unmount();
  });

  it('is the one provided from then on', async () => {
    const provided = new QueryClient();
    provideQueryClient(provided);
    expect(loadedQueryClient()).toBe(provided);
    expect(await loadQueryClient()).toBe(provided);
  });
});
