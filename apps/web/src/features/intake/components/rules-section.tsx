import type { TCategoryField, TDryRunRow, TIntakeRule, TIntakeSource } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { DataTable, QueryTable, RowAction, Timestamp } from '../../../components/data-table';
import { useChoiceOptions } from '../../../components/metadata-input';
import { useNotify } from '../../../components/notifications/notification-context';
import { useFailureToast } from '../../../lib/use-failure-toast';
import {
  useCategoryFields,
  useCategoryTags,
  useDeleteRule,
  useDryRun,
  useIntakeRules,
  useIntakeSources,
  useReorderRules,
} from '../api/intake';
import { EditRemove, RowDialogs } from './row-dialogs';
import { RuleForm } from './rule-form';

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

/** Whom a dry run's rule would leave the file unindexed for ('—': it would index it). */
function leftFor(row: TDryRunRow) {
  if (row.unindexed_group) return `Group ${row.unindexed_group.name}`;
  return row.unindexed_user?.username ?? '—';
}

/** The rules that file what arrives, in the order they are tried, with a dry run; each may be moved, edited or removed. */
export function RulesSection({ canWrite }: { canWrite: boolean }) {
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
      <QueryTable
        query={rules}
        loadingText="Loading rules…"
        failedText="The intake rules could not be loaded"
        rows={items}
        empty={<p className="muted">No rules: each source files into its own category.</p>}
        caption="Intake rules"
        columns={['#', 'Name', 'Rule', 'Values and tags', 'On']}
        busy={reorder.isPending}
        cells={(r, i) => (
          <>
            <td>{i + 1}</td>
            <td>{r.name}</td>
            <td>{r.summary}</td>
            <td>
              <RuleSets rule={r} sources={sources.data?.items ?? []} />
            </td>
            <td>{r.enabled ? 'Yes' : 'No'}</td>
          </>
        )}
        rowActions={
          canWrite &&
          ((r, i) => (
            <>
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
            </>
          ))
        }
      />
      <div className="toolbar">
        <Button
          variant="ghost"
          onClick={() => (trying ? void dry.refetch() : setTrying(true))}
          disabled={dry.isFetching}
        >
          {dry.isFetching ? 'Trying…' : 'Try the rules on the last 50 arrivals'}
        </Button>
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
