import type { TCategoryField, TDryRunRow, TIntakeRule, TIntakeSource } from '@quire/contract';
import { type ReactNode, useState } from 'react';
import { type ConfirmedMutation, ConfirmMutationDialog } from '../../../components/confirm-mutation-dialog';
import { DataTable, QueryState, RowAction, Timestamp } from '../../../components/data-table';
import { Dialog } from '../../../components/dialog';
import { useChoiceOptions } from '../../../components/metadata-input';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { Pagination, pagingOf } from '../../../components/pagination';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import {
  useCategoryFields,
  useCategoryTags,
  useDeleteRule,
  useDeleteSource,
  useDryRun,
  useIntakeArrivals,
  useIntakeRules,
  useIntakeSources,
  useReorderRules,
  useRetryArrival,
} from '../api/intake';
import { RuleForm } from '../components/rule-form';
import { SourceForm } from '../components/source-form';

const STATE_WORDS = { idle: 'Watching', running: 'Looking now', error: 'Error' } as const;

/** One value a rule sets, as a person reads it: a list item's or a person's name, Yes or No. */
function RuleValue({
  field,
  value,
}: {
  field: TCategoryField | null;
  value: TIntakeRule['values'][number]['value'];
}) {
  const choices = useChoiceOptions(field);
  if (value === null) return <>empty</>;
  if (value === true || value === false) return <>{value ? 'Yes' : 'No'}</>;
  const chosen = choices.options.find((o) => String(o.id) === String(value));
  return <>{chosen?.label ?? (choices.loading ? '…' : String(value))}</>;
}

/** A rule's metadata values and tags, named by the category it files into. */
function RuleSets({ rule, sources }: { rule: TIntakeRule; sources: TIntakeSource[] }) {
  const only = rule.source_ids.length === 1 ? sources.find((s) => s.id === rule.source_ids[0]) : undefined;
  const target = rule.category?.id ?? only?.category.id ?? null;
  const some = rule.values.length > 0 || rule.tag_ids.length > 0;
  const meta = useCategoryFields(some ? target : null);
  const tags = useCategoryTags(some && rule.tag_ids.length > 0 ? target : null);
  if (!some) return <>—</>;
  const fieldOf = (id: number) => meta.data?.fields.find((f) => f.field.id === id) ?? null;
  return (
    <ul className="plain-list">
      {rule.values.map((v) => (
        <li key={v.field_id}>
          {fieldOf(v.field_id)?.field.name ?? `Field ${v.field_id}`}:{' '}
          <RuleValue field={fieldOf(v.field_id)} value={v.value} />
        </li>
      ))}
      {rule.tag_ids.length ? (
        <li>
          Tags:{' '}
          {rule.tag_ids.map((id) => tags.data?.find((t) => t.id === id)?.name ?? `Tag ${id}`).join(', ')}
        </li>
      ) : null}
    </ul>
  );
}

/** A row's Edit and Remove buttons, named after the row ("Remove Scanner"). */
function EditRemove({ name, onEdit, onRemove }: { name: string; onEdit: () => void; onRemove: () => void }) {
  return (
    <>
      <RowAction label={`Edit ${name}`} onClick={onEdit}>
        Edit
      </RowAction>
      <RowAction label={`Remove ${name}`} danger onClick={onRemove}>
        Remove
      </RowAction>
    </>
  );
}

/**
 * The Edit dialog (the row's form) and the Remove confirmation of a row of the sources or the
 * rules list, open while `editing` or `removing` holds a row; `children` says what removal does.
 */
function RowDialogs<T extends { id: number; name: string }>({
  noun,
  editing,
  setEditing,
  form,
  removing,
  setRemoving,
  remove,
  removed,
  children,
}: {
  noun: 'source' | 'rule';
  editing: T | null;
  setEditing: (row: T | null) => void;
  form: (row: T, done: () => void) => ReactNode;
  removing: T | null;
  setRemoving: (row: T | null) => void;
  remove: ConfirmedMutation<number>;
  removed: (row: T) => string;
  children: (row: T) => ReactNode;
}) {
  return (
    <>
      {editing ? (
        <Dialog title={`Edit ${editing.name}`} onClose={() => setEditing(null)} size="large">
          {form(editing, () => setEditing(null))}
        </Dialog>
      ) : null}
      {removing ? (
        <ConfirmMutationDialog
          title={`Remove this ${noun}?`}
          confirmLabel={`Remove ${noun}`}
          tone="danger"
          mutation={remove}
          value={removing.id}
          success={[`Intake ${noun} removed`, removed(removing)]}
          failure={`Failed to remove intake ${noun}!`}
          onClose={() => setRemoving(null)}
        >
          {children(removing)}
        </ConfirmMutationDialog>
      ) : null}
    </>
  );
}

