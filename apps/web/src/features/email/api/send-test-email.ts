import { contract } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export const sendTestEmail = async (to: string) =>
  (await callApi(contract.email.test, { body: { to } })).data;

/** POST /api/email/test: sends now; a 502 carries the SMTP server's error. It joins the queue. */
export function useSendTestEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTestEmail,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [contract.email.notifications.path] }),
  });
}
