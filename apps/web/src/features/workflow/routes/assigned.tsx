import type { TAssignedFile } from '@quire/contract';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DataTable, EmptyText, QueryState, RowAction, Timestamp } from '../../../components/data-table';
import { Dialog } from '../../../components/dialog';
import { PageHeader } from '../../../components/page-header';
import { PageNavigation } from '../../../components/pagination';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useAssignedFiles } from '../api/assigned-files';
import { useFileStage } from '../api/folder-workflow-stage';
import { type Decision, DecisionDialog } from '../components/decision-dialog';
import { WorkflowPanel } from '../components/workflow-panel';

export const ASSIGNED_PAGE_SIZE = 20;
const COLUMNS = ['File', 'Workflow', 'Step', 'Waiting since', 'Due'];

/** Loads the file's run (its step's form) and opens the decision on it. */
function Decide({
  task,
  decision,
  onClose,
}: {
  task: TAssignedFile;
  decision: Decision;
  onClose: () => void;
}) {
  const stage = useFileStage(task.file_id);
  useFailureToast(stage.error, stage.errorUpdatedAt, 'Failed to load the workflow');
  if (!stage.data?.run) return null;
  return (
    <DecisionDialog
      fileId={task.file_id}
      fileName={task.file_name}
      run={stage.data.run}
      decision={decision}
      onClose={onClose}
    />
  );
}

/** The files waiting on me (directly or through a group), soonest due first: approve or reject each. */
export function AssignedPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '', 10) || 1);
  const list = useAssignedFiles({ page, quantity: ASSIGNED_PAGE_SIZE });
  const [open, setOpen] = useState<{ task: TAssignedFile; decision: Decision | 'history' } | null>(null);
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load assigned files');
  const rows = list.data?.items ?? [];
  return (
    <>
      <PageHeader title="Assigned to me">Files waiting for your decision in a workflow step.</PageHeader>
      <QueryState
        query={list}
        loadingText="Loading your work…"
        failedText="Your assigned files could not be loaded"
        isEmpty={rows.length === 0}
        empty={
          <EmptyText title="Nothing waits on you">
            Files appear here when a workflow step they enter is assigned to you or your group.
          </EmptyText>
        }
      >
        <DataTable caption="Files assigned to me" columns={COLUMNS} actions busy={list.isFetching}>
          {rows.map((task) => (
            <tr key={task.task_id}>
              <td>
                <Link to={`/files/${task.file_id}`}>
                  <strong>{task.file_name}</strong>
                </Link>
                {task.category ? <div className="cell-muted">{task.category.name}</div> : null}
              </td>
              <td>
                {task.workflow.name}
                {task.started_by ? <div className="cell-muted">started by {task.started_by}</div> : null}
              </td>
              <td>{task.step.name}</td>
              <td>
                <Timestamp iso={task.assigned_at} />
              </td>
              <td>
                {task.due_at ? (
                  <Timestamp iso={task.due_at} show="short-date" />
                ) : (
                  <span className="muted">—</span>
                )}
                {task.overdue ? <span className="badge badge--error">Overdue</span> : null}
              </td>
              <td className="cell-actions">
                <span className="row-actions">
                  <RowAction
                    label={`Approve ${task.file_name}`}
                    onClick={() => setOpen({ task, decision: 'approve' })}
                  >
                    Approve
                  </RowAction>
                  <RowAction
                    label={`Reject ${task.file_name}`}
                    danger
                    onClick={() => setOpen({ task, decision: 'reject' })}
                  >
                    Reject
                  </RowAction>
                </span>
              </td>
            </tr>
          ))}
        </DataTable>
        <PageNavigation
          data={list.data}
          noun="files"
          onPage={(p) => setParams(p > 1 ? { page: String(p) } : {})}
          busy={list.isFetching}
        />
      </QueryState>
      {open?.decision === 'history' ? (
        <Dialog title={`Workflow of ${open.task.file_name}`} onClose={() => setOpen(null)} size="large">
          <WorkflowPanel fileId={open.task.file_id} canStart={false} />
        </Dialog>
      ) : open ? (
        <Decide task={open.task} decision={open.decision} onClose={() => setOpen(null)} />
      ) : null}
    </>
  );
}
