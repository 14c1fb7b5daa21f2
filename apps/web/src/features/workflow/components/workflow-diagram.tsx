import type { TStep } from '@quire/contract';
import { useId } from 'react';
import { routeLabel } from '../lib/words';

const BOX_W = 200;
const BOX_H = 44;
const GAP = 40;
const LEFT = 50;
const TOP = 12;
const WIDTH = LEFT * 2 + BOX_W;

/** Where a route leads: a step's index in the ordered list, or `steps.length` for the end. */
function targetIndex(
  steps: TStep[],
  from: number,
  route: TStep['on_approve'],
  stepId: number | null,
): number {
  if (route === 'end') return steps.length;
  if (route === 'next') return from + 1;
  if (route === 'previous') return from > 0 ? from - 1 : steps.length;
  const at = steps.findIndex((s) => s.id === stepId);
  return at >= 0 ? at : from + 1;
}

const top = (i: number) => TOP + i * (BOX_H + GAP);
const truncate = (text: string, max = 24) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The steps in order, and where an approval (green, on the right) and a rejection (red, on the
 * left) sends the file; drawn, with the same routes as a list for screen readers.
 */
export function WorkflowDiagram({ steps }: { steps: TStep[] }) {
  const id = useId();
  const ordered = [...steps].sort((a, b) => a.position - b.position);
  if (ordered.length === 0) return <p className="muted">Add a step to see the workflow drawn here.</p>;
  const endIndex = ordered.length;
  const height = top(endIndex) + BOX_H / 1.5 + TOP;
  const cx = LEFT + BOX_W / 2;

  /** A curve out of box `i`'s right (1) or left (-1) side into box `to`, `lane` apart from its neighbours'. */
  const sidePath = (i: number, to: number, lane: number, side: 1 | -1) => {
    const x = side === 1 ? LEFT + BOX_W : LEFT;
    const y1 = top(i) + BOX_H / 2;
    const y2 = top(to) + (to === endIndex ? BOX_H / 3 : BOX_H / 2);
    const out = x + side * (14 + lane * 6);
    return `M ${x} ${y1} C ${out} ${y1}, ${out} ${y2}, ${x + side * 4} ${y2}`;
  };
  const approvePath = (i: number, to: number, lane: number) =>
    to === i + 1 ? `M ${cx} ${top(i) + BOX_H} L ${cx} ${top(to) - 4}` : sidePath(i, to, lane, 1);
  const rejectPath = (i: number, to: number, lane: number) => sidePath(i, to, lane, -1);

  return (
    <figure className="workflow-diagram">
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-routes`}
        className="workflow-diagram__svg"
      >
        <title id={`${id}-title`}>The workflow's steps and routes</title>
        <defs>
          <ArrowHead id={`${id}-ok`} route="approve" />
          <ArrowHead id={`${id}-no`} route="reject" />
        </defs>
        {ordered.map((step, i) => {
          const approveTo = targetIndex(ordered, i, step.on_approve, step.on_approve_step_id);
          const rejectTo = targetIndex(ordered, i, step.on_reject, step.on_reject_step_id);
          return (
            <g key={step.id}>
              <path
                d={approvePath(i, approveTo, i % 3)}
                className="workflow-diagram__route workflow-diagram__route--approve"
                markerEnd={`url(#${id}-ok)`}
              />
              <path
                d={rejectPath(i, rejectTo, i % 3)}
                className="workflow-diagram__route workflow-diagram__route--reject"
                markerEnd={`url(#${id}-no)`}
              />
            </g>
          );
        })}
        {ordered.map((step, i) => (
          <g key={`box-${step.id}`}>
            <rect x={LEFT} y={top(i)} width={BOX_W} height={BOX_H} rx="8" className="workflow-diagram__box" />
            <text x={cx} y={top(i) + 18} textAnchor="middle" className="workflow-diagram__name">
              {`${step.position}. ${truncate(step.name)}`}
            </text>
            <text x={cx} y={top(i) + 34} textAnchor="middle" className="workflow-diagram__meta">
              {step.assignees.length === 0
                ? 'no assignees'
                : `${step.assignees.length} assignee${step.assignees.length === 1 ? '' : 's'} · ${step.completion}`}
            </text>
          </g>
        ))}
        <rect
          x={cx - 40}
          y={top(endIndex)}
          width="80"
          height={BOX_H / 1.5}
          rx={BOX_H / 3}
          className="workflow-diagram__end"
        />
        <text x={cx} y={top(endIndex) + BOX_H / 3 + 4} textAnchor="middle" className="workflow-diagram__name">
          End
        </text>
      </svg>
      <figcaption className="workflow-diagram__legend">
        <span className="workflow-diagram__key workflow-diagram__key--approve">Approved</span>
        <span className="workflow-diagram__key workflow-diagram__key--reject">Rejected</span>
      </figcaption>
      <ul id={`${id}-routes`} className="sr-only">
        {ordered.map((step) => (
          <li key={step.id}>
            {`${step.name}: approved, to ${routeLabel(step.on_approve, step.on_approve_step_id, ordered, step)}; rejected, to ${routeLabel(step.on_reject, step.on_reject_step_id, ordered, step)}.`}
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** The arrow head at the end of a route, coloured by the route's kind. */
function ArrowHead({ id, route }: { id: string; route: 'approve' | 'reject' }) {
  return (
    <marker
      id={id}
      viewBox="0 0 10 10"
      refX="9"
      refY="5"
      markerWidth="7"
      markerHeight="7"
      orient="auto-start-reverse"
    >
      <path d="M 0 0 L 10 5 L 0 10 z" className={`workflow-diagram__head--${route}`} />
    </marker>
  );
}
