import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/licence/status, for the overview: the licence's licensee, seats and expiry (read only). */
export function useLicenceStatus() {
  return useQuery(apiQueryOptions(calls.licence.status));
}
