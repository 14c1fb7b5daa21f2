import type { DashboardTable } from '@quire/contract';
import { type ReactNode, useState } from 'react';
import { DataTable, QueryState, Timestamp } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { PageNavigation } from '../../../components/pagination';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDashboardTable } from '../api/get-dashboard';
import { FileCell } from '../components/file-row';
import { RoleHint } from '../components/role-hint';

const TABLES: Array<{ table: DashboardTable; title: string; when: string; empty: string }> = [
  { table: 'previewed', title: 'Previewed', when: 'Opened', empty: 'Files you open show here.' },
  { table: 'checked_out', title: 'Checked out', when: 'Since', empty: 'You have no files checked out.' },
  { table: 'recent', title: 'Recent', when: 'Changed', empty: 'No files in your categories yet.' },
  {
    table: 'assigned',
    title: 'Assigned to me',
    when: 'Waiting since',
    empty: 'No workflow steps wait on you.',
  },
];

function DashboardTableCard({ table, title, when, empty }: (typeof TABLES)[number]) {
  const [page, setPage] = useState(1);
  const query = useDashboardTable(table, page);
  useFailureToast(query.error, query.errorUpdatedAt, 'Failed to load the dashboard');
  const data = query.data?.[table];
  return (
    <section className="card dashboard__table" aria-labelledby={`dashboard-${table}`}>
      <h2 id={`dashboard-${table}`}>{title}</h2>
      <QueryState
        query={query}
        card={false}
        loadingText={`Loading ${title.toLowerCase()}…`}
        failedText={`${title} could not be loaded`}
        isEmpty={!data?.items.length}
        empty={<p className="muted">{empty}</p>}
      >
        <DataTable
          caption={title}
          columns={table === 'assigned' ? ['File', 'Step', when] : ['File', 'Owner', when]}
          busy={query.isPlaceholderData}
        >
          {data?.items.map((row) => (
            <tr key={`${row.file.id}-${row.task?.id ?? ''}`}>
              <td>
                <FileCell file={row.file} />
              </td>
              <td>{row.task ? `${row.task.step.name} (${row.task.workflow.name})` : row.file.owner.name}</td>
              <td>
                <Timestamp iso={row.at} />
              </td>
            </tr>
          ))}
        </DataTable>
        {data ? (
          <PageNavigation data={data} noun="files" onPage={setPage} busy={query.isPlaceholderData} />
        ) : null}
      </QueryState>
    </section>
  );
}

/**
 * The signed-in user's landing page: what they opened, hold, may see changing, and must act on.
 * `first`: sections of other areas shown before the tables (the app layer passes them:
 * app/routes/dashboard.tsx).
 */
export function DashboardPage({ first }: { first?: ReactNode } = {}) {
  return (
    <>
      <PageHeader title="Dashboard" />
      <RoleHint />
      <div className="dashboard">
        {first}
        {TABLES.map((t) => (
          <DashboardTableCard key={t.table} {...t} />
        ))}
      </div>
    </>
  );
}
