import { contract } from '@quire/contract';
import type { QueryClient } from '@tanstack/react-query';

const DESIGN = [
  contract.workflow.workflowIndex,
  contract.workflow.workflows,
  contract.workflow.viewWorkflow,
  contract.workflow.getStep,
  contract.category.foldersWorkflow,
].map((e) => e.path);

const RUNS = [
  contract.file.assignedFiles,
  contract.file.folderWorkflowStage,
  contract.workflow.viewWorkflow,
  contract.workflow.workflowIndex,
].map((e) => e.path);

const matching = (paths: string[]) => ({
  predicate: (query: { queryKey: readonly unknown[] }) => paths.includes(query.queryKey[0] as string),
});

/** After a change of the design: the lists, the workflow and its steps, the categories' workflows. */
export const invalidateDesign = (client: QueryClient) => client.invalidateQueries(matching(DESIGN));

/** After a run moved: the work lists, the file's stage, the running counts. */
export const invalidateRuns = (client: QueryClient) => client.invalidateQueries(matching(RUNS));
