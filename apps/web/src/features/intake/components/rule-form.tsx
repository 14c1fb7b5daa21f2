import type { TIntakeRule, TIntakeRuleInput } from '@quire/contract';
import { type FormEvent, useState } from 'react';
import { DialogActions } from '../../../components/dialog-actions';
import { FormField, SelectField } from '../../../components/form-field';
import { MetadataInput, toRaw, toWire } from '../../../components/metadata-input';
import { MultiPicker } from '../../../components/multi-picker';
import { useNotify } from '../../../components/notifications/notification-context';
import {
  useCategoryFields,
  useCategoryTags,
  useIntakeSources,
  useSaveRule,
  useWorkflowChoices,
} from '../api/intake';
import { readSubmit, saveIntake } from '../lib/intake-form';
import { CategoryOptions } from './choice-options';
import { checkUnindexedFor, type FiledAs, UnindexedForChoice, unindexedForOf } from './unindexed-for';

/**
 * Adds a rule (tried after the others), or changes `rule` in place: its conditions (source,
 * sender, file name, words in the text), where it files what matches, the metadata values and
 * tags it sets there (fields and tags of that category: the one chosen, else the chosen
 * source's) and the workflow it starts. Each value is drawn by the shared MetadataInput, as on
 * a file's metadata form.
 */
