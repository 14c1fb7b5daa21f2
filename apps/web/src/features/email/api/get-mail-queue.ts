import { contract, type Query } from '@quire/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export type MailQueueQuery = NonNullable<Query<typeof contract.email.notifications>>;

export const mailQueueQuery = (query: MailQueueQuery) =>
  apiQueryOptions(contract.email.notifications, { query });

/** GET /api/email/notification: the outgoing queue, newest first, a page at a time. */
export function useMailQueue(query: MailQueueQuery) {
  return useQuery({ ...mailQueueQuery(query), placeholderData: keepPreviousData });
}
