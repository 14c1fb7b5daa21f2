import { auditContract } from './audit.js';
import { authContract } from './auth.js';
import { backupContract } from './backup.js';
import { categoryContract } from './category.js';
import { categoryFilesContract } from './category-files.js';
import { categoryGrantsContract } from './category-grants.js';
import { categoryGroupsContract } from './category-groups.js';
import { categoryWorkflowContract } from './category-workflow.js';
import { dashboardAndSearchContract } from './dashboard-and-search.js';
import { emailContract } from './email.js';
import { fileContract } from './file.js';
import { fileActionsContract } from './file-actions.js';
import { fileActionsWorkflowContract } from './file-actions-workflow.js';
import { fileBulkContract } from './file-bulk.js';
import { fileSharingContract } from './file-sharing.js';
import { fileWorkflowContract } from './file-workflow.js';
import { groupContract } from './group.js';
import type { EndpointDef } from './http.js';
import { intakeContract } from './intake.js';
import { licenceContract } from './licence.js';
import { metadataContract } from './metadata.js';
import { notificationContract } from './notification.js';
import { previewContract } from './preview.js';
import { retentionContract } from './retention.js';
import { savedViewContract } from './saved-view.js';
import { settingsContract } from './settings.js';
import { setupContract } from './setup.js';
import { trashContract } from './trash.js';
import { userContract } from './user.js';
import { valueListContract } from './value-list.js';
import { workflowContract } from './workflow.js';

export * from './access.js';
export * from './audit.js';
export * from './auth.js';
export * from './backup.js';
export * from './category.js';
export * from './category-files.js';
export * from './category-grants.js';
export * from './category-groups.js';
export * from './category-workflow.js';
export * from './common.js';
export * from './cron.js';
export * from './dashboard-and-search.js';
export * from './email.js';
export * from './file.js';
export * from './file-actions.js';
export * from './file-actions-workflow.js';
export * from './file-bulk.js';
export * from './file-sharing.js';
export * from './file-workflow.js';
export * from './group.js';
export * from './http.js';
export * from './intake.js';
export * from './licence.js';
export * from './messages.js';
export * from './metadata.js';
export * from './notification.js';
export * from './password-policy.js';
export * from './preview.js';
export * from './retention.js';
export * from './saved-view.js';
export * from './settings.js';
export * from './setup.js';
export * from './trash.js';
export * from './user.js';
export * from './value-list.js';
export * from './workflow.js';
export * from './workflow-bodies.js';
export * from './workflow-model.js';
export * from './workflow-run-model.js';

/** Every call of the product, by area. The key `area.name` is the operationId. */
export const contract = {
  auth: authContract,
  email: emailContract,
  user: userContract,
  group: groupContract,
  setup: setupContract,
  category: {
    ...categoryContract,
    ...categoryGrantsContract,
    ...categoryGroupsContract,
    ...categoryFilesContract,
    ...categoryWorkflowContract,
  },
  metadata: metadataContract,
  valueList: valueListContract,
  file: { ...fileContract, ...fileSharingContract, ...fileWorkflowContract },
  preview: previewContract,
  fileActions: { ...fileActionsContract, ...fileActionsWorkflowContract },
  fileBulk: fileBulkContract,
  trash: trashContract,
  notification: notificationContract,
  workflow: workflowContract,
  dashboardAndSearch: dashboardAndSearchContract,
  savedView: savedViewContract,
  retention: retentionContract,
  intake: intakeContract,
  audit: auditContract,
  backup: backupContract,
  settings: settingsContract,
  licence: licenceContract,
} satisfies Record<string, Record<string, EndpointDef>>;

export type Contract = typeof contract;

/** Every entry with its operationId, for the router, OpenAPI and the coverage test. */
export function allEndpoints(): Array<{ operationId: string; area: string; def: EndpointDef }> {
  return Object.entries(contract).flatMap(([area, entries]) =>
    Object.entries(entries).map(([name, def]) => ({
      operationId: `${area}.${name}`,
      area,
      def: def as EndpointDef,
    })),
  );
}