export function RuleForm({ rule, onDone }: { rule?: TIntakeRule; onDone?: () => void } = {}) {
  const notify = useNotify();
  const sources = useIntakeSources();
  const workflows = useWorkflowChoices();
  const save = useSaveRule();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sourceId, setSourceId] = useState(rule?.source_ids[0] ? String(rule.source_ids[0]) : '');
  const [categoryId, setCategoryId] = useState(rule?.category ? String(rule.category.id) : '');
  const [fieldIds, setFieldIds] = useState<number[]>(() => (rule?.values ?? []).map((v) => v.field_id));
  const [raw, setRaw] = useState<Record<number, string>>(() =>
    Object.fromEntries((rule?.values ?? []).map((v) => [v.field_id, toRaw(v.value)])),
  );
  const [tagIds, setTagIds] = useState<number[]>(rule?.tag_ids ?? []);
  const initialFiledAs: FiledAs = rule?.unindexed_user ? 'person' : rule?.unindexed_group ? 'group' : 'index';
  // Left unindexed, the file gets no values or tags (they are set when it is indexed).
  const [indexes, setIndexes] = useState(initialFiledAs === 'index');
  const [added, setAdded] = useState(0);
  const editing = rule !== undefined;
  const sourceCategory = (sources.data?.items ?? []).find((s) => String(s.id) === sourceId)?.category.id;
  // The category the rule files into: its values and tags are that category's.
  const target = categoryId ? Number(categoryId) : (sourceCategory ?? null);
  const meta = useCategoryFields(target);
  const tags = useCategoryTags(target);
  const fields = target === null ? [] : (meta.data?.fields ?? []);
  const chosenFields = fieldIds.flatMap((id) => fields.filter((f) => f.field.id === id));
  const clearActions = () => {
    setFieldIds([]);
    setRaw({});
    setTagIds([]);
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const { form, data, text } = readSubmit(e);
    if (save.isPending) return;
    const filed = unindexedForOf(data);
    const found = { ...(text('name') ? {} : { name: 'Required' }), ...checkUnindexedFor(filed) };
    if (Object.keys(found).length) {
      setErrors(found);
      notify.error('Please check the highlighted fields.');
      return;
    }
    const body: TIntakeRuleInput = {
      name: text('name'),
      enabled: editing ? data.get('enabled') === 'on' : true,
      source_ids: text('source_id') ? [Number(text('source_id'))] : [],
      sender_contains: text('sender_contains'),
      name_glob: text('name_glob'),
      text_words: text('text_words')
        .split(',')
        .map((w) => w.trim())
        .filter(Boolean),
      category_id: text('category_id') ? Number(text('category_id')) : null,
      values: indexes
        ? chosenFields.map((f) => ({
            field_id: f.field.id,
            value: toWire(f.field.type, raw[f.field.id] ?? ''),
          }))
        : [],
      tag_ids: indexes ? tagIds : [],
      workflow_id: text('workflow_id') ? Number(text('workflow_id')) : null,
      unindexed_user_id: filed.userId,
      unindexed_group_id: filed.groupId,
    };
    setErrors({});
    saveIntake(
      save,
      { id: rule?.id ?? null, body },
      {
        notify,
        form,
        told: (saved) => [editing ? 'Intake rule changed' : 'Intake rule added', saved.summary],
        failure: editing ? 'Failed to change intake rule!' : 'Failed to add intake rule!',
        onDone,
        again: () => {
          setSourceId('');
          setCategoryId('');
          setIndexes(true);
          setAdded((n) => n + 1);
          clearActions();
        },
        setErrors,
        errorsOf: (error) =>
          Object.fromEntries(
            error.errors.map((fe) => [fe.path.replace(/^body\./, '').split('.')[0], fe.message]),
          ),
      },
    );
  };

  return (
    <form
      className={editing ? 'form' : 'form card'}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={editing ? undefined : 'rule-form-title'}
      aria-label={editing ? `Change ${rule.name}` : undefined}
    >
      {editing ? null : <h2 id="rule-form-title">Add a rule</h2>}
      <div className="form-grid">
        <FormField label="Name" name="name" error={errors.name} maxLength={100} defaultValue={rule?.name} />
        {editing ? (
          <label className="checkbox">
            <input type="checkbox" name="enabled" defaultChecked={rule.enabled} /> On (tried on what arrives)
          </label>
        ) : null}
        <SelectField
          label="From"
          name="source_id"
          error={errors.source_ids}
          value={sourceId}
          onChange={(e) => {
            setSourceId(e.target.value);
            if (!categoryId) clearActions();
          }}
        >
          <option value="">Any source</option>
          {(sources.data?.items ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </SelectField>
        <FormField
          label="File name (optional)"
          name="name_glob"
          error={errors.name_glob}
          hint="Like invoice-*.pdf"
          defaultValue={rule?.name_glob}
        />
        <FormField
          label="Sender contains (optional)"
          name="sender_contains"
          error={errors.sender_contains}
          defaultValue={rule?.sender_contains}
        />
        <FormField
          label="Words in the text (optional)"
          name="text_words"
          error={errors.text_words}
          defaultValue={rule?.text_words.join(', ')}
          hint="Comma-separated; all must be there. Read once the text is extracted."
        />
        <SelectField
          label="File into"
          name="category_id"
          error={errors.category_id}
          value={categoryId}
          onChange={(e) => {
            setCategoryId(e.target.value);
            clearActions();
          }}
        >
          <option value="">The source's category</option>
          <CategoryOptions />
        </SelectField>
        <UnindexedForChoice
          key={added}
          legend="Then the file is"
          kinds={['index', 'person', 'group']}
          initial={{
            filedAs: initialFiledAs,
            userId: rule?.unindexed_user?.id ?? null,
            groupId: rule?.unindexed_group?.id ?? null,
          }}
          errors={errors}
          onChange={(kind) => setIndexes(kind === 'index')}
        />
        {!indexes ? null : target === null ? (
          <p className="muted">Choose where it files into (or its source) to set metadata values and tags.</p>
        ) : (
          <>
            <MultiPicker
              label="Metadata values to set"
              name="values"
              options={fields.map((f) => ({ id: f.field.id, label: f.field.name }))}
              selected={fieldIds}
              onChange={setFieldIds}
              loading={meta.isPending}
              emptyText="This category has no metadata fields."
              error={errors.values}
            />
            {chosenFields.map((f) => (
              <MetadataInput
                key={f.field.id}
                field={{ ...f, required: false }}
                value={raw[f.field.id] ?? ''}
                onChange={(v) => setRaw((r) => ({ ...r, [f.field.id]: v }))}
                error={undefined}
                disabled={save.isPending}
              />
            ))}
            <MultiPicker
              label="Tags"
              name="tag_ids"
              options={(tags.data ?? []).map((t) => ({ id: t.id, label: t.name }))}
              selected={tagIds}
              onChange={setTagIds}
              loading={tags.isPending}
              emptyText="This category has no tags."
              error={errors.tag_ids}
            />
          </>
        )}
        <SelectField
          label="Start workflow"
          name="workflow_id"
          error={errors.workflow_id}
          defaultValue={rule?.workflow ? String(rule.workflow.id) : ''}
        >
          <option value="">None</option>
          {(workflows.data ?? []).map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </SelectField>
      </div>
      <DialogActions
        pending={save.isPending}
        pendingLabel={editing ? 'Saving…' : 'Adding…'}
        onCancel={onDone}
      >
        {editing ? 'Save rule' : 'Add rule'}
      </DialogActions>
    </form>
  );
}
