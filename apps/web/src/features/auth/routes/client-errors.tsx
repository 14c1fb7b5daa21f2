import type { TClientError } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { DataTable, EmptyText, QueryState, RefreshButton, Timestamp } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { PageNavigation } from '../../../components/pagination';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { shortUserAgent } from '../../../lib/user-agent';
import { useClientErrors } from '../api/client-errors';

export const CLIENT_ERRORS_PAGE_SIZE = 20;
const COLUMNS = ['Time', 'User', 'Message', 'Page', 'Browser'];

/** What was stored with an error, as indented JSON (a JSON string is shown parsed). */
export function formatErrorData(data: unknown): string {
  if (typeof data === 'string') {
    try {
      return JSON.stringify(JSON.parse(data), null, 2);
    } catch {
      return data;
    }
  }
  return JSON.stringify(data, null, 2) ?? String(data);
}

/** The path of a page address, without the host every row shares. */
function pagePath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}${u.hash}`;
  } catch {
    return url;
  }
}

/** /admin/client-errors: the errors web clients reported, newest first. */
export function ClientErrorsPage() {
  const [page, setPage] = useState(1);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const errors = useClientErrors({ page, quantity: CLIENT_ERRORS_PAGE_SIZE });
  useFailureToast(errors.error, errors.errorUpdatedAt, 'Failed to load client errors');
  const rows = errors.data?.items ?? [];

  const toggle = (id: number) =>
    setExpanded((old) => {
      const next = new Set(old);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <>
      <PageHeader title="Client errors">
        Errors the web client ran into in people's browsers, newest first.
      </PageHeader>
      <div className="section-header">
        <span />
        <RefreshButton query={errors} />
      </div>

      <QueryState
        query={errors}
        what="client errors"
        isEmpty={rows.length === 0}
        empty={
          <EmptyText title="No errors reported">
            Errors the web client runs into in someone's browser appear here.
          </EmptyText>
        }
      >
        <DataTable caption="Client errors" columns={COLUMNS} actions busy={errors.isFetching}>
          {rows.map((row) => (
            <ClientErrorRow
              key={row.id}
              row={row}
              open={expanded.has(row.id)}
              onToggle={() => toggle(row.id)}
            />
          ))}
        </DataTable>
      </QueryState>

      <PageNavigation
        data={errors.data}
        noun="errors"
        onPage={(p) => {
          setPage(p);
          setExpanded(new Set());
        }}
        busy={errors.isFetching}
      />
    </>
  );
}

function ClientErrorRow({ row, open, onToggle }: { row: TClientError; open: boolean; onToggle: () => void }) {
  const detailsId = `client-error-${row.id}`;
  return (
    <>
      <tr>
        <td>
          <Timestamp iso={row.created_at} />
        </td>
        <td>
          {row.username ?? <span className="muted">Not signed in</span>}
          {row.ip ? <div className="cell-muted">{row.ip}</div> : null}
        </td>
        <td className="cell-message">{row.message}</td>
        <td className="cell-message">
          {row.url ? <span title={row.url}>{pagePath(row.url)}</span> : <span className="muted">—</span>}
        </td>
        <td title={row.user_agent ?? undefined}>{shortUserAgent(row.user_agent)}</td>
        <td className="cell-actions">
          <Button
            variant="link"
            small
            aria-expanded={open}
            aria-controls={open ? detailsId : undefined}
            onClick={onToggle}
          >
            {open ? 'Hide details' : 'Details'}
          </Button>
        </td>
      </tr>
      {open ? (
        <tr id={detailsId} className="row-details">
          <td colSpan={COLUMNS.length + 1}>
            <section aria-label={`Stored data of “${row.message}”`}>
              <pre className="code-block">{formatErrorData(row.data)}</pre>
            </section>
          </td>
        </tr>
      ) : null}
    </>
  );
}
