import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** GET /account/resend-verification/{email}: sends the verification link again. */
export const resendVerification = async (email: string) =>
  await callApi(calls.auth.resendVerification, { params: { email } });

export function useResendVerification() {
  return useMutation({
    mutationKey: [calls.auth.resendVerification.path],
    mutationFn: resendVerification,
  });
}
