import type { TStep } from '@quire/contract';
import { Button, GridList, GridListItem, useDragAndDrop } from 'react-aria-components';

/** Where `moved` lands when dropped before or after `target`: its new 1-based position. */
export function positionAfterDrop(
  order: number[],
  moved: number,
  target: number,
  where: 'before' | 'after' | 'on',
): number {
  const rest = order.filter((id) => id !== moved);
  const at = rest.indexOf(target);
  return (where === 'before' ? at : at + 1) + 1;
}

/**
 * The steps in order (React Aria's grid list): choose one to edit; drag one by its handle (or
 * with the keyboard: Enter on the handle, arrows, Enter) or use Move up / Move down to reorder.
 */
export function StepList({
  steps,
  selected,
  onSelect,
  onMove,
  canWrite,
  busy = false,
}: {
  steps: TStep[];
  selected: number | null;
  onSelect: (id: number) => void;
  /** Puts the step at a new 1-based position. */
  onMove: (step: TStep, position: number) => void;
  canWrite: boolean;
  busy?: boolean;
}) {
  const ordered = [...steps].sort((a, b) => a.position - b.position);
  const order = ordered.map((s) => s.id);
  const { dragAndDropHooks } = useDragAndDrop({
    getItems: (keys) =>
      [...keys].map((key) => ({ 'text/plain': ordered.find((s) => s.id === key)?.name ?? '' })),
    onReorder: (e) => {
      const moved = ordered.find((s) => s.id === [...e.keys][0]);
      if (!moved) return;
      const position = positionAfterDrop(order, moved.id, Number(e.target.key), e.target.dropPosition);
      if (position !== moved.position) onMove(moved, position);
    },
  });

  if (ordered.length === 0) return <p className="muted">No steps yet.</p>;
  return (
    <GridList
      aria-label="Steps, in order"
      className="step-list"
      items={ordered}
      selectionMode="single"
      selectionBehavior="replace"
      disallowEmptySelection
      selectedKeys={selected === null ? [] : [selected]}
      onSelectionChange={(keys) => {
        const key = [...(keys as Set<number>)][0];
        if (key !== undefined) onSelect(Number(key));
      }}
      {...(canWrite && !busy ? { dragAndDropHooks } : {})}
    >
      {(step) => (
        <GridListItem id={step.id} textValue={step.name} className="step-list__item">
          {canWrite ? (
            <Button slot="drag" className="step-list__handle" aria-label={`Drag ${step.name}`}>
              ⠿
            </Button>
          ) : null}
          <span className="step-list__position" aria-hidden="true">
            {step.position}
          </span>
          <span className="step-list__name">
            <strong>{step.name}</strong>
            <span className="cell-muted">
              {step.assignees.map((a) => a.name).join(', ') || 'No assignees'}
              {step.running_count > 0 ? ` · ${step.running_count} waiting` : ''}
            </span>
          </span>
          {canWrite ? (
            <span className="step-list__moves">
              <Button
                className="button button--link button--small"
                aria-label={`Move ${step.name} up`}
                isDisabled={busy || step.position === 1}
                onPress={() => onMove(step, step.position - 1)}
              >
                ↑
              </Button>
              <Button
                className="button button--link button--small"
                aria-label={`Move ${step.name} down`}
                isDisabled={busy || step.position === ordered.length}
                onPress={() => onMove(step, step.position + 1)}
              >
                ↓
              </Button>
            </span>
          ) : null}
        </GridListItem>
      )}
    </GridList>
  );
}
