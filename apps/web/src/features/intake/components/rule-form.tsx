import type { TIntakeRuleInput } from '@quire/contract';
import { type FormEvent, useState } from 'react';
import { DialogActions } from '../../../components/dialog-actions';
import { FormField, SelectField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { ApiError } from '../../../lib/api-error';
import { useCategoryChoices, useIntakeSources, useSaveRule, useWorkflowChoices } from '../api/intake';

/**
 * Adds a rule (tried after the others): its conditions (source, sender, file name, words in
 * the text), where it files what matches and the workflow it starts. Metadata values and tags
 * are set through the API (PUT /api/intake/rules/{id}).
 */
export function RuleForm() {
  const notify = useNotify();
  const categories = useCategoryChoices();
  const sources = useIntakeSources();
  const workflows = useWorkflowChoices();
  const save = useSaveRule();
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (save.isPending) return;
    const form = e.currentTarget;
    const data = new FormData(form);
    const text = (k: string) => String(data.get(k) ?? '').trim();
    if (!text('name')) {
      setErrors({ name: 'Required' });
      notify.error('Please check the highlighted fields.');
      return;
    }
    const body: TIntakeRuleInput = {
      name: text('name'),
      enabled: true,
      source_ids: text('source_id') ? [Number(text('source_id'))] : [],
      sender_contains: text('sender_contains'),
      name_glob: text('name_glob'),
      text_words: text('text_words')
        .split(',')
        .map((w) => w.trim())
        .filter(Boolean),
      category_id: text('category_id') ? Number(text('category_id')) : null,
      values: [],
      tag_ids: [],
      workflow_id: text('workflow_id') ? Number(text('workflow_id')) : null,
    };
    setErrors({});
    save.mutate(
      { id: null, body },
      {
        onSuccess: ({ message, data: rule }) => {
          notify.success(message ?? 'Intake rule added', rule.summary);
          form.reset();
        },
        onError: (error) => {
          if (error instanceof ApiError)
            setErrors(
              Object.fromEntries(
                error.errors.map((fe) => [fe.path.replace(/^body\./, '').split('.')[0], fe.message]),
              ),
            );
          notify.notifyFailure('Failed to add intake rule!', error);
        },
      },
    );
  };

  return (
    <form className="form card" onSubmit={onSubmit} noValidate aria-labelledby="rule-form-title">
      <h2 id="rule-form-title">Add a rule</h2>
      <div className="form-grid">
        <FormField label="Name" name="name" error={errors.name} maxLength={100} />
        <SelectField label="From" name="source_id" error={errors.source_ids} defaultValue="">
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
        />
        <FormField label="Sender contains (optional)" name="sender_contains" error={errors.sender_contains} />
        <FormField
          label="Words in the text (optional)"
          name="text_words"
          error={errors.text_words}
          hint="Comma-separated; all must be there. Read once the text is extracted."
        />
        <SelectField label="File into" name="category_id" error={errors.category_id} defaultValue="">
          <option value="">The source's category</option>
          {(categories.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.path}
            </option>
          ))}
        </SelectField>
        <SelectField label="Start workflow" name="workflow_id" error={errors.workflow_id} defaultValue="">
          <option value="">None</option>
          {(workflows.data ?? []).map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </SelectField>
      </div>
      <DialogActions pending={save.isPending} pendingLabel="Adding…">
        Add rule
      </DialogActions>
    </form>
  );
}
