import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

export const stageQuery = (fileId: number) =>
  apiQueryOptions(calls.file.folderWorkflowStage, { params: { id: fileId } });

/** GET /api/folder-workflow-stage/{id}: a file's run, its step's form and the history. */
export function useFileStage(fileId: number, enabled = true) {
  return useQuery({ ...stageQuery(fileId), enabled });
}
