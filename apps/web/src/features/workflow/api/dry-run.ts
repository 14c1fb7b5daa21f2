import type { Body, contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export type DryRunInput = Body<typeof contract.workflow.dryRun>;

export const dryRun = async (body: DryRunInput) => (await callApi(calls.workflow.dryRun, { body })).data;

/** POST /api/workflow/dry_run: where a file would go, without starting anything. */
export function useDryRun() {
  return useMutation({ mutationFn: dryRun });
}
