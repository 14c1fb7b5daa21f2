import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable } from './data-table';

describe('DataTable', () => {
  it("labels each cell with its column's name, for the card layout of a narrow screen", () => {
    const { rerender } = render(
      <DataTable caption="Users" columns={['Name', 'E-mail']} actions>
        <tr>
          <td>Alice</td>
          <td>alice@example.test</td>
          <td className="cell-actions">Edit</td>
        </tr>
      </DataTable>,
    );
    const table = screen.getByRole('table', { name: 'Users' });
    expect(within(table).getByRole('cell', { name: 'Alice' })).toHaveAttribute('data-label', 'Name');
    expect(within(table).getByRole('cell', { name: 'alice@example.test' })).toHaveAttribute(
      'data-label',
      'E-mail',
    );
    // Rows that arrive later (a new page, a filter) are labelled too; a row-wide cell is not.
    rerender(
      <DataTable caption="Users" columns={['Name', 'E-mail']}>
        <tr>
          <td>Bob</td>
          <td>bob@example.test</td>
        </tr>
        <tr>
          <td colSpan={2}>Nothing more</td>
        </tr>
      </DataTable>,
    );
    expect(within(table).getByRole('cell', { name: 'bob@example.test' })).toHaveAttribute(
      'data-label',
      'E-mail',
    );
    expect(within(table).getByRole('cell', { name: 'Nothing more' })).not.toHaveAttribute('data-label');
  });
});
