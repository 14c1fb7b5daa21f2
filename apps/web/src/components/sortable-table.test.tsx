import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type Selection, SortableTable, type SortDescriptor, type TableColumn } from './sortable-table';

interface File {
  id: number;
  name: string;
  size: number;
}

const FILES: File[] = [
  { id: 1, name: 'b-report.pdf', size: 300 },
  { id: 2, name: 'a-minutes.docx', size: 100 },
  { id: 3, name: 'c-budget.xlsx', size: 200 },
];

const COLUMNS: TableColumn<File>[] = [
  { id: 'name', label: 'Name', sortable: true, isRowHeader: true, cell: (f) => f.name },
  { id: 'size', label: 'Size', sortable: true, cell: (f) => `${f.size} KB` },
];

function Harness({ onDelete = () => {} }: { onDelete?: (ids: number[]) => void }) {
  const [sort, setSort] = useState<SortDescriptor>({ column: 'name', direction: 'ascending' });
  const [selected, setSelected] = useState<Selection>(new Set());
  const [page, setPage] = useState(1);
  const key = sort.column as keyof File;
  const rows = [...FILES].sort(
    (a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0) * (sort.direction === 'ascending' ? 1 : -1),
  );
  return (
    <SortableTable
      label="Files"
      columns={COLUMNS}
      rows={rows}
      rowKey={(f) => f.id}
      sort={sort}
      onSortChange={setSort}
      selected={selected}
      onSelectionChange={setSelected}
      bulkActions={(keys) => (
        <button type="button" onClick={() => onDelete([...keys].map(Number))}>
          Delete selected
        </button>
      )}
      pagination={{ page, lastPage: 3, total: 45, quantity: 20, noun: 'files', onPage: setPage }}
    />
  );
}

const names = () => screen.getAllByRole('rowheader').map((cell) => cell.textContent);

describe('SortableTable', () => {
  it('sorts by a column from its header, with the mouse or the keyboard', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(names()).toEqual(['a-minutes.docx', 'b-report.pdf', 'c-budget.xlsx']);
    const name = screen.getByRole('columnheader', { name: /Name/ });
    expect(name).toHaveAttribute('aria-sort', 'ascending');
    await user.click(name);
    expect(name).toHaveAttribute('aria-sort', 'descending');
    expect(names()).toEqual(['c-budget.xlsx', 'b-report.pdf', 'a-minutes.docx']);
    const size = screen.getByRole('columnheader', { name: /Size/ });
    size.focus();
    await user.keyboard('{Enter}');
    expect(size).toHaveAttribute('aria-sort', 'ascending');
    expect(names()).toEqual(['a-minutes.docx', 'c-budget.xlsx', 'b-report.pdf']);
  });

  it('selects rows with checkboxes or Space, and offers bulk actions on them', async () => {
    const user = userEvent.setup();
    const onDelete = vi.fn();
    render(<Harness onDelete={onDelete} />);
    expect(screen.queryByRole('toolbar')).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Select b-report.pdf' }));
    const bar = screen.getByRole('toolbar', { name: 'Actions on the selected rows' });
    expect(bar).toHaveTextContent('1 selected');

    // Keyboard: move to the next row and select it with Space.
    await user.keyboard('{ArrowDown} ');
    expect(bar).toHaveTextContent('2 selected');
    await user.click(within(bar).getByRole('button', { name: 'Delete selected' }));
    expect(onDelete).toHaveBeenCalledWith([1, 3]);

    await user.click(within(bar).getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByRole('toolbar')).toBeNull();

    await user.click(screen.getByRole('checkbox', { name: 'Select All' }));
    expect(screen.getByRole('toolbar')).toHaveTextContent('3 selected');
  });

  it('pages through the results', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByText('1–20 of 45 files')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('21–40 of 45 files')).toBeInTheDocument();
  });
});
