import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PlainTable } from './plain-table';

describe('PlainTable', () => {
  it('names the table by its caption and heads the columns given, leaving out a null one', () => {
    render(
      <PlainTable caption="Items of Colours" columns={['Key', null, 'Label']} actions>
        <tr>
          <td>1</td>
          <td>Red</td>
          <td>
            <button type="button">Remove</button>
          </td>
        </tr>
      </PlainTable>,
    );
    const table = screen.getByRole('table', { name: 'Items of Colours' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Key', 'Label', 'Actions']);
    expect(within(table).getByRole('cell', { name: 'Red' })).toBeInTheDocument();
  });

  it('has no actions column unless asked', () => {
    render(
      <PlainTable caption="Rights" columns={['Who']}>
        <tr>
          <td>Ann</td>
        </tr>
      </PlainTable>,
    );
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Who']);
  });
});
