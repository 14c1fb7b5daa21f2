import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const signInSettingsQuery = () => apiQueryOptions(calls.auth.signInSettings);

/** GET /api/sign-in-settings: whether 2FA is required for everyone, and self-registration. */
export function useSignInSettings() {
  return useQuery(signInSettingsQuery());
}
