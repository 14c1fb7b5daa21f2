import type { TStep, TWorkflow } from '@quire/contract';
import { useState } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import { Button } from '../../../components/button';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { QueryState } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useDeleteStep } from '../api/delete-step';
import { useSaveStep } from '../api/save-step';
import { useSaveWorkflow } from '../api/save-workflow';
import { useWorkflow } from '../api/view-workflow';
import { AssigneesPanel } from '../components/assignees-panel';
import { ConditionsPanel } from '../components/conditions-panel';
import { DryRunDialog } from '../components/dry-run-dialog';
import { StepMetadataPanel, WorkflowMetadataDialog } from '../components/metadata-panels';
import { NotificationsPanel } from '../components/notifications-panel';
import { StatusBadge } from '../components/status-badge';
import { StepList } from '../components/step-list';
import { StepSettingsForm } from '../components/step-settings-form';
import { TriggersPanel } from '../components/triggers-panel';
import { WorkflowDiagram } from '../components/workflow-diagram';
import { WorkflowFormDialog } from '../components/workflow-form-dialog';
import { whatStartsIt } from '../lib/words';

type Open = 'edit' | 'metadata' | 'dry-run' | 'delete-step' | null;

function StepEditor({
  step,
  workflow,
  canWrite,
  onDelete,
}: {
  step: TStep;
  workflow: TWorkflow;
  canWrite: boolean;
  onDelete: () => void;
}) {
  const count = (n: number) => (n ? ` (${n})` : '');
  return (
    <Tabs className="tabs" key={step.id}>
      <TabList aria-label={`Parts of ${step.name}`} className="tabs__list">
        {(
          [
            ['step', 'Step', 0],
            ['assignees', 'Assignees', step.assignees.length],
            ['notifications', 'Notifications', step.notifications.length],
            ['conditions', 'Conditions', step.conditions.length],
            ['triggers', 'Triggers', step.triggers.length],
            ['metadata', 'Metadata', step.fields.length],
          ] as const
        ).map(([id, label, n]) => (
          <Tab key={id} id={id} className="tabs__tab">
            {label}
            {count(n)}
          </Tab>
        ))}
      </TabList>
      <TabPanel id="step" className="tabs__panel">
        <StepSettingsForm workflowId={workflow.id} step={step} steps={workflow.steps} canWrite={canWrite} />
        {canWrite ? (
          <div className="form-actions form-actions--start">
            <Button variant="ghost" danger onClick={onDelete}>
              Delete step
            </Button>
          </div>
        ) : null}
      </TabPanel>
      <TabPanel id="assignees" className="tabs__panel">
        <AssigneesPanel step={step} canWrite={canWrite} />
      </TabPanel>
      <TabPanel id="notifications" className="tabs__panel">
        <NotificationsPanel step={step} canWrite={canWrite} />
      </TabPanel>
      <TabPanel id="conditions" className="tabs__panel">
        <ConditionsPanel step={step} workflow={workflow} canWrite={canWrite} />
      </TabPanel>
      <TabPanel id="triggers" className="tabs__panel">
        <TriggersPanel step={step} workflow={workflow} canWrite={canWrite} />
      </TabPanel>
      <TabPanel id="metadata" className="tabs__panel">
        <StepMetadataPanel step={step} workflow={workflow} canWrite={canWrite} />
      </TabPanel>
    </Tabs>
  );
}

