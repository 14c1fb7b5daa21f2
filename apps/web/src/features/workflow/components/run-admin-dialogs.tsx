import type { TRun } from '@quire/contract';
import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Field } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { useActiveWorkflows } from '../api/get-workflows';
import { useInitiateWorkflow } from '../api/initiate-workflow';
import { useManualTrigger } from '../api/manual-trigger';

/** File Control: put a stuck file in another step, or cancel its run (audited). */
export function MoveRunDialog({
  fileId,
  fileName,
  run,
  onClose,
}: {
  fileId: number;
  fileName: string;
  run: TRun;
  onClose: () => void;
}) {
  const id = useId();
  const notify = useNotify();
  const trigger = useManualTrigger();
  const step = run.current_step;
  const [target, setTarget] = useState<string>(
    String(run.steps.find((s) => s.id !== step?.id)?.id ?? step?.id ?? ''),
  );
  const [comment, setComment] = useState('');
  if (!step) return null;
  const act = (action: 'move' | 'cancel') =>
    trigger.mutate(
      {
        file_id: fileId,
        workflow_step_id: step.id,
        action,
        comment: comment.trim(),
        ...(action === 'move' ? { to_step_id: Number(target) } : {}),
      },
      {
        onSuccess: (stage) => {
          notify.success(
            action === 'move' ? 'File moved' : 'Run cancelled',
            action === 'move'
              ? `${fileName} is now in ${stage.run?.current_step?.name}.`
              : `${fileName} no longer runs ${run.workflow.name}.`,
          );
          onClose();
        },
        onError: (error) =>
          notify.notifyFailure(
            action === 'move' ? 'Failed to move file!' : 'Failed to cancel the run!',
            error,
          ),
      },
    );
  return (
    <Dialog
      title="Move a stuck file"
      description={`${fileName} is in ${step.name}. The move is recorded in its history and the audit trail.`}
      onClose={onClose}
      busy={trigger.isPending}
    >
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          act('move');
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-step`}>Move to</label>
          <select id={`${id}-step`} value={target} onChange={(e) => setTarget(e.target.value)}>
            {run.steps.map((s) => (
              <option key={s.id} value={s.id}>
                {s.position}. {s.name}
              </option>
            ))}
          </select>
        </div>
        <Field
          label={
            <>
              Reason <span className="muted">(optional)</span>
            </>
          }
        >
          {(control) => (
            <textarea {...control} rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
          )}
        </Field>
        <div className="form-actions">
          <Button variant="ghost" onClick={onClose} disabled={trigger.isPending}>
            Close
          </Button>
          <Button variant="danger" disabled={trigger.isPending} onClick={() => act('cancel')}>
            Cancel the run
          </Button>
          <PendingButton pending={trigger.isPending} pendingLabel="Moving…">
            Move file
          </PendingButton>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * Start an active workflow on chosen files (a file list's bulk action, the workflow panel).
 * `onStarted` gets how many started: after an upload the caller goes on to `/unindexed-files`.
 */
export function StartWorkflowDialog({
  fileIds,
  title = 'Start a workflow',
  onClose,
  onStarted,
}: {
  fileIds: number[];
  title?: string;
  onClose: () => void;
  onStarted?: (started: number) => void;
}) {
  const id = useId();
  const notify = useNotify();
  const workflows = useActiveWorkflows();
  const initiate = useInitiateWorkflow();
  const [chosen, setChosen] = useState('');
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    initiate.mutate(
      { workflow_id: Number(chosen), file_ids: fileIds },
      {
        onSuccess: (result) => {
          const first = result.started[0];
          notify.success(
            'Workflow started',
            result.started.length === 1 && first
              ? `The file is now in ${first.step.name}.`
              : `${result.started.length} files are now in ${first?.step.name}.`,
          );
          onStarted?.(result.started.length);
          onClose();
        },
        onError: (error) => notify.notifyFailure('Failed to start workflow!', error),
      },
    );
  };
  const list = workflows.data ?? [];
  return (
    <Dialog title={title} onClose={onClose} busy={initiate.isPending}>
      <form className="form" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={`${id}-workflow`}>Workflow</label>
          <select id={`${id}-workflow`} value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">
              {workflows.isPending ? 'Loading…' : list.length ? 'Choose a workflow' : 'No active workflow'}
            </option>
            {list.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        <DialogActions
          onCancel={onClose}
          pending={initiate.isPending}
          pendingLabel="Starting…"
          disabled={!chosen}
        >
          Start
        </DialogActions>
      </form>
    </Dialog>
  );
}
