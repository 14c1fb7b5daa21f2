import { zodResolver } from '@hookform/resolvers/zod';
import { type TWorkflow, ZSaveWorkflowBody } from '@quire/contract';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Field } from '../../../components/form-field';
import { NamedFormDialog } from '../../../components/named-form-dialog';
import { withEmptyMessages } from '../../../lib/form';
import { useFoldersWithWorkflows } from '../api/folders-workflow';
import { useSaveWorkflow } from '../api/save-workflow';
import { whatStartsIt } from '../lib/words';

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
  const options = (folders.data ?? []).map((c) => ({
    id: c.id,
    label: c.name,
    detail: c.workflow && c.workflow.id !== workflow?.id ? `now: ${c.workflow.name}` : undefined,
  }));

  return (
    <NamedFormDialog
      noun="workflow"
      editing={workflow?.name}
      createLabel="Create workflow"
      onClose={onClose}
      form={form}
      save={save}
      submit={{
        fields: ['status'],
        failure: 'Failed to create/update workflow!',
        created: (saved) => ['Workflow created', `${saved.name} was saved.`],
        edited: (saved) =>
          workflow?.status !== 'active' && saved.status === 'active'
            ? ['Workflow activated', whatStartsIt(saved)]
            : ['Workflow updated', `${saved.name} was saved.`],
        ...(onSaved ? { onSaved } : {}),
      }}
      beforePicker={
        workflow ? (
          <Field
            label="Status"
            error={form.formState.errors.status?.message}
            hint="Only an active workflow starts on files. Activating it gives the first step a trigger on indexing, unless a step has one, so it starts on files indexed into the categories it serves."
          >
            {(control) => (
              <select {...control} {...form.register('status')}>
                <option value="draft">Draft</option>
                <option value="active">Active</option>
              </select>
            )}
          </Field>
        ) : null
      }
      picker={{
        name: 'category_ids',
        label: 'Categories it serves',
        options,
        placeholder: "Type a category's name",
        emptyText: 'No categories yet.',
        loading: folders.isPending,
      }}
    />
  );
}
