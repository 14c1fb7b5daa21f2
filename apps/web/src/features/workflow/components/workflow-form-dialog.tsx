import { zodResolver } from '@hookform/resolvers/zod';
import { type TWorkflow, ZSaveWorkflowBody } from '@quire/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Field } from '../../../components/form-field';
import { FormMultiPicker } from '../../../components/form-multi-picker';
import { NamedFormDialog } from '../../../components/named-form-dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { fieldBinder, setServerErrors, withEmptyMessages } from '../../../lib/form';
import { useFoldersWithWorkflows } from '../api/folders-workflow';
import { useSaveWorkflow } from '../api/save-workflow';
import { whatStartsIt } from '../lib/words';

const FIELDS = ['name', 'description', 'status', 'category_ids'] as const;
type Input = z.input<typeof ZSaveWorkflowBody>;
const resolver = withEmptyMessages(zodResolver(ZSaveWorkflowBody), { name: 'Enter a name for the workflow' });

/** Create a workflow, or change its name, description, status and the categories it serves. */
export function WorkflowFormDialog({
  workflow,
  onClose,
  onSaved,
}: {
  workflow?: TWorkflow;
  onClose: () => void;
  onSaved?: (saved: TWorkflow) => void;
}) {
  const notify = useNotify();
  const folders = useFoldersWithWorkflows();
  const save = useSaveWorkflow();
  const form = useForm<Input, unknown, z.output<typeof ZSaveWorkflowBody>>({
    resolver,
    defaultValues: {
      ...(workflow ? { id: workflow.id } : {}),
      name: workflow?.name ?? '',
      description: workflow?.description ?? '',
      status: workflow?.status ?? 'draft',
      category_ids: workflow?.categories.map((c) => c.id) ?? [],
    },
  });
  const bind = fieldBinder(form);

  const onSubmit = form.handleSubmit((body) => {
    if (save.isPending) return;
    save.mutate(body, {
      onSuccess: (saved) => {
        if (workflow && workflow.status !== 'active' && saved.status === 'active')
          notify.success('Workflow activated', whatStartsIt(saved));
        else notify.success(workflow ? 'Workflow updated' : 'Workflow created', `${saved.name} was saved.`);
        onSaved?.(saved);
        onClose();
      },
      onError: (error) => {
        setServerErrors(form, error, FIELDS);
        notify.notifyFailure('Failed to create/update workflow!', error);
      },
    });
  });

  const options = (folders.data ?? []).map((c) => ({
    id: c.id,
    label: c.name,
    detail: c.workflow && c.workflow.id !== workflow?.id ? `now: ${c.workflow.name}` : undefined,
  }));

  return (
    <NamedFormDialog
      title={workflow ? `Edit ${workflow.name}` : 'New workflow'}
      onClose={onClose}
      pending={save.isPending}
      onSubmit={onSubmit}
      name={bind('name')}
      description={bind('description')}
      submitLabel={workflow ? 'Save changes' : 'Create workflow'}
    >
      {workflow ? (
        <Field
          label="Status"
          error={bind('status').error}
          hint="Only an active workflow starts on files. Activating it gives the first step a trigger on indexing, unless a step has one, so it starts on files indexed into the categories it serves."
        >
          {(control) => (
            <select {...control} {...form.register('status')}>
              <option value="draft">Draft</option>
              <option value="active">Active</option>
            </select>
          )}
        </Field>
      ) : null}
      <FormMultiPicker
        control={form.control}
        name="category_ids"
        label="Categories it serves"
        options={options}
        placeholder="Type a category's name"
        emptyText="No categories yet."
        loading={folders.isPending}
      />
    </NamedFormDialog>
  );
}
