import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/user_fields/users: the active people a `user` field can name. */
export function useFieldUsers(enabled: boolean) {
  return useQuery({ ...apiQueryOptions(calls.metadata.fieldUsers), enabled, staleTime: 60_000 });
}
