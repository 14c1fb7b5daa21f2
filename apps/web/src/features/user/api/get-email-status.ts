import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/email_setup, for the overview: whether outgoing e-mail is configured. */
export function useEmailSetupStatus() {
  return useQuery(apiQueryOptions(calls.email.setup));
}

/** GET /api/email/notification?status=failed&quantity=1, for the overview: how many failed. */
export function useFailedMailCount() {
  return useQuery(apiQueryOptions(calls.email.notifications, { query: { status: 'failed', quantity: 1 } }));
}
