import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const emailSetupQuery = () => apiQueryOptions(calls.email.setup);

/** GET /api/email_setup: the saved SMTP settings (never the password), or null. */
export function useEmailSetup() {
  return useQuery(emailSetupQuery());
}
