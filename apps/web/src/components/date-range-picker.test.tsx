import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DateRangePicker, type DayRange } from './date-range-picker';

function Harness({ initial = null as DayRange | null }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateRangePicker label="Modified" value={value} onChange={setValue} />
      <p data-testid="value">{JSON.stringify(value)}</p>
    </>
  );
}

const value = () => JSON.parse(screen.getByTestId('value').textContent ?? 'null');

describe('DateRangePicker', () => {
  it('takes both days typed in, segment by segment', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const group = screen.getByRole('group', { name: 'Modified' });
    const [first] = within(group).getAllByRole('spinbutton');
    await user.click(first!);
    // en-US in jsdom: month, day, year for the start, then the same for the end.
    await user.keyboard('03122026');
    await user.keyboard('04022026');
    expect(value()).toEqual({ from: '2026-03-12', to: '2026-04-02' });
  });

  it('changes a day with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<Harness initial={{ from: '2026-03-12', to: '2026-03-20' }} />);
    const days = screen.getAllByRole('spinbutton', { name: /day/i });
    days[1]!.focus();
    await user.keyboard('{ArrowUp}');
    expect(value()).toEqual({ from: '2026-03-12', to: '2026-03-21' });
  });

  it('picks the two ends in the calendar with the keyboard', async () => {
    const user = userEvent.setup();
    render(<Harness initial={{ from: '2026-03-12', to: '2026-03-12' }} />);
    await user.click(screen.getByRole('button', { name: /Open the calendar/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('grid')).toBeInTheDocument();
    // Enter starts a new range on the focused day; arrows move; Enter ends it and closes.
    const startDay = Number(document.activeElement?.textContent);
    await user.keyboard('{Enter}{ArrowRight}{ArrowRight}');
    const endDay = Number(document.activeElement?.textContent);
    expect(endDay).toBeGreaterThan(startDay);
    await user.keyboard('{Enter}');
    const day = (n: number) => `2026-03-${String(n).padStart(2, '0')}`;
    expect(value()).toEqual({ from: day(startDay), to: day(endDay) });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
