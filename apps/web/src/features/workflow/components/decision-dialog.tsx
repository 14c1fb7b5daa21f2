import type { TRun, TWorkflowValue } from '@quire/contract';
import { useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Field } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { ApiError } from '../../../lib/api-error';
import { useManualTrigger } from '../api/manual-trigger';
import { parseValue, showValue, ValueInput } from './value-input';

export type Decision = 'approve' | 'reject';

/**
 * Approve or reject the step a file waits in: the step's form (its metadata, with defaults)
 * and a comment (required to reject).
 */
export function DecisionDialog({
  fileId,
  fileName,
  run,
  decision,
  onClose,
}: {
  fileId: number;
  fileName: string;
  run: TRun;
  decision: Decision;
  onClose: () => void;
}) {
  const notify = useNotify();
  const trigger = useManualTrigger();
  const step = run.current_step;
  const [comment, setComment] = useState('');
  const [values, setValues] = useState<Record<number, string>>(() =>
    Object.fromEntries(run.form.map((f) => [f.field_id, showValue(f.value)])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  if (!step) return null;
  const approve = decision === 'approve';

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (trigger.isPending) return;
    if (!approve && !comment.trim()) {
      setErrors({ comment: 'Say why you reject it' });
      return;
    }
    setErrors({});
    const filled = run.form
      .filter((f) => f.editable)
      .map((f) => ({
        field_id: f.field_id,
        value: parseValue(f.type, values[f.field_id] ?? '') as TWorkflowValue,
      }));
    trigger.mutate(
      {
        file_id: fileId,
        workflow_step_id: step.id,
        action: decision,
        comment: comment.trim(),
        ...(filled.length ? { values: filled } : {}),
      },
      {
        onSuccess: (stage) => {
          const where = stage.run?.current_step?.name;
          notify.success(
            approve ? 'Step approved' : 'Step rejected',
            stage.run?.status === 'running'
              ? where === step.name
                ? `${fileName} waits for the other assignees of ${step.name}.`
                : `${fileName} moved to ${where}.`
              : `The workflow of ${fileName} is ${stage.run?.status}.`,
          );
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError) {
            // body.comment, body.values (a required field), body.values.<i>.value (the i-th value sent).
            const mapped: Record<string, string> = {};
            for (const { path, message } of error.errors) {
              const at = path.replace(/^body\./, '');
              const index = at.match(/^values\.(\d+)\./)?.[1];
              const key = index !== undefined ? `field:${filled[Number(index)]?.field_id}` : at;
              mapped[key] ??= message;
            }
            setErrors(mapped);
          }
          notify.notifyFailure(approve ? 'Failed to approve step!' : 'Failed to reject step!', error);
        },
      },
    );
  };

  return (
    <Dialog
      title={`${approve ? 'Approve' : 'Reject'} ${step.name}`}
      description={`${fileName} · ${run.workflow.name}`}
      onClose={onClose}
      busy={trigger.isPending}
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={trigger.isPending}>
        {run.form.length ? (
          <fieldset className="form-fieldset">
            <legend>The step's form</legend>
            {errors.values ? <p className="field__error">{errors.values}</p> : null}
            {run.form.map((f) => (
              <Field
                key={f.field_id}
                label={
                  <>
                    {f.name}
                    {f.required ? null : <span className="muted"> (optional)</span>}
                  </>
                }
                error={errors[`field:${f.field_id}`]}
              >
                {(control) => (
                  <ValueInput
                    field={f}
                    control={control}
                    value={values[f.field_id] ?? ''}
                    onChange={(raw) => setValues((v) => ({ ...v, [f.field_id]: raw }))}
                    disabled={!f.editable}
                  />
                )}
              </Field>
            ))}
          </fieldset>
        ) : null}
        <Field
          label={<>Comment {approve ? <span className="muted">(optional)</span> : null}</>}
          error={errors.comment}
        >
          {(control) => (
            <textarea {...control} rows={3} value={comment} onChange={(e) => setComment(e.target.value)} />
          )}
        </Field>
        <DialogActions
          onCancel={onClose}
          pending={trigger.isPending}
          pendingLabel={approve ? 'Approving…' : 'Rejecting…'}
          variant={approve ? 'primary' : 'danger'}
        >
          {approve ? 'Approve' : 'Reject'}
        </DialogActions>
      </form>
    </Dialog>
  );
}
