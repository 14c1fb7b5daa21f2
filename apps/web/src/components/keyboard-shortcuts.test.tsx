import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link, MemoryRouter, Route, Routes, useParams } from 'react-router';
import { describe, expect, it } from 'vitest';
import { signedInApi } from '../testing/mock-api';
import { renderApp } from '../testing/render-app';
import { ShortcutsDialog, useKeyboardShortcuts } from './keyboard-shortcuts';
import { type Selection, SortableTable } from './sortable-table';

const FILES = [
  { id: 1, name: 'alpha.pdf' },
  { id: 2, name: 'beta.pdf' },
  { id: 3, name: 'gamma.pdf' },
];

/** A list page as the app has them: a search box, a note field, a file list with selection. */
function ListPage() {
  const shortcuts = useKeyboardShortcuts({
    focusSearch: () => document.querySelector<HTMLInputElement>('#search')?.focus(),
  });
  const [selected, setSelected] = useState<Selection>(new Set());
  return (
    <>
      <input id="search" aria-label="Search files" />
      <textarea aria-label="Note" />
      <SortableTable
        label="Files"
        columns={[
          {
            id: 'name',
            label: 'Name',
            isRowHeader: true,
            cell: (f) => <Link to={`/files/${f.id}`}>{f.name}</Link>,
          },
        ]}
        rows={FILES}
        rowKey={(f) => f.id}
        selected={selected}
        onSelectionChange={setSelected}
      />
      {shortcuts.helpOpen ? <ShortcutsDialog onClose={shortcuts.closeHelp} /> : null}
    </>
  );
}

function FilePage() {
  return <h1>File {useParams().id}</h1>;
}

function renderList() {
  const user = userEvent.setup();
  render(
    <MemoryRouter initialEntries={['/list']}>
      <Routes>
        <Route path="/list" element={<ListPage />} />
        <Route path="/files/:id" element={<FilePage />} />
      </Routes>
    </MemoryRouter>,
  );
  return user;
}

const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });

describe('the keyboard shortcuts', () => {
  it('j and k move the focus down and up the rows, x selects the focused row, Enter opens it', async () => {
    const user = renderList();
    await user.keyboard('j');
    expect(row('alpha')).toHaveFocus();
    await user.keyboard('jj');
    expect(row('gamma')).toHaveFocus();
    await user.keyboard('j');
    expect(row('gamma')).toHaveFocus();
    await user.keyboard('k');
    expect(row('beta')).toHaveFocus();

    await user.keyboard('x');
    expect(row('beta')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('toolbar', { name: 'Actions on the selected rows' })).toHaveTextContent(
      '1 selected',
    );
    await user.keyboard('x');
    expect(row('beta')).toHaveAttribute('aria-selected', 'false');

    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { name: 'File 2' })).toBeInTheDocument();
  });

  it('? lists the shortcuts in a dialog, which Esc closes', async () => {
    const user = renderList();
    await user.keyboard('?');
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const what of [
      'Search files',
      'Next row of the list',
      'Select or unselect the row',
      'Open the row',
    ]) {
      expect(within(dialog).getByText(what)).toBeInTheDocument();
    }
    // The page behind (hidden from screen readers meanwhile) does not take the keys.
    await user.keyboard('j');
    expect(screen.getByRole('row', { name: /alpha/, hidden: true })).not.toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('/ focuses the search; none of them act while typing in a field', async () => {
    const user = renderList();
    await user.keyboard('/');
    const search = screen.getByRole('textbox', { name: 'Search files' });
    expect(search).toHaveFocus();
    expect(search).toHaveValue('');
    await user.keyboard('j/k?x');
    expect(search).toHaveValue('j/k?x');
    expect(search).toHaveFocus();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('textbox', { name: 'Note' }));
    await user.keyboard('jk/');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('jk/');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveFocus();
  });

  it('/ brings up the header search of every signed-in page', async () => {
    signedInApi('admin', 'COMPANY ADMIN', {
      'GET /api/folders': { body: { data: [] } },
    });
    const { user } = renderApp('/admin/category');
    await screen.findByRole('heading', { level: 1, name: 'Categories' });
    await user.keyboard('/');
    expect(screen.getByRole('combobox', { name: 'Search files' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Close search' })).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('?');
    expect(screen.getByRole('combobox', { name: 'Search files' })).toHaveValue('?');
  });

  it('are listed from the user menu too, for those who do not know about "?"', async () => {
    signedInApi('admin', 'COMPANY ADMIN', {
      'GET /api/folders': { body: { data: [] } },
    });
    const { user } = renderApp('/admin/category');
    await user.click(await screen.findByRole('button', { name: 'Account: Jane Doe' }));
    await user.click(screen.getByRole('button', { name: 'Keyboard shortcuts' }));
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Signed in as' })).not.toBeInTheDocument();
  });
});
