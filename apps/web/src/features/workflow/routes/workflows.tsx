import type { TWorkflowSummary } from '@quire/contract';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { EmptyText, QueryTable, Timestamp } from '../../../components/data-table';
import { EditDeleteActions, NewButton, SearchAndStatus, WriteActions } from '../../../components/list-parts';
import { PageHeader } from '../../../components/page-header';
import { pagingOf } from '../../../components/pagination';
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
const STATUS_FILTERS = [
  { value: '', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'draft', label: 'Draft' },
];

/** Every workflow, paged, with search and status kept in the URL; create, open, delete. */
export function WorkflowsPage() {
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

  return (
    <>
      <PageHeader title="Workflows">
        The routes files take through their steps, and who decides at each.
      </PageHeader>
      <WriteActions canWrite={canWrite}>
        <NewButton onClick={() => setCreating(true)}>New workflow</NewButton>
      </WriteActions>
      <SearchAndStatus
        label="Filter workflows"
        placeholder="Name"
        search={search}
        onSearch={setSearch}
        status={status}
        onStatus={(next) => change({ status: next })}
        statuses={STATUS_FILTERS}
      />
      <QueryTable
        query={list}
        what="workflows"
        rows={rows}
        empty={
          <>
            <EmptyText title={query.search || status ? 'No workflows match' : 'No workflows yet'}>
              A workflow routes a file through steps where people approve or reject it.
            </EmptyText>
            {canWrite && !query.search && !status ? (
              <NewButton onClick={() => setCreating(true)}>Design the first workflow</NewButton>
            ) : null}
          </>
        }
        caption="Workflows"
        columns={COLUMNS}
        busy={list.isFetching}
        pagination={pagingOf(list.data, 'workflows', (p) => change({ page: p }), list.isFetching)}
        cells={(w) => (
          <>
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
          </>
        )}
        rowActions={
          canWrite &&
          ((w) => (
            <EditDeleteActions
              name={w.name}
              edit="Design"
              onEdit={() => navigate(`/admin/workflows/${w.id}`)}
              onDelete={() => setDeleting(w)}
            />
          ))
        }
      />

      {creating ? (
        <WorkflowFormDialog
          onClose={() => setCreating(false)}
          onSaved={(saved) => navigate(`/admin/workflows/${saved.id}`)}
        />
      ) : null}
      {deleting ? (
        <ConfirmDeleteDialog
          noun="workflow"
          name={deleting.name}
          remove={remove}
          value={deleting.id}
          closeOnFailure
          onClose={() => setDeleting(null)}
        >
          <p>
            Its steps go with it. A workflow that files are running through cannot be deleted; one that has
            run before keeps its history on those files.
          </p>
        </ConfirmDeleteDialog>
      ) : null}
    </>
  );
}
