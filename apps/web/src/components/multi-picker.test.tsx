import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { MultiPicker, type PickerOption } from './multi-picker';

const PEOPLE: PickerOption[] = [
  { id: 1, label: 'Staff10', detail: 'staff10' },
  { id: 2, label: 'Alice Smith', detail: 'asmith' },
  { id: 3, label: 'staff2', detail: 'staff2' },
  { id: 4, label: 'Bob Jones', detail: 'bjones' },
];

function Harness({ initial = [] as number[] }) {
  const [selected, setSelected] = useState(initial);
  return (
    <>
      <MultiPicker label="Members" options={PEOPLE} selected={selected} onChange={setSelected} />
      <p data-testid="value">{JSON.stringify(selected)}</p>
    </>
  );
}

const value = () => screen.getByTestId('value').textContent;

describe('MultiPicker', () => {
  it('narrows the list as one types, and adds the match chosen with the keyboard', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const box = screen.getByRole('combobox', { name: 'Members' });
    await user.type(box, 'jon');
    const list = screen.getByRole('listbox');
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Bob Jones bjones']);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(value()).toBe('[4]');
    expect(box).toHaveValue('');
    expect(screen.getByText('1 chosen.')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    const chosen = screen.getByRole('grid', { name: 'Chosen: Members' });
    expect(within(chosen).getByRole('row', { name: 'Bob Jones' })).toBeInTheDocument();
  });

  it('lists what is left in natural order, and says when nothing matches', async () => {
    const user = userEvent.setup();
    render(<Harness initial={[2]} />);
    await user.click(screen.getByRole('button', { name: /Show all/ }));
    const names = within(screen.getByRole('listbox'))
      .getAllByRole('option')
      .map((o) => o.textContent?.split(' ')[0]);
    expect(names).toEqual(['Bob', 'staff2', 'Staff10']);
    await user.type(screen.getByRole('combobox', { name: 'Members' }), 'zzz');
    expect(screen.getByText('No match for “zzz”.')).toBeInTheDocument();
  });

  it('removes a chosen one with its button, or with Delete from the keyboard', async () => {
    const user = userEvent.setup();
    render(<Harness initial={[2, 4]} />);
    await user.click(screen.getByRole('button', { name: 'Remove Alice Smith' }));
    expect(value()).toBe('[4]');
    const tag = screen.getByRole('row', { name: 'Bob Jones' });
    tag.focus();
    await user.keyboard('{Delete}');
    expect(value()).toBe('[]');
    expect(screen.getByText('None chosen.')).toBeInTheDocument();
  });
});
