import type { TLegalHold } from '@quire/contract';
import { useState } from 'react';
import { EmptyText, QueryTable, RowAction, Timestamp } from '../../../components/data-table';
import { pagingOf } from '../../../components/pagination';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { type HoldStatus, useLegalHolds } from '../api/legal-holds';
import { HoldForm } from '../components/hold-form';
import { ReleaseHoldDialog } from '../components/release-hold-dialog';
import { RetentionHeader } from '../components/retention-tabs';
import { ShowSelect, useShownPage } from '../components/show-select';

const TARGETS = { file: 'File', category: 'Category', saved_view: 'Saved search' } as const;

/** Legal holds in force (or released): who set each and why; set and release them. */
export function LegalHoldsPage() {
  const { canWrite } = useAreaAccess('fileControl');
  const { status, page, setPage, show } = useShownPage<HoldStatus>('active');
  const [releasing, setReleasing] = useState<TLegalHold | null>(null);
  const holds = useLegalHolds(status, page);
  useFailureToast(holds.error, holds.errorUpdatedAt, 'Failed to load legal holds');
  const active = status === 'active';
  return (
    <>
      <RetentionHeader title="Legal holds">
        While a hold is in force nothing it covers can be deleted, purged, moved, versioned over or restored
        over, by anyone.
      </RetentionHeader>
      <div className="toolbar">
        <ShowSelect
          value={status}
          onShow={show}
          options={[
            { value: 'active', label: 'Holds in force' },
            { value: 'released', label: 'Released holds' },
          ]}
        />
      </div>
      <QueryTable
        query={holds}
        what="legal holds"
        rows={holds.data?.items}
        empty={
          <EmptyText title={active ? 'No legal holds in force' : 'No released holds'}>
            {active ? 'Every file follows its retention rule.' : 'Released holds are listed here.'}
          </EmptyText>
        }
        caption={active ? 'Legal holds in force' : 'Released legal holds'}
        columns={['Held', 'Kind', 'Files', 'Reason', 'Set by', active ? 'Since' : 'Released']}
        busy={holds.isFetching}
        pagination={pagingOf(holds.data, 'holds', setPage, holds.isFetching)}
        cells={(h) => (
          <>
            <td>{h.target_name}</td>
            <td>{TARGETS[h.target]}</td>
            <td>{h.file_count}</td>
            <td>{active ? h.reason : `${h.reason} — released: ${h.release_reason ?? ''}`}</td>
            <td>{h.set_by.name}</td>
            <td>
              <Timestamp iso={(active ? h.set_at : h.released_at) ?? h.set_at} show="date" />
            </td>
          </>
        )}
        rowActions={
          canWrite &&
          active &&
          ((h) => (
            <RowAction label={`Release the hold on ${h.target_name}`} onClick={() => setReleasing(h)}>
              Release
            </RowAction>
          ))
        }
      />
      {canWrite ? <HoldForm /> : null}
      {releasing ? <ReleaseHoldDialog hold={releasing} onClose={() => setReleasing(null)} /> : null}
    </>
  );
}
