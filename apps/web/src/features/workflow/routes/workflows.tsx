import type { TWorkflowSummary } from '@quire/contract';
import { useEffect, useId, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, QueryState, RowAction, Timestamp } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { PageNavigation } from '../../../components/pagination';
import { useAreaAccess } from '../../../lib/permissions';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDeleteWorkflow } from '../api/delete-workflow';
import { useWorkflowIndex, type WorkflowIndexQuery } from '../api/get-workflow-index';
import { StatusBadge } from '../components/status-badge';
import { WorkflowFormDialog } from '../components/workflow-form-dialog';

export const WORKFLOWS_PAGE_SIZE = 20;
const COLUMNS = ['Name', 'Status', 'Steps', 'Categories', 'Running', 'Updated'];
type Status = NonNullable<WorkflowIndexQuery['status']>;

/** Every workflow, paged, with search and status kept in the URL; create, open, delete. */
export function WorkflowsPage() {
  const id = useId();
  const notify = useNotify();
  const navigate = useNavigate();
  const { canWrite } = useAreaAccess('fileControl');
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '', 10) || 1);
  const status = (['draft', 'active'].includes(params.get('status') ?? '') ? params.get('status') : '') as
    | Status
    | '';
  const [search, setSearch] = useState(params.get('search') ?? '');
  const typed = useDebouncedValue(search.trim(), 300);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<TWorkflowSummary | null>(null);
  const remove = useDeleteWorkflow();

  const change = (next: { page?: number; search?: string; status?: string }) =>
    setParams(
      (previous) => {
        const p = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(next))
          if (key !== 'page') value ? p.set(key, String(value)) : p.delete(key);
        next.page && next.page > 1 ? p.set('page', String(next.page)) : p.delete('page');
        return p;
      },
      { replace: next.page === undefined },
    );
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when what is typed settles
  useEffect(() => {
    if (typed !== (params.get('search') ?? '')) change({ search: typed });
  }, [typed]);

  const query: WorkflowIndexQuery = {
    page,
    quantity: WORKFLOWS_PAGE_SIZE,
    ...(params.get('search') ? { search: params.get('search') as string } : {}),
    ...(status ? { status } : {}),
  };
  const list = useWorkflowIndex(query);
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load workflows');
  const rows = list.data?.items ?? [];

  const confirmDelete = (workflow: TWorkflowSummary) =>
    remove.mutate(workflow.id, {
      onSuccess: () => {
        notify.success('Workflow deleted', `${workflow.name} was deleted.`);
        setDeleting(null);
      },
      onError: (error) => {
        notify.notifyFailure('Failed to delete workflow!', error);
        setDeleting(null);
      },
    });

  return (
    <>
      <PageHeader title="Workflows">
        The routes files take through their steps, and who decides at each.
      </PageHeader>
      <div className="section-header">
        {canWrite ? (
          <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
            New workflow
          </button>
        ) : (
          <span className="badge badge--neutral">Read only</span>
        )}
      </div>
      <search className="toolbar" aria-label="Filter workflows">
        <div className="field field--grow">
          <label htmlFor={`${id}-search`}>Search</label>
          <input
            id={`${id}-search`}
            type="search"
            placeholder="Name"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select id={`${id}-status`} value={status} onChange={(e) => change({ status: e.target.value })}>
            <option value="">All</option>
            <option value="active">Active</option>
            <option value="draft">Draft</option>
          </select>
        </div>
      </search>
      <QueryState
        query={list}
        loadingText="Loading workflows…"
        failedText="The workflows could not be loaded"
        isEmpty={rows.length === 0}
        empty={
          <>
            <h2>{query.search || status ? 'No workflows match' : 'No workflows yet'}</h2>
            <p className="muted">A workflow routes a file through steps where people approve or reject it.</p>
            {canWrite && !query.search && !status ? (
              <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
                Design the first workflow
              </button>
            ) : null}
          </>
        }
      >
        <DataTable caption="Workflows" columns={COLUMNS} actions={canWrite} busy={list.isFetching}>
          {rows.map((w) => (
            <tr key={w.id}>
              <td>
                <Link to={`/admin/workflows/${w.id}`}>
                  <strong>{w.name}</strong>
                </Link>
                {w.description ? <div className="cell-muted">{w.description}</div> : null}
              </td>
              <td>
                <StatusBadge status={w.status} />
              </td>
              <td>{w.step_count}</td>
              <td>{w.categories.map((c) => c.name).join(', ') || <span className="muted">—</span>}</td>
              <td>{w.running_count}</td>
              <td>
                <Timestamp iso={w.updated_at} show="date" />
              </td>
              {canWrite ? (
                <td className="cell-actions">
                  <span className="row-actions">
                    <RowAction
                      label={`Design ${w.name}`}
                      onClick={() => navigate(`/admin/workflows/${w.id}`)}
                    >
                      Design
                    </RowAction>
                    <RowAction label={`Delete ${w.name}`} danger onClick={() => setDeleting(w)}>
                      Delete
                    </RowAction>
                  </span>
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
        <PageNavigation
          data={list.data}
          noun="workflows"
          onPage={(p) => change({ page: p })}
          busy={list.isFetching}
        />
      </QueryState>

      {creating ? (
        <WorkflowFormDialog
          onClose={() => setCreating(false)}
          onSaved={(saved) => navigate(`/admin/workflows/${saved.id}`)}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete the workflow ${deleting.name}?`}
          confirmLabel="Delete workflow"
          pendingLabel="Deleting…"
          tone="danger"
          pending={remove.isPending}
          onConfirm={() => confirmDelete(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>
            Its steps go with it. A workflow that files are running through cannot be deleted; one that has
            run before keeps its history on those files.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
