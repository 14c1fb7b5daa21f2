import { calls } from '@quire/contract/calls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiQueryOptions, callApi } from '../../../lib/api-client';

// The person's notifications: a page of them, one marked read, all cleared. Each change
// refreshes every page of the list, the bell's included.

const refresh = (client: ReturnType<typeof useQueryClient>) =>
  client.invalidateQueries({ queryKey: [calls.notification.getNotification.path] });

export function useNotifications(page: number) {
  return useQuery({
    ...apiQueryOptions(calls.notification.getNotification, { query: { page } }),
    placeholderData: (previous) => previous,
  });
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => callApi(calls.notification.markNotificationAsRead, { params: { id } }),
    onSuccess: () => refresh(client),
  });
}

export function useClearNotifications() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(calls.notification.clearNotifications),
    onSuccess: () => refresh(client),
  });
}
