import type { TStep } from '@quire/contract';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aStep } from '../testing/fixtures';
import { WorkflowDiagram } from './workflow-diagram';

const step = (id: number, position: number, routes: Partial<TStep>): TStep =>
  aStep({ id, name: `Step ${id}`, position, on_reject: 'end', ...routes });

const routes = (container: HTMLElement, kind: 'approve' | 'reject') =>
  [...container.querySelectorAll(`path.workflow-diagram__route--${kind}`)].map((p) => p.getAttribute('d'));

describe('WorkflowDiagram', () => {
  it('draws approvals down or round the right, rejections round the left, each with its arrow head', () => {
    const { container } = render(
      <WorkflowDiagram
        steps={[
          step(7, 1, { on_approve: 'step', on_approve_step_id: 5, on_reject: 'previous' }),
          step(5, 0, { on_approve: 'next', on_reject: 'end' }),
          step(9, 2, { on_approve: 'end', on_reject: 'step', on_reject_step_id: 5 }),
        ]}
      />,
    );
    expect(routes(container, 'approve')).toEqual([
      'M 150 56 L 150 92',
      'M 250 118 C 270 118, 270 34, 254 34',
      'M 150 224 L 150 260',
    ]);
    expect(routes(container, 'reject')).toEqual([
      'M 50 34 C 36 34, 36 278.6666666666667, 46 278.6666666666667',
      'M 50 118 C 30 118, 30 34, 46 34',
      'M 50 202 C 24 202, 24 34, 46 34',
    ]);
    const heads = [...container.querySelectorAll('marker')];
    expect(heads.map((m) => m.querySelector('path')?.getAttribute('class'))).toEqual([
      'workflow-diagram__head--approve',
      'workflow-diagram__head--reject',
    ]);
    const ends = [...container.querySelectorAll('path.workflow-diagram__route')].map((p) =>
      p.getAttribute('marker-end'),
    );
    expect(new Set(ends)).toEqual(new Set(heads.map((m) => `url(#${m.id})`)));
    expect(screen.getByText(/Step 7: approved, to/)).toBeInTheDocument();
  });
});