/** The workflow designer: its steps in order, each step's parts, the drawn routes and a dry run. */
export function WorkflowDesignerPage() {
  const id = Number(useParams().id);
  const notify = useNotify();
  const { canWrite } = useAreaAccess('fileControl');
  const workflow = useWorkflow(id);
  const saveWorkflow = useSaveWorkflow();
  const saveStep = useSaveStep();
  const deleteStep = useDeleteStep();
  const [selected, setSelected] = useState<number | 'new' | null>(null);
  const [open, setOpen] = useState<Open>(null);
  useFailureToast(workflow.error, workflow.errorUpdatedAt, 'Failed to load workflow');
  const w = workflow.data;
  const steps = [...(w?.steps ?? [])].sort((a, b) => a.position - b.position);
  const current = selected === 'new' ? null : (steps.find((s) => s.id === selected) ?? steps[0] ?? null);
  const adding = selected === 'new' || (w !== undefined && steps.length === 0 && canWrite);

  const moveStep = (step: TStep, position: number) =>
    w &&
    saveStep.mutate(
      { id: step.id, workflow_id: w.id, name: step.name, position },
      {
        onSuccess: () => notify.success('Step moved', `${step.name} is now step ${position}.`),
        onError: (error) => notify.notifyFailure('Failed to create/update step!', error),
      },
    );

  const setStatus = (status: 'draft' | 'active') =>
    w &&
    saveWorkflow.mutate(
      { id: w.id, name: w.name, status },
      {
        onSuccess: (saved) =>
          notify.success(
            status === 'active' ? 'Workflow activated' : 'Workflow back to draft',
            status === 'active' ? whatStartsIt(saved) : `${w.name} starts on no new files.`,
          ),
        onError: (error) => notify.notifyFailure('Failed to create/update workflow!', error),
      },
    );

  return (
    <>
      <PageHeader title={w?.name ?? 'Workflow'}>
        <Link to="/admin/workflows">← All workflows</Link>
      </PageHeader>
      <QueryState
        query={workflow}
        loadingText="Loading the workflow…"
        failedText="The workflow could not be loaded"
      >
        {w ? (
          <>
            <section className="card workflow-summary" aria-label="About this workflow">
              <div className="workflow-summary__facts">
                <StatusBadge status={w.status} />
                <span>
                  {w.step_count} step{w.step_count === 1 ? '' : 's'}
                </span>
                <span>{w.running_count} running</span>
                <span>
                  Serves:{' '}
                  {w.categories.map((c) => c.name).join(', ') || <span className="muted">no category</span>}
                </span>
              </div>
              {w.description ? <p>{w.description}</p> : null}
              <div className="page-actions">
                {canWrite ? (
                  <>
                    <Button variant="ghost" onClick={() => setOpen('edit')}>
                      Edit details
                    </Button>
                    {w.status === 'draft' ? (
                      <Button
                        variant="primary"
                        disabled={saveWorkflow.isPending}
                        onClick={() => setStatus('active')}
                      >
                        Activate
                      </Button>
                    ) : (
                      <Button
                        variant="ghost"
                        disabled={saveWorkflow.isPending}
                        onClick={() => setStatus('draft')}
                      >
                        Back to draft
                      </Button>
                    )}
                  </>
                ) : (
                  <span className="badge badge--neutral">Read only</span>
                )}
                <Button variant="ghost" onClick={() => setOpen('metadata')}>
                  Workflow metadata ({w.fields.length})
                </Button>
                <Button variant="ghost" disabled={steps.length === 0} onClick={() => setOpen('dry-run')}>
                  Dry run
                </Button>
              </div>
            </section>

            <div className="workflow-layout">
              <section className="card" aria-labelledby="steps-heading">
                <div className="card__header">
                  <h2 id="steps-heading">Steps</h2>
                  {canWrite ? (
                    <Button variant="ghost" small onClick={() => setSelected('new')}>
                      Add step
                    </Button>
                  ) : null}
                </div>
                <StepList
                  steps={steps}
                  selected={current?.id ?? null}
                  onSelect={setSelected}
                  onMove={moveStep}
                  canWrite={canWrite}
                  busy={saveStep.isPending}
                />
              </section>
              <section
                className="card"
                aria-label={adding ? 'New step' : current ? `Step ${current.name}` : 'Step'}
              >
                {adding && canWrite ? (
                  <>
                    <h2>New step</h2>
                    <StepSettingsForm
                      workflowId={w.id}
                      steps={steps}
                      canWrite
                      onSaved={(saved) => setSelected(saved.id)}
                      {...(steps.length ? { onCancel: () => setSelected(null) } : {})}
                    />
                  </>
                ) : current ? (
                  <>
                    <h2>
                      {current.position}. {current.name}
                    </h2>
                    <StepEditor
                      step={current}
                      workflow={w}
                      canWrite={canWrite}
                      onDelete={() => setOpen('delete-step')}
                    />
                  </>
                ) : (
                  <p className="muted">This workflow has no steps.</p>
                )}
              </section>
            </div>

            <section className="card" aria-labelledby="diagram-heading">
              <h2 id="diagram-heading">Routes</h2>
              <WorkflowDiagram steps={steps} />
            </section>

            {open === 'edit' ? <WorkflowFormDialog workflow={w} onClose={() => setOpen(null)} /> : null}
            {open === 'metadata' ? (
              <WorkflowMetadataDialog workflow={w} canWrite={canWrite} onClose={() => setOpen(null)} />
            ) : null}
            {open === 'dry-run' ? <DryRunDialog workflow={w} onClose={() => setOpen(null)} /> : null}
            {open === 'delete-step' && current ? (
              <ConfirmDeleteDialog
                noun="step"
                name={current.name}
                remove={deleteStep}
                value={current.id}
                detail={`${current.name} was deleted; the steps after it moved up.`}
                closeOnFailure
                onDone={() => setSelected(null)}
                onClose={() => setOpen(null)}
              >
                <p>
                  Its assignees, notifications, conditions, triggers and metadata go with it. Routes that led
                  to it go to the next step instead.
                </p>
              </ConfirmDeleteDialog>
            ) : null}
          </>
        ) : null}
      </QueryState>
    </>
  );
}
