import type { TValueListDetail, TValueListImport } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const SAVED: TValueListDetail = {
  id: 6,
  name: 'Currencies',
  description: '',
  source: 'excel',
  item_count: 2,
  fields: [],
  items: [
    { id: 61, key: 1, label: 'EUR', position: 0 },
    { id: 62, key: 7, label: 'USD', position: 1 },
  ],
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
};

const ROWS: TValueListImport['rows'] = [
  { row: 2, key: 1, label: 'EUR' },
  { row: 3, key: null, label: 'USD' },
];

function server(routes: MockRoutes = {}) {
  return signedInApi('admin', 'File Control Admin', {
    'GET /api/valuelist/6': { body: { data: SAVED } },
    ...routes,
  });
}

const workbook = (name = 'currencies.xlsx') =>
  new File(['PK'], name, { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('a value list from Excel', () => {
  it('asks for the name first, previews the rows, then creates the list and opens it', async () => {
    const { calls } = server({
      'POST /api/create_value_list_from_excel': (call) => {
        const dryRun = (call.body as Record<string, unknown>).dry_run === 'true';
        return {
          body: { data: { dry_run: dryRun, rows: ROWS, errors: [], value_list: dryRun ? null : SAVED } },
        };
      },
    });
    const { user, location, notifications } = renderApp('/admin/value-lists/import');
    await screen.findByRole('heading', { level: 1, name: 'New value list from Excel' }, { timeout: 5_000 });
    await user.upload(fileInput(), workbook());
    expect(screen.getByText('Enter a name for the list first')).toBeVisible();
    expect(calls.some((c) => c.path === '/api/create_value_list_from_excel')).toBe(false);

    await user.type(screen.getByLabelText('Name of the list'), 'Currencies');
    await user.upload(fileInput(), workbook());
    const preview = await screen.findByRole('table', { name: 'Rows of the workbook' });
    expect(within(preview).getAllByRole('row')).toHaveLength(3);
    expect(within(preview).getByRole('row', { name: /USD/ })).toHaveTextContent('free');
    expect(screen.getByText(/2 rows read from/)).toHaveTextContent('no problems found');

    await user.click(screen.getByRole('button', { name: 'Create the list with 2 items' }));
    await waitFor(() => expect(location()).toBe('/admin/value-lists/6'));
    expect(notifications.current()?.title).toBe('Value list created');
    const sent = calls.filter((c) => c.path === '/api/create_value_list_from_excel');
    expect(sent.map((c) => (c.body as Record<string, unknown>).dry_run)).toEqual(['true', 'false']);
    expect(sent.every((c) => (c.body as Record<string, unknown>).name === 'Currencies')).toBe(true);
  });

  it('shows each problem at its row and imports nothing while there are any', async () => {
    const { calls } = server({
      'PUT /api/edit_value_list_from_excel/6': {
        body: {
          data: {
            dry_run: true,
            rows: [...ROWS, { row: 4, key: 1, label: 'GBP' }],
            errors: [
              { path: 'row 4.key', message: 'Key 1 is used twice (rows 2 and 4)' },
              { path: 'row 9.label', message: 'Label is empty' },
            ],
            value_list: null,
          },
        },
      },
    });
    const { user } = renderApp('/admin/value-lists/6/import');
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Replace the items of Currencies' },
      { timeout: 5_000 },
    );
    expect(screen.queryByLabelText('Name of the list')).not.toBeInTheDocument();
    await user.upload(fileInput(), workbook());
    const preview = await screen.findByRole('table', { name: 'Rows of the workbook' });
    expect(within(preview).getByRole('row', { name: /GBP/ })).toHaveTextContent(
      'Key 1 is used twice (rows 2 and 4)',
    );
    expect(screen.getByText('Row 9: Label: Label is empty')).toBeInTheDocument();
    expect(screen.getByText('2 problems to fix')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Replace with 3 items' })).toBeDisabled();
    expect(calls.filter((c) => c.path === '/api/edit_value_list_from_excel/6')).toHaveLength(1);
  });
});
