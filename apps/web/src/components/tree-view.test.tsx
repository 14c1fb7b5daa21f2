import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { type TreeNode, TreeView } from './tree-view';

const CATEGORIES: TreeNode[] = [
  {
    id: 1,
    name: 'Finance',
    detail: '12 files',
    children: [
      { id: 11, name: 'Invoices' },
      { id: 12, name: 'Payroll', children: [{ id: 121, name: '2026' }] },
    ],
  },
  { id: 2, name: 'Legal' },
];

function Harness() {
  const [selected, setSelected] = useState<TreeNode['id'] | null>(null);
  return (
    <>
      <TreeView label="Categories" items={CATEGORIES} selected={selected} onSelect={setSelected} />
      <p data-testid="chosen">{String(selected)}</p>
    </>
  );
}

const row = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}`) });

describe('TreeView', () => {
  it('shows the top level closed, and opens and closes branches with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByRole('treegrid', { name: 'Categories' })).toBeInTheDocument();
    expect(row('Finance')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('row', { name: /Invoices/ })).toBeNull();

    await user.tab();
    expect(row('Finance')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(row('Finance')).toHaveAttribute('aria-expanded', 'true');
    expect(row('Invoices')).toHaveAttribute('aria-level', '2');
    await user.keyboard('{ArrowDown}');
    expect(row('Invoices')).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowRight}{ArrowDown}');
    expect(row('2026')).toHaveFocus();
    expect(row('2026')).toHaveAttribute('aria-level', '3');
    await user.keyboard('{ArrowUp}{ArrowLeft}');
    expect(screen.queryByRole('row', { name: /^2026/ })).toBeNull();
  });

  it('chooses a node with Enter or a click, and marks it selected', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.tab();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByTestId('chosen')).toHaveTextContent('2');
    expect(row('Legal')).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByText('Finance'));
    expect(screen.getByTestId('chosen')).toHaveTextContent('1');
  });

  it('opens a branch with its chevron button', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: /^Expand Finance/ }));
    expect(row('Payroll')).toBeInTheDocument();
  });
});
