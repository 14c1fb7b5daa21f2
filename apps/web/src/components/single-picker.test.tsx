import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { PickerOption } from './picker-parts';
import { SinglePicker } from './single-picker';

const CATEGORIES: PickerOption[] = [
  { id: 1, label: 'Finance / Invoices' },
  { id: 2, label: 'Finance / Receipts' },
  { id: 3, label: 'Human resources' },
];

function Harness({ initial = null as number | null, options = CATEGORIES }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <SinglePicker
        label="Category"
        toggleLabel="Show all categories"
        options={options}
        value={value}
        onChange={setValue}
        error={value === null ? 'Choose a category.' : undefined}
        hint="Where the file goes."
      />
      <p data-testid="value">{String(value)}</p>
    </>
  );
}

const value = () => screen.getByTestId('value').textContent;

describe('SinglePicker', () => {
  it('narrows the list as one types and takes the match chosen with the keyboard', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const box = screen.getByRole('combobox', { name: 'Category' });
    await user.type(box, 'rec');
    expect(
      within(screen.getByRole('listbox'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Finance / Receipts']);
    await user.keyboard('{ArrowDown}{Enter}');
    expect(value()).toBe('2');
    expect(box).toHaveValue('Finance / Receipts');
  });

  it('clearing the text clears the choice; its error and hint describe the field', async () => {
    const user = userEvent.setup();
    render(<Harness initial={3} />);
    const box = screen.getByRole('combobox', { name: 'Category' });
    expect(box).toHaveValue('Human resources');
    expect(box).toHaveAccessibleDescription('Where the file goes.');
    await user.clear(box);
    expect(value()).toBe('null');
    expect(box).toHaveAccessibleDescription('Choose a category. Where the file goes.');
  });

  it('says when nothing matches what was typed', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(screen.getByRole('combobox', { name: 'Category' }), 'zzz');
    expect(screen.getByText('No match for “zzz”.')).toBeInTheDocument();
  });

  it('says when there is nothing to choose from', async () => {
    const user = userEvent.setup();
    render(<Harness options={[]} />);
    await user.click(screen.getByRole('button', { name: /Show all categories/ }));
    expect(await screen.findByText('Nothing to choose from.')).toBeInTheDocument();
  });
});
