import { contract } from '@quire/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** GET /account/resend-verification/{email}: sends the verification link again. */
export const resendVerification = async (email: string) =>
  await callApi(contract.auth.resendVerification, { params: { email } });

export function useResendVerification() {
  return useMutation({
    mutationKey: [contract.auth.resendVerification.path],
    mutationFn: resendVerification,
  });
}