/** How a source leaves what it takes: indexed, or unindexed for its owner or its group. */
function filedAs(source: TIntakeSource) {
  if (source.file_as === 'indexed') return 'Indexed';
  return source.unindexed_group
    ? `Unindexed for group ${source.unindexed_group.name}`
    : `Unindexed for ${source.owner.username}`;
}

/** Whom a dry run's rule would leave the file unindexed for ('—': it would index it). */
function leftFor(row: TDryRunRow) {
  if (row.unindexed_group) return `Group ${row.unindexed_group.name}`;
  return row.unindexed_user?.username ?? '—';
}

function where(source: TIntakeSource) {
  return source.kind === 'folder' ? source.settings.path : `${source.settings.user}@${source.settings.host}`;
}

/**
 * Intake: the sources files arrive from without the browser (watched folders, e-mail inboxes)
 * with their state, last error and counts; the rules that file what arrives, in the order they
 * are tried, with a dry run; and the recent arrivals with the rule that filed each.
 */
export function IntakePage() {
  const { canWrite } = useAreaAccess('fileControl');
  return (
    <>
      <PageHeader title="Intake">
        Files that arrive in a watched folder or an e-mail inbox are uploaded as their source's owner and
        filed by the first rule that matches them. Every arrival is in the audit trail with its source.
      </PageHeader>
      <SourcesSection canWrite={canWrite} />
      {canWrite ? <SourceForm /> : null}
      <RulesSection canWrite={canWrite} />
      {canWrite ? <RuleForm /> : null}
      <ArrivalsSection canWrite={canWrite} />
    </>
  );
}

