import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/get_recipient: the users and groups a step can be assigned to or tell. */
export function useRecipients() {
  return useQuery({ ...apiQueryOptions(calls.workflow.getRecipient), staleTime: 60_000 });
}
