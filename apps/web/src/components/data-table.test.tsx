import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DataTable, QueryTable } from './data-table';

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

describe('QueryTable', () => {
  const query = { isPending: false, isError: false, data: {}, refetch: () => undefined };
  const rows = [
    { id: 1, name: 'Alice' },
    { id: 2, name: 'Bob' },
  ];
  const table = (rowActions: ((row: { id: number; name: string }) => string) | false, shown = rows) => (
    <QueryTable
      query={query}
      what="users"
      rows={shown}
      empty={<p>No users</p>}
      caption="Users"
      columns={['Name']}
      cells={(row) => <td>{row.name}</td>}
      rowActions={rowActions}
    />
  );

  it('gives each row its cells, then its actions in a last cell under an unlabelled head', () => {
    render(table((row) => `Edit ${row.name}`));
    const grid = screen.getByRole('table', { name: 'Users' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name', 'Actions']);
    const [, alice, bob] = within(grid).getAllByRole('row');
    expect(
      within(alice as HTMLElement)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['Alice', 'Edit Alice']);
    expect(within(bob as HTMLElement).getByRole('cell', { name: 'Edit Bob' })).toHaveClass('cell-actions');
  });

  it('leaves out the actions and their column for those who may not act, and shows `empty` for no rows', () => {
    const { rerender } = render(table(false));
    const grid = screen.getByRole('table', { name: 'Users' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Name']);
    expect(
      within(grid)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['Alice', 'Bob']);
    rerender(table(false, []));
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No users')).toBeInTheDocument();
  });
});
