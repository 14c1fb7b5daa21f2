import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Mapping } from '../lib/directory-settings';
import { GroupMappings } from './group-mappings';

const MAPPINGS: Mapping[] = [
  { directory_group: 'cn=staff', group_id: null, access_type: null },
  { directory_group: 'cn=finance', group_id: 1, access_type: null },
];
const GROUPS = [
  { id: 1, name: 'Finance' },
  { id: 2, name: 'Legal' },
];

function renderMappings(errors: Record<string, string> = {}) {
  const onChange = vi.fn();
  render(<GroupMappings mappings={MAPPINGS} onChange={onChange} groups={GROUPS} errors={errors} />);
  const rows = screen.getAllByRole('button', { name: /^Remove the mapping/ }).map((b) => b.parentElement!);
  return { onChange, rows };
}

describe('the group mappings', () => {
  it('changes only the row edited, one setting at a time', async () => {
    const { onChange, rows } = renderMappings();
    const second = within(rows[1]!);
    await userEvent.selectOptions(second.getByLabelText('Quire group'), 'Legal');
    expect(onChange).toHaveBeenLastCalledWith([MAPPINGS[0], { ...MAPPINGS[1], group_id: 2 }]);
    await userEvent.selectOptions(second.getByLabelText('Quire group'), 'None');
    expect(onChange).toHaveBeenLastCalledWith([MAPPINGS[0], { ...MAPPINGS[1], group_id: null }]);
    await userEvent.type(within(rows[0]!).getByLabelText('Directory group DN'), 'x');
    expect(onChange).toHaveBeenLastCalledWith([
      { ...MAPPINGS[0], directory_group: 'cn=staffx' },
      MAPPINGS[1],
    ]);
    expect(within(rows[0]!).getByLabelText('Access type')).toHaveValue('');
  });

  it("shows a refused directory group under its row's field, as its description", () => {
    const { rows } = renderMappings({ 'group_mappings.1.directory_group': 'Enter a DN' });
    expect(within(rows[1]!).getByLabelText('Directory group DN')).toHaveAccessibleDescription('Enter a DN');
    expect(within(rows[0]!).getByLabelText('Directory group DN')).not.toHaveAttribute('aria-invalid');
  });
});
