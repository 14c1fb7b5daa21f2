import type { TDisposition } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { EmptyText, QueryTable, RowAction, Timestamp } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { pagingOf } from '../../../components/pagination';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { type DispositionStatus, useDispositions, useScanDispositions } from '../api/dispositions';
import { ApproveDialog, PostponeDialog } from '../components/decide-dialogs';
import { RetentionHeader } from '../components/retention-tabs';
import { ShowSelect, useShownPage } from '../components/show-select';

const ACTIONS = { review: 'Review', trash: 'Move to trash', purge: 'Purge' } as const;
type Deciding = { decision: 'approve' | 'postpone'; items: TDisposition[] } | null;

/**
 * What the daily retention scan found due: approve (the rule's action is carried out) or
 * postpone, one by one or the chosen ones at once. Held files wait for their hold's release.
 */
export function DispositionsPage() {
  const { canWrite } = useAreaAccess('fileControl');
  const { status, page, setPage, show } = useShownPage<DispositionStatus>('pending');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [deciding, setDeciding] = useState<Deciding>(null);
  const list = useDispositions(status, page);
  const notify = useNotify();
  const scan = useScanDispositions();
  const scanNow = () =>
    scan.mutate(undefined, {
      onSuccess: ({ data }) =>
        notify.success(
          'Retention scan done',
          `${data.listed} file${data.listed === 1 ? '' : 's'} newly due.`,
        ),
      onError: (error) => notify.notifyFailure('Failed to run the retention scan!', error),
    });
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load dispositions');
  const items = list.data?.items ?? [];
  const open = status !== 'approved' && canWrite;
  const selected = items.filter((d) => chosen.has(d.id));
  const toggle = (id: number) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const close = () => setDeciding(null);
  const done = () => setChosen(new Set());
  return (
    <>
      <RetentionHeader title="Dispositions">
        Files whose retention period is over. Approving carries out their rule; every decision is audited with
        the rule that caused it.
      </RetentionHeader>
      <div className="toolbar">
        <ShowSelect
          value={status}
          onShow={(next) => {
            show(next);
            setChosen(new Set());
          }}
          options={[
            { value: 'pending', label: 'Due' },
            { value: 'postponed', label: 'Postponed' },
            { value: 'approved', label: 'Approved' },
          ]}
        />
        {canWrite ? (
          <Button variant="ghost" onClick={scanNow} disabled={scan.isPending}>
            {scan.isPending ? 'Scanning…' : 'Scan now'}
          </Button>
        ) : null}
        {open ? (
          <>
            <Button
              disabled={selected.length === 0}
              onClick={() => setDeciding({ decision: 'approve', items: selected })}
            >
              Approve chosen ({selected.length})
            </Button>
            <Button
              variant="ghost"
              disabled={selected.length === 0}
              onClick={() => setDeciding({ decision: 'postpone', items: selected })}
            >
              Postpone chosen ({selected.length})
            </Button>
          </>
        ) : null}
      </div>
      <QueryTable
        query={list}
        what="dispositions"
        rows={items}
        empty={
          <EmptyText
            title={
              status === 'pending'
                ? 'Nothing is due'
                : status === 'postponed'
                  ? 'Nothing is postponed'
                  : 'Nothing approved yet'
            }
          >
            The retention scan runs every night and lists the files whose period is over.
          </EmptyText>
        }
        caption="Dispositions"
        columns={[
          ...(open ? ['Choose'] : []),
          'File',
          'Category',
          'Rule',
          'Then',
          status === 'postponed' ? 'Until' : 'Due',
        ]}
        busy={list.isFetching}
        pagination={pagingOf(list.data, 'dispositions', setPage, list.isFetching)}
        cells={(d) => (
          <>
            {open ? (
              <td>
                <input
                  type="checkbox"
                  aria-label={`Choose ${d.file.name}`}
                  checked={chosen.has(d.id)}
                  onChange={() => toggle(d.id)}
                />
              </td>
            ) : null}
            <td>
              {d.file.name}
              {d.held ? <span className="badge"> On legal hold</span> : null}
            </td>
            <td>{d.category?.name ?? '—'}</td>
            <td>{d.rule_summary}</td>
            <td>
              {ACTIONS[d.action]}
              {d.review_group ? ` (${d.review_group.name})` : ''}
            </td>
            <td>
              <Timestamp
                iso={(status === 'postponed' ? d.postponed_until : d.due_at) ?? d.due_at}
                show="date"
              />
            </td>
          </>
        )}
        rowActions={
          open &&
          ((d) => (
            <>
              <RowAction
                label={`Approve ${d.file.name}`}
                onClick={() => setDeciding({ decision: 'approve', items: [d] })}
              >
                Approve
              </RowAction>
              <RowAction
                label={`Postpone ${d.file.name}`}
                onClick={() => setDeciding({ decision: 'postpone', items: [d] })}
              >
                Postpone
              </RowAction>
            </>
          ))
        }
      />
      {deciding?.decision === 'approve' ? (
        <ApproveDialog items={deciding.items} onClose={close} onDone={done} />
      ) : null}
      {deciding?.decision === 'postpone' ? (
        <PostponeDialog items={deciding.items} onClose={close} onDone={done} />
      ) : null}
    </>
  );
}
