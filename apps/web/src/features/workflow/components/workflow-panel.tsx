import type { TTransition } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { Timestamp } from '../../../components/data-table';
import { ValueDetails } from '../../../components/value-details';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useFileStage } from '../api/folder-workflow-stage';
import { TRANSITION_WORDS } from '../lib/words';
import { type Decision, DecisionDialog } from './decision-dialog';
import { MoveRunDialog, StartWorkflowDialog } from './run-admin-dialogs';
import { StatusBadge } from './status-badge';

function HistoryItem({ t }: { t: TTransition }) {
  const stayed = t.from_step && t.to_step && t.from_step.id === t.to_step.id;
  const where =
    t.kind === 'started'
      ? `into ${t.to_step?.name}`
      : stayed
        ? `at ${t.from_step?.name}`
        : `${t.from_step ? `from ${t.from_step.name} ` : ''}${t.to_step ? `to ${t.to_step.name}` : '(end)'}`;
  return (
    <li className="timeline__item">
      <div>
        <strong>{TRANSITION_WORDS[t.kind]}</strong> {where}
        <span className="muted"> · {t.acted_by?.name ?? 'automatically'}</span>
      </div>
      <div className="cell-muted">
        <Timestamp iso={t.created_at} show="relative" /> · {t.workflow.name}
      </div>
      {t.comment ? <p className="timeline__comment">“{t.comment}”</p> : null}
      {t.values.length ? <ValueDetails values={t.values} className="timeline__values" /> : null}
    </li>
  );
}

/**
 * A file's workflow, for the file detail page: the run's workflow and step, who must act and
 * what each did, the due time, Approve / Reject for an assignee, Move for File Control, Start
 * when no run is going, and the history of every run. Mount it with the file's id.
 */
export function WorkflowPanel({ fileId, canStart = true }: { fileId: number; canStart?: boolean }) {
  const stage = useFileStage(fileId);
  const [open, setOpen] = useState<Decision | 'move' | 'start' | null>(null);
  useFailureToast(stage.error, stage.errorUpdatedAt, 'Failed to load the workflow');
  const data = stage.data;
  const run = data?.run ?? null;
  const running = run?.status === 'running';

  return (
    <section className="card workflow-panel" aria-labelledby={`workflow-panel-${fileId}`}>
      <div className="card__header">
        <h2 id={`workflow-panel-${fileId}`}>Workflow</h2>
        {run ? <StatusBadge status={run.status} /> : null}
      </div>
      {stage.isPending ? (
        <p className="muted" role="status">
          Loading…
        </p>
      ) : !data ? (
        <p className="muted">The workflow could not be loaded.</p>
      ) : (
        <>
          {run ? (
            <div className="workflow-panel__run">
              <p>
                <strong>{run.workflow.name}</strong>
                {run.current_step ? (
                  <>
                    {' '}
                    · step {run.current_step.position} of {run.steps.length}:{' '}
                    <strong>{run.current_step.name}</strong>
                  </>
                ) : null}
              </p>
              {running ? (
                <>
                  <p className="muted">
                    {run.due_at ? (
                      <>
                        Due <Timestamp iso={run.due_at} show="relative" />
                        {run.overdue ? <span className="badge badge--error">Overdue</span> : null}
                      </>
                    ) : (
                      'No due time'
                    )}
                  </p>
                  <ul className="workflow-panel__assignees" aria-label="Who must act">
                    {run.assignees.map((a) => (
                      <li key={a.user_id}>
                        {a.name}{' '}
                        <span
                          className={`badge ${a.status === 'approved' ? 'badge--success' : a.status === 'rejected' ? 'badge--error' : 'badge--neutral'}`}
                        >
                          {a.status === 'open' ? 'waiting' : a.status}
                        </span>
                      </li>
                    ))}
                  </ul>
                </>
              ) : null}
              <div className="page-actions">
                {run.can_act ? (
                  <>
                    <Button variant="primary" onClick={() => setOpen('approve')}>
                      Approve
                    </Button>
                    <Button variant="ghost" danger onClick={() => setOpen('reject')}>
                      Reject
                    </Button>
                  </>
                ) : null}
                {run.can_move ? (
                  <Button variant="ghost" onClick={() => setOpen('move')}>
                    Move or cancel
                  </Button>
                ) : null}
              </div>
            </div>
          ) : (
            <p className="muted">This file has not been through a workflow.</p>
          )}
          {canStart && !running ? (
            <div>
              <Button variant="ghost" onClick={() => setOpen('start')}>
                Start a workflow
              </Button>
            </div>
          ) : null}
          {data.history.length ? (
            <>
              <h3>History</h3>
              <ol className="timeline" aria-label="Workflow history, newest first">
                {data.history.map((t) => (
                  <HistoryItem key={t.id} t={t} />
                ))}
              </ol>
            </>
          ) : null}
        </>
      )}
      {run && (open === 'approve' || open === 'reject') ? (
        <DecisionDialog
          fileId={fileId}
          fileName={data?.file_name ?? ''}
          run={run}
          decision={open}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {run && open === 'move' ? (
        <MoveRunDialog
          fileId={fileId}
          fileName={data?.file_name ?? ''}
          run={run}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open === 'start' ? <StartWorkflowDialog fileIds={[fileId]} onClose={() => setOpen(null)} /> : null}
    </section>
  );
}
