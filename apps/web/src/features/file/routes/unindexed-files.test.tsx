import type { TCategoryField, TFileSummary } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCategoryField, aFileSummary, detailOf } from '../../../testing/file-fixtures';
import { onePage } from '../../../testing/fixtures';
import { invalidInput, type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const person = { id: 7, name: 'Olive Owner', username: 'olive' };
const invoices = { id: 4, name: 'Invoices' };
const contracts = { id: 5, name: 'Contracts' };
const file = (id: number, name: string, folder = invoices) =>
  aFileSummary(id, name, {
    folder_id: folder.id,
    folder_name: folder.name,
    index_status: 'unindexed',
    owner: person,
  });
const fields: TCategoryField[] = [
  aCategoryField({
    id: 11,
    name: 'Status',
    type: 'select',
    value_list: { id: 3, name: 'Statuses' },
    required: true,
  }),
  aCategoryField({ id: 12, name: 'Invoice date', type: 'date' }),
  aCategoryField({ id: 13, name: 'Reference', type: 'text' }, { default_value: 'REF-' }),
  aCategoryField({ id: 14, name: 'Amount', type: 'number' }),
];
const items = [
  { id: 1, key: 5621, label: 'Approved', position: 0 },
  { id: 2, key: 5622, label: 'Rejected', position: 1 },
];
const unindexed = (list: TFileSummary[]) => ({ body: { data: onePage(list) } });

function server(list: TFileSummary[], routes: MockRoutes = {}) {
  return signedInApi('user', 'General staff', {
    'GET /api/unindex-file': unindexed(list),
    'GET /api/folderMeta/4': { body: { data: { folder_id: 4, inherit_fields: false, fields } } },
    'GET /api/valuelist-items/3': { body: { data: items } },
    'GET /api/version-preview/109': { body: 'Invoice 2026-001, total 120.00' },
    ...Object.fromEntries(list.map((f) => [`GET /api/file-view/${f.id}`, { body: { data: detailOf(f) } }])),
    ...routes,
  });
}

// Each test clicks and types through the whole app: slow on a busy machine.
describe('the unindexed files page', { timeout: 40_000 }, () => {
  it('shows each file with its category and when it was uploaded', async () => {
    server([file(9, 'scan.pdf'), file(10, 'deal.pdf', contracts)]);
    renderApp('/unindexed-files');
    await screen.findByRole('link', { name: 'scan.pdf' }, { timeout: 10_000 });
    const table = screen.getByRole('grid', { name: 'Unindexed files' });
    expect(within(table).getByRole('columnheader', { name: 'Category' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Uploaded' })).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Filed' })).not.toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /scan\.pdf/ })).toHaveTextContent('Invoices');
    expect(within(table).getByRole('row', { name: /deal\.pdf/ })).toHaveTextContent('Contracts');
  });

  it('indexes a file beside its preview: a list item chosen by its label sends its key, defaults filled', async () => {
    const api = server([file(9, 'scan.pdf')], {
      'POST /api/submitmetas': {
        body: { data: { ...detailOf(file(9, 'scan.pdf')), index_status: 'indexed' } },
      },
    });
    const { user } = renderApp('/unindexed-files');
    await user.click(await screen.findByRole('button', { name: 'Index scan.pdf' }, { timeout: 10_000 }));
    const preview = await screen.findByRole('region', { name: 'Preview' });
    expect(await within(preview).findByText('Invoice 2026-001, total 120.00')).toBeInTheDocument();
    const form = await screen.findByRole('form', { name: 'Index scan.pdf' });
    expect(within(form).getByLabelText('Reference')).toHaveValue('REF-');
    const status = within(form).getByRole('combobox', { name: /Status/ });
    expect(status).toBeRequired();
    expect(within(form).getByText('(required)')).toBeInTheDocument();
    await user.type(status, 'appr');
    await user.click(await screen.findByRole('option', { name: 'Approved' }));
    expect(status).toHaveValue('Approved');
    expect(screen.queryByText(/5621/)).not.toBeInTheDocument();
    const date = within(form).getByLabelText('Invoice date');
    expect(date).toHaveAttribute('type', 'date');
    await user.type(date, '2026-03-01');
    await user.type(within(form).getByLabelText('Reference'), '77');
    await user.type(within(form).getByLabelText('Amount'), '120.5');
    await user.click(within(form).getByRole('button', { name: 'Save and index' }));
    await screen.findByText('File indexed');
    expect(api.calls.find((c) => c.path === '/api/submitmetas')?.body).toEqual({
      file_id: 9,
      values: [
        { field_id: 11, value: 5621 },
        { field_id: 12, value: '2026-03-01' },
        { field_id: 13, value: 'REF-77' },
        { field_id: 14, value: 120.5 },
      ],
    });
  });

  it('goes on to the next file once one is indexed', async () => {
    server([file(9, 'scan.pdf'), file(10, 'next.pdf')], {
      'POST /api/submitmetas': {
        body: { data: { ...detailOf(file(9, 'scan.pdf')), index_status: 'indexed' } },
      },
    });
    const { user } = renderApp('/unindexed-files');
    await user.click(await screen.findByRole('button', { name: 'Index scan.pdf' }, { timeout: 10_000 }));
    const form = await screen.findByRole('form', { name: 'Index scan.pdf' });
    await user.click(within(form).getByRole('button', { name: /Show all: Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Approved' }));
    await user.click(within(form).getByRole('button', { name: 'Save and index' }));
    expect(await screen.findByRole('form', { name: 'Index next.pdf' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Index scan.pdf' })).not.toBeInTheDocument();
  });

  it('shows the files of the category just uploaded into, and all of them on request', async () => {
    const api = server([file(9, 'scan.pdf')]);
    const { user } = renderApp('/unindexed-files', { categoryId: 4 });
    expect(
      await screen.findByText(/The files you uploaded into Invoices\./, {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/unindex-file')?.search).toContain('folder_id=4');
    await user.click(screen.getByRole('link', { name: 'Show all unindexed files' }));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.path === '/api/unindex-file').at(-1)?.search).not.toContain(
        'folder_id',
      ),
    );
    expect(screen.queryByText(/The files you uploaded into/)).not.toBeInTheDocument();
  });

  it("asks for a required field before sending, and shows the server's refusal at its field", async () => {
    const api = server([file(9, 'scan.pdf')], {
      'POST /api/submitmetas': invalidInput(
        'body.fields.12',
        '"Invoice date" must be on or after 2026-01-01',
      ),
    });
    const { user } = renderApp('/unindexed-files');
    await user.click(await screen.findByRole('button', { name: 'Index scan.pdf' }, { timeout: 10_000 }));
    const form = await screen.findByRole('form', { name: 'Index scan.pdf' });
    await user.click(within(form).getByRole('button', { name: 'Save and index' }));
    const status = within(form).getByRole('combobox', { name: /Status/ });
    expect(status).toHaveAccessibleDescription('Enter Status');
    expect(api.calls.some((c) => c.path === '/api/submitmetas')).toBe(false);

    await user.click(within(form).getByRole('button', { name: /Show all: Status/ }));
    await user.click(await screen.findByRole('option', { name: 'Rejected' }));
    await user.type(within(form).getByLabelText('Invoice date'), '2025-12-31');
    await user.click(within(form).getByRole('button', { name: 'Save and index' }));
    await waitFor(() =>
      expect(within(form).getByLabelText('Invoice date')).toHaveAccessibleDescription(
        '"Invoice date" must be on or after 2026-01-01',
      ),
    );
    expect(within(form).getByLabelText('Invoice date')).toBeInvalid();
    expect(within(form).getByLabelText('Invoice date')).toHaveFocus();
    expect(await screen.findByText('Check the fields marked in the form.')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/submitmetas')?.body).toMatchObject({
      values: [{ field_id: 11, value: 5622 }, { field_id: 12, value: '2025-12-31' }, {}, {}],
    });
    // Changing the field puts its out-of-date message away.
    await user.clear(within(form).getByLabelText('Invoice date'));
    expect(within(form).getByLabelText('Invoice date')).not.toHaveAccessibleDescription();
  });

  it('asks before cancelling an upload, names the file, and moves it to the trash', async () => {
    const api = server([file(9, 'scan.pdf')], { 'POST /api/delete': { body: { data: { deleted: 1 } } } });
    const { user } = renderApp('/unindexed-files');
    await user.click(
      await screen.findByRole('button', { name: 'Cancel upload of scan.pdf' }, { timeout: 10_000 }),
    );
    let dialog = screen.getByRole('dialog', { name: 'Cancel the upload of scan.pdf?' });
    expect(dialog).toHaveTextContent('moves to the trash');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Cancel upload of scan.pdf' }));
    dialog = screen.getByRole('dialog', { name: 'Cancel the upload of scan.pdf?' });
    await user.click(within(dialog).getByRole('button', { name: 'Move to trash' }));
    await screen.findByText('Upload cancelled');
    expect(api.calls.find((c) => c.path === '/api/delete')?.body).toEqual({ file_ids: [9] });
    expect(api.calls.some((c) => c.path === '/api/cancel-index-file')).toBe(false);
  });

  it('applies the same values to the selected files of one category and reports each one', async () => {
    const api = server([file(9, 'a.pdf'), file(10, 'b.pdf'), file(11, 'c.pdf', contracts)], {
      'POST /api/submitmetas': (call) =>
        (call.body as { file_id: number }).file_id === 10
          ? { status: 409, body: { message: 'b.pdf is locked by Lee', code: 'file.locked' } }
          : { body: { data: detailOf(file(9, 'a.pdf')) } },
    });
    const { user } = renderApp('/unindexed-files');
    await user.click(await screen.findByRole('checkbox', { name: 'Select a.pdf' }, { timeout: 10_000 }));
    await user.click(screen.getByRole('checkbox', { name: 'Select c.pdf' }));
    const bar = screen.getByRole('toolbar', { name: 'Actions on the selected rows' });
    expect(bar).toHaveTextContent('Choose files of one category');
    await user.click(screen.getByRole('checkbox', { name: 'Select c.pdf' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select b.pdf' }));
    await user.click(within(bar).getByRole('button', { name: 'Index 2 selected' }));
    const form = await screen.findByRole('form', { name: 'Index 2 selected files' });
    await user.type(within(form).getByRole('combobox', { name: /Status/ }), 'Appr');
    await user.click(await screen.findByRole('option', { name: 'Approved' }));
    await user.click(within(form).getByRole('button', { name: 'Index 2 files' }));
    const results = await screen.findByRole('list', { name: 'Results' });
    expect(within(results).getByText('a.pdf: indexed')).toBeInTheDocument();
    expect(within(results).getByText(/b\.pdf: not indexed\. b\.pdf is locked by Lee/)).toBeInTheDocument();
    expect(await screen.findByText('Failed to index some files')).toBeInTheDocument();
    const sent = api.calls.filter((c) => c.path === '/api/submitmetas').map((c) => c.body);
    expect(sent).toEqual([
      { file_id: 9, values: expect.arrayContaining([{ field_id: 11, value: 5621 }]) },
      { file_id: 10, values: expect.arrayContaining([{ field_id: 11, value: 5621 }]) },
    ]);
  });
});
