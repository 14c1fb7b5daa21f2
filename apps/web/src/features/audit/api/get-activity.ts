import type { TAuditActivityQuery } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/audits/activity: a page of the trail, newest first, filtered. */
export function useAuditActivity(query: TAuditActivityQuery) {
  return useQuery({
    ...apiQueryOptions(calls.audit.activity, { query }),
    placeholderData: keepPreviousData,
  });
}
