import { calls } from '@quire/contract/calls';
import type { QueryClient } from '@tanstack/react-query';

const DESIGN = [
  calls.workflow.workflowIndex,
  calls.workflow.workflows,
  calls.workflow.viewWorkflow,
  calls.workflow.getStep,
  calls.category.foldersWorkflow,
].map((e) => e.path);

const RUNS = [
  calls.file.assignedFiles,
  calls.file.folderWorkflowStage,
  calls.workflow.viewWorkflow,
  calls.workflow.workflowIndex,
].map((e) => e.path);

const matching = (paths: string[]) => ({
  predicate: (query: { queryKey: readonly unknown[] }) => paths.includes(query.queryKey[0] as string),
});

/** After a change of the design: the lists, the workflow and its steps, the categories' workflows. */
export const invalidateDesign = (client: QueryClient) => client.invalidateQueries(matching(DESIGN));

/** After a run moved: the work lists, the file's stage, the running counts. */
export const invalidateRuns = (client: QueryClient) => client.invalidateQueries(matching(RUNS));
