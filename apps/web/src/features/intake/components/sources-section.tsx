import type { TIntakeSource } from '@quire/contract';
import { useState } from 'react';
import { QueryTable, Timestamp } from '../../../components/data-table';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDeleteSource, useIntakeSources } from '../api/intake';
import { EditRemove, RowDialogs } from './row-dialogs';
import { SourceForm } from './source-form';

const STATE_WORDS = { idle: 'Watching', running: 'Looking now', error: 'Error' } as const;

/** How a source leaves what it takes: indexed, or unindexed for its owner or its group. */
function filedAs(source: TIntakeSource) {
  if (source.file_as === 'indexed') return 'Indexed';
  return source.unindexed_group
    ? `Unindexed for group ${source.unindexed_group.name}`
    : `Unindexed for ${source.owner.username}`;
}

/** Where a source takes files from: its folder, or its inbox's account. */
function where(source: TIntakeSource) {
  return source.kind === 'folder' ? source.settings.path : `${source.settings.user}@${source.settings.host}`;
}

/** The sources files arrive from, with their state, last error and counts; each may be edited or removed. */
export function SourcesSection({ canWrite }: { canWrite: boolean }) {
  const sources = useIntakeSources();
  const remove = useDeleteSource();
  const [removing, setRemoving] = useState<TIntakeSource | null>(null);
  const [editing, setEditing] = useState<TIntakeSource | null>(null);
  useFailureToast(sources.error, sources.errorUpdatedAt, 'Failed to load intake sources');
  const items = sources.data?.items ?? [];
  return (
    <section aria-labelledby="intake-sources">
      <h2 id="intake-sources">Sources</h2>
      <QueryTable
        query={sources}
        loadingText="Loading sources…"
        failedText="The intake sources could not be loaded"
        rows={items}
        empty={<p className="muted">No sources yet. Add a watched folder below.</p>}
        caption="Intake sources"
        columns={[
          'Name',
          'Kind',
          'Where',
          'Category',
          'Files are',
          'State',
          'Last error',
          'Taken',
          'Failed',
          'Last look',
        ]}
        cells={(s) => (
          <>
            <td>{s.name}</td>
            <td>{s.kind === 'folder' ? 'Folder' : 'E-mail'}</td>
            <td>{where(s)}</td>
            <td>{s.category.name}</td>
            <td>{filedAs(s)}</td>
            <td>{s.enabled ? STATE_WORDS[s.state] : 'Off'}</td>
            <td>{s.last_error ?? '—'}</td>
            <td>{s.taken_count}</td>
            <td>{s.failed_count}</td>
            <td>{s.last_run_at ? <Timestamp iso={s.last_run_at} /> : '—'}</td>
          </>
        )}
        rowActions={
          canWrite &&
          ((s) => <EditRemove name={s.name} onEdit={() => setEditing(s)} onRemove={() => setRemoving(s)} />)
        }
      />
      <RowDialogs
        noun="source"
        editing={editing}
        setEditing={setEditing}
        form={(s, done) => <SourceForm source={s} onDone={done} />}
        removing={removing}
        setRemoving={setRemoving}
        remove={remove}
        removed={(s) => `${s.name} is no longer watched.`}
      >
        {(s) =>
          `${s.name} will no longer be looked at, and its list of arrivals goes. The files it took stay.`
        }
      </RowDialogs>
    </section>
  );
}
