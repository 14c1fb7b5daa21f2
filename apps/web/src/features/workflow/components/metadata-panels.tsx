import type { TWorkflow, TWorkflowValue } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { Field } from '../../../components/form-field';
import { MultiPicker } from '../../../components/multi-picker';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { useEditStepMetadata } from '../api/edit-step-metadata';
import { useSaveWorkflowMetadata } from '../api/save-workflow-metadata';
import { useSetStepDefaults } from '../api/set-step-defaults';
import type { StepPanelProps } from './detail-list';
import { parseValue, showValue, ValueInput } from './value-input';

interface Row {
  field_id: number;
  /** Step fields: the assignee may change it (otherwise shown only). */
  editable: boolean;
  required: boolean;
  /** The default, as the control's text. */
  value: string;
}

/** Picks fields in order and edits each row's flags and default value. */
function FieldRows({
  workflow,
  rows,
  onChange,
  flags,
  canWrite,
  label,
}: {
  workflow: TWorkflow;
  rows: Row[];
  onChange: (rows: Row[]) => void;
  flags: Array<'editable' | 'required'>;
  canWrite: boolean;
  label: string;
}) {
  const byId = new Map(workflow.field_choices.map((f) => [f.field_id, f]));
  return (
    <div className="stack">
      {canWrite ? (
        <MultiPicker
          label={label}
          options={workflow.field_choices.map((f) => ({ id: f.field_id, label: f.name, detail: f.type }))}
          selected={rows.map((r) => r.field_id)}
          onChange={(ids) =>
            onChange(
              ids.map(
                (id) =>
                  rows.find((r) => r.field_id === id) ?? {
                    field_id: id,
                    editable: true,
                    required: false,
                    value: '',
                  },
              ),
            )
          }
          placeholder="Type a field's name"
          emptyText="No metadata fields yet."
        />
      ) : null}
      {rows.length ? (
        <ol className="detail-list" aria-label={label}>
          {rows.map((row, i) => {
            const field = byId.get(row.field_id);
            if (!field) return null;
            const set = (patch: Partial<Row>) =>
              onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
            return (
              <li key={row.field_id} className="detail-list__item detail-list__item--form">
                <strong>{field.name}</strong>
                {flags.map((flag) => (
                  <label key={flag} className="checkbox">
                    <input
                      type="checkbox"
                      checked={row[flag]}
                      disabled={!canWrite}
                      onChange={(e) => set({ [flag]: e.target.checked })}
                    />{' '}
                    {flag === 'editable' ? 'Editable' : 'Required'}
                  </label>
                ))}
                <Field label={`Default for ${field.name}`}>
                  {(control) => (
                    <ValueInput
                      field={field}
                      control={control}
                      value={row.value}
                      onChange={(raw) => set({ value: raw })}
                      disabled={!canWrite}
                    />
                  )}
                </Field>
              </li>
            );
          })}
        </ol>
      ) : (
        <p className="muted">No fields.</p>
      )}
    </div>
  );
}

/** The fields the assignee fills at a step, and their defaults. */
export function StepMetadataPanel({ step, workflow, canWrite }: StepPanelProps) {
  const notify = useNotify();
  const editFields = useEditStepMetadata();
  const setDefaults = useSetStepDefaults();
  const [rows, setRows] = useState<Row[]>(() =>
    step.fields.map((f) => ({
      field_id: f.field_id,
      editable: f.editable,
      required: f.required,
      value: showValue(f.default_value),
    })),
  );
  const pending = editFields.isPending || setDefaults.isPending;
  const types = new Map(workflow.field_choices.map((f) => [f.field_id, f.type]));

  const onSave = () =>
    editFields.mutate(
      {
        workflow_step_id: step.id,
        fields: rows.map((r) => ({ field_id: r.field_id, editable: r.editable, required: r.required })),
      },
      {
        onSuccess: () =>
          setDefaults.mutate(
            {
              workflow_step_id: step.id,
              defaults: rows.map((r) => ({
                field_id: r.field_id,
                value: parseValue(types.get(r.field_id) ?? 'text', r.value) as TWorkflowValue,
              })),
            },
            {
              onSuccess: () =>
                notify.success('Step metadata saved', `${rows.length} field(s) on ${step.name}.`),
              onError: (error) => notify.notifyFailure('Failed to update metadata!', error),
            },
          ),
        onError: (error) => notify.notifyFailure('Failed to update metadata!', error),
      },
    );

  return (
    <div className="stack">
      <p className="muted">
        The form the assignee fills when deciding: its values stay with the run and can be tested by
        conditions.
      </p>
      <FieldRows
        workflow={workflow}
        rows={rows}
        onChange={setRows}
        flags={['editable', 'required']}
        canWrite={canWrite}
        label="Fields of this step"
      />
      {canWrite ? (
        <div className="form-actions">
          <PendingButton type="button" pending={pending} pendingLabel="Saving…" onClick={onSave}>
            Save step metadata
          </PendingButton>
        </div>
      ) : null}
    </div>
  );
}

/** The workflow metadata: fields a file carries through the whole run. */
export function WorkflowMetadataDialog({
  workflow,
  canWrite,
  onClose,
}: {
  workflow: TWorkflow;
  canWrite: boolean;
  onClose: () => void;
}) {
  const notify = useNotify();
  const save = useSaveWorkflowMetadata();
  const [rows, setRows] = useState<Row[]>(() =>
    workflow.fields.map((f) => ({
      field_id: f.field_id,
      editable: true,
      required: f.required,
      value: showValue(f.default_value),
    })),
  );
  const types = new Map(workflow.field_choices.map((f) => [f.field_id, f.type]));
  const onSave = () =>
    save.mutate(
      {
        id: workflow.id,
        fields: rows.map((r) => ({
          field_id: r.field_id,
          required: r.required,
          default_value: parseValue(types.get(r.field_id) ?? 'text', r.value),
        })),
      },
      {
        onSuccess: () => {
          notify.success('Workflow metadata saved', `${rows.length} field(s) on ${workflow.name}.`);
          onClose();
        },
        onError: (error) => notify.notifyFailure('Failed to update metadata!', error),
      },
    );
  return (
    <Dialog
      title="Workflow metadata"
      description="Values every run of this workflow carries, given when it starts."
      onClose={onClose}
      busy={save.isPending}
      size="large"
    >
      <div className="form">
        <FieldRows
          workflow={workflow}
          rows={rows}
          onChange={setRows}
          flags={['required']}
          canWrite={canWrite}
          label="Fields of the workflow"
        />
        <div className="form-actions">
          <Button variant="ghost" onClick={onClose} disabled={save.isPending}>
            {canWrite ? 'Cancel' : 'Close'}
          </Button>
          {canWrite ? (
            <PendingButton type="button" pending={save.isPending} pendingLabel="Saving…" onClick={onSave}>
              Save metadata
            </PendingButton>
          ) : null}
        </div>
      </div>
    </Dialog>
  );
}
