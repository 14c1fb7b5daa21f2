import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, isNotAuthenticated } from './api-error';
import { announceSessionEnded } from './session-events';

const onError = (error: unknown) => {
  if (isNotAuthenticated(error)) announceSessionEnded();
};

/**
 * Refusals (4xx) are answers, not hiccups: retry only network failures and 5xx, once (never
 * in tests). A 401 from any call ends the session on the spot.
 */
export function createQueryClient({ retry = true }: { retry?: boolean } = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: retry
          ? (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 1
          : false,
      },
      mutations: { retry: false },
    },
  });
}
