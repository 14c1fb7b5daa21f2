import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/user_fields/users: the active people a `user` field can name. */
export function useFieldUsers(enabled: boolean) {
  return useQuery({ ...apiQueryOptions(contract.metadata.fieldUsers), enabled, staleTime: 60_000 });
}
