import type { contract, Query } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, callApi } from '../../../lib/api-client';

// The outgoing mail queue and the two calls that change it: each refreshes the queue once
// it is done, whether it succeeded or not.

export type MailQueueQuery = NonNullable<Query<typeof contract.email.notifications>>;

export const mailQueueQuery = (query: MailQueueQuery) =>
  apiQueryOptions(calls.email.notifications, { query });

/** GET /api/email/notification: the outgoing queue, newest first, a page at a time. */
export function useMailQueue(query: MailQueueQuery) {
  return useQuery({ ...mailQueueQuery(query), placeholderData: keepPreviousData });
}

/** A call that changes the queue; the queue is asked again when it settles. */
function useQueueMutation<A, R>(mutationFn: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [calls.email.notifications.path] }),
  });
}

export const deleteMailJob = async (id: number) =>
  (await callApi(calls.email.deleteJob, { params: { id } })).data;

/** POST /api/email/job/delete/{id} (409 while it is being sent). */
export function useDeleteMailJob() {
  return useQueueMutation(deleteMailJob);
}

export const sendTestEmail = async (to: string) => (await callApi(calls.email.test, { body: { to } })).data;

/** POST /api/email/test: sends now; a 502 carries the SMTP server's error. It joins the queue. */
export function useSendTestEmail() {
  return useQueueMutation(sendTestEmail);
}