function SourcesSection({ canWrite }: { canWrite: boolean }) {
  const sources = useIntakeSources();
  const remove = useDeleteSource();
  const [removing, setRemoving] = useState<TIntakeSource | null>(null);
  const [editing, setEditing] = useState<TIntakeSource | null>(null);
  useFailureToast(sources.error, sources.errorUpdatedAt, 'Failed to load intake sources');
  const items = sources.data?.items ?? [];
  return (
    <section aria-labelledby="intake-sources">
      <h2 id="intake-sources">Sources</h2>
      <QueryState
        query={sources}
        loadingText="Loading sources…"
        failedText="The intake sources could not be loaded"
        isEmpty={items.length === 0}
        empty={<p className="muted">No sources yet. Add a watched folder below.</p>}
      >
        <DataTable
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
          actions={canWrite}
        >
          {items.map((s) => (
            <tr key={s.id}>
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
              {canWrite ? (
                <td className="cell-actions">
                  <EditRemove name={s.name} onEdit={() => setEditing(s)} onRemove={() => setRemoving(s)} />
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      </QueryState>
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

function RulesSection({ canWrite }: { canWrite: boolean }) {
  const rules = useIntakeRules();
  const sources = useIntakeSources();
  const reorder = useReorderRules();
  const remove = useDeleteRule();
  const notify = useNotify();
  const [trying, setTrying] = useState(false);
  const [removing, setRemoving] = useState<TIntakeRule | null>(null);
  const [changing, setChanging] = useState<TIntakeRule | null>(null);
  const dry = useDryRun(trying);
  useFailureToast(rules.error, rules.errorUpdatedAt, 'Failed to load intake rules');
  useFailureToast(dry.error, dry.errorUpdatedAt, 'Failed to try the rules');
  const items = rules.data?.items ?? [];
  const move = (index: number, by: -1 | 1) => {
    const ids = items.map((r) => r.id);
    const [moved] = ids.splice(index, 1);
    if (moved === undefined) return;
    ids.splice(index + by, 0, moved);
    reorder.mutate(ids, {
      onSuccess: () => notify.success('Intake rules reordered'),
      onError: (error) => notify.notifyFailure('Failed to reorder intake rules!', error),
    });
  };
  return (
    <section aria-labelledby="intake-rules">
      <h2 id="intake-rules">Rules</h2>
      <p className="muted">Tried in this order; the first whose conditions all hold files the arrival.</p>
      <QueryState
        query={rules}
        loadingText="Loading rules…"
        failedText="The intake rules could not be loaded"
        isEmpty={items.length === 0}
        empty={<p className="muted">No rules: each source files into its own category.</p>}
      >
        <DataTable
          caption="Intake rules"
          columns={['#', 'Name', 'Rule', 'Values and tags', 'On']}
          actions={canWrite}
          busy={reorder.isPending}
        >
          {items.map((r, i) => (
            <tr key={r.id}>
              <td>{i + 1}</td>
              <td>{r.name}</td>
              <td>{r.summary}</td>
              <td>
                <RuleSets rule={r} sources={sources.data?.items ?? []} />
              </td>
              <td>{r.enabled ? 'Yes' : 'No'}</td>
              {canWrite ? (
                <td className="cell-actions">
                  {i > 0 ? (
                    <RowAction label={`Move ${r.name} up`} onClick={() => move(i, -1)}>
                      Up
                    </RowAction>
                  ) : null}
                  {i < items.length - 1 ? (
                    <RowAction label={`Move ${r.name} down`} onClick={() => move(i, 1)}>
                      Down
                    </RowAction>
                  ) : null}
                  <EditRemove name={r.name} onEdit={() => setChanging(r)} onRemove={() => setRemoving(r)} />
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      </QueryState>
      <div className="toolbar">
        <button
          type="button"
          className="button button--ghost"
          onClick={() => (trying ? void dry.refetch() : setTrying(true))}
          disabled={dry.isFetching}
        >
          {dry.isFetching ? 'Trying…' : 'Try the rules on the last 50 arrivals'}
        </button>
      </div>
      {trying && dry.data ? (
        <DataTable
          caption="What the rules would do"
          columns={['Arrived', 'File', 'Rule', 'Files into', 'Leaves unindexed for', 'Starts']}
        >
          {dry.data.items.map((row) => (
            <tr key={row.arrival.id}>
              <td>
                <Timestamp iso={row.arrival.created_at} />
              </td>
              <td>{row.arrival.file_name}</td>
              <td>
                {row.rule?.name ?? 'No rule'}
                {row.text_unknown ? ' (its text is not read yet)' : ''}
              </td>
              <td>{row.category?.name ?? "The source's category"}</td>
              <td>{leftFor(row)}</td>
              <td>{row.workflow?.name ?? '—'}</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      <RowDialogs
        noun="rule"
        editing={changing}
        setEditing={setChanging}
        form={(r, done) => <RuleForm rule={r} onDone={done} />}
        removing={removing}
        setRemoving={setRemoving}
        remove={remove}
        removed={(r) => `${r.name} no longer files arrivals.`}
      >
        {(r) => `"${r.summary}" will no longer be tried. What it filed stays where it is.`}
      </RowDialogs>
    </section>
  );
}

function ArrivalsSection({ canWrite }: { canWrite: boolean }) {
  const [page, setPage] = useState(1);
  const arrivals = useIntakeArrivals(page);
  const retry = useRetryArrival();
  const notify = useNotify();
  useFailureToast(arrivals.error, arrivals.errorUpdatedAt, 'Failed to load arrivals');
  const items = arrivals.data?.items ?? [];
  const paging = pagingOf(arrivals.data, 'arrivals', setPage, arrivals.isFetching);
  return (
    <section aria-labelledby="intake-arrivals">
      <h2 id="intake-arrivals">Recent arrivals</h2>
      <QueryState
        query={arrivals}
        loadingText="Loading arrivals…"
        failedText="The arrivals could not be loaded"
        isEmpty={items.length === 0}
        empty={<p className="muted">Nothing has arrived yet.</p>}
      >
        <DataTable
          caption="Recent arrivals"
          columns={['Arrived', 'File', 'Source', 'Status', 'Filed by', 'Reason']}
          actions={canWrite}
          busy={arrivals.isFetching}
        >
          {items.map((a) => (
            <tr key={a.id}>
              <td>
                <Timestamp iso={a.created_at} />
              </td>
              <td>{a.file ? <a href={`/files/${a.file.id}`}>{a.file.name}</a> : a.file_name}</td>
              <td>{a.source?.name ?? '—'}</td>
              <td>{a.status === 'taken' ? 'Taken' : 'Failed'}</td>
              <td>{a.rule?.name ?? (a.ruled ? 'No rule' : a.status === 'taken' ? 'Waiting' : '—')}</td>
              <td>{a.reason ?? '—'}</td>
              {canWrite ? (
                <td className="cell-actions">
                  {a.status === 'failed' ? (
                    <RowAction
                      label={`Take ${a.file_name} again`}
                      onClick={() =>
                        retry.mutate(a.id, {
                          onSuccess: ({ message }) => notify.success(message ?? 'It will be taken again'),
                          onError: (error) => notify.notifyFailure('Failed to take it again!', error),
                        })
                      }
                    >
                      Retry
                    </RowAction>
                  ) : null}
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
        {paging ? <Pagination {...paging} /> : null}
      </QueryState>
    </section>
  );
}
