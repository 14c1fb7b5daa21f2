import { contract } from '@quire/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export const deleteMailJob = async (id: number) =>
  (await callApi(contract.email.deleteJob, { params: { id } })).data;

/** POST /api/email/job/delete/{id} (409 while it is being sent). */
export function useDeleteMailJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMailJob,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [contract.email.notifications.path] }),
  });
}
