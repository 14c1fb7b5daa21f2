import type { AccessType, TMetadataField, TValueList } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aMetadataField } from '../../../testing/fixtures';
import { invalidInput, type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const field = (id: number, name: string, over: Partial<TMetadataField> = {}) =>
  aMetadataField({ id, name, ...over });

const STATUS = field(8, 'Status', {
  type: 'select',
  value_list: { id: 2, name: 'Statuses' },
  required: true,
  usage: { categories: 3, files: 41, workflows: 0 },
});
const AMOUNT = field(9, 'Amount', { type: 'number', min_number: 0, max_number: 5000 });

const LIST: TValueList = {
  id: 2,
  name: 'Statuses',
  description: '',
  source: 'manual',
  item_count: 4,
  fields: [{ id: 8, name: 'Status' }],
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
};

function server(routes: MockRoutes = {}, as: AccessType = 'File Control Admin') {
  return signedInApi('admin', as, {
    'GET /api/user_fields': { body: { data: [STATUS, AMOUNT] } },
    'GET /api/valuelist': { body: { data: [LIST] } },
    ...routes,
  });
}

const table = async () => screen.findByRole('table', { name: 'Metadata fields' }, { timeout: 5_000 });

describe('metadata fields', () => {
  it('lists each field with its type, its checks in words and what uses it', async () => {
    server();
    renderApp('/admin/metadata-fields');
    const rows = within(await table()).getAllByRole('row');
    const status = rows.find((r) => r.textContent?.includes('Status'));
    expect(status).toHaveTextContent('Required');
    expect(status).toHaveTextContent('Value list');
    expect(status).toHaveTextContent('from Statuses');
    expect(status).toHaveTextContent('3 categories, 41 files');
    const amount = rows.find((r) => r.textContent?.includes('Amount'));
    expect(amount).toHaveTextContent('at least 0, at most 5000');
    expect(amount).toHaveTextContent('Not used');
  });

  it('creates a value-list field, sending only the options of that type', async () => {
    const { calls } = server({
      'POST /api/store_user_field': {
        body: { data: field(10, 'Region', { type: 'select', value_list: { id: 2, name: 'Statuses' } }) },
      },
    });
    const { user, notifications } = renderApp('/admin/metadata-fields');
    await table();
    await user.click(screen.getByRole('button', { name: 'New field' }));
    const dialog = screen.getByRole('dialog', { name: 'New metadata field' });
    await user.type(within(dialog).getByLabelText('Name'), 'Region');
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Value list');
    await user.selectOptions(await within(dialog).findByLabelText('Value list'), 'Statuses (4 items)');
    await user.click(within(dialog).getByRole('checkbox', { name: /Required/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create field' }));
    await waitFor(() => expect(notifications.current()?.title).toBe('Field created'));
    expect(calls.find((c) => c.path === '/api/store_user_field')?.body).toEqual({
      name: 'Region',
      type: 'select',
      required: true,
      help_text: '',
      value_list_id: 2,
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('checks the form by the contract before sending, and shows the server refusal at its field', async () => {
    const { calls } = server({
      'POST /api/store_user_field': invalidInput('body.name', 'A field with this name already exists'),
    });
    const { user } = renderApp('/admin/metadata-fields');
    await table();
    await user.click(screen.getByRole('button', { name: 'New field' }));
    const dialog = screen.getByRole('dialog', { name: 'New metadata field' });
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'Value list');
    await user.click(within(dialog).getByRole('button', { name: 'Create field' }));
    // No name and no list: refused in the browser, nothing sent.
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(calls.some((c) => c.path === '/api/store_user_field')).toBe(false);

    await user.type(within(dialog).getByLabelText('Name'), 'status');
    await user.selectOptions(within(dialog).getByLabelText('Value list'), 'Statuses (4 items)');
    await user.click(within(dialog).getByRole('button', { name: 'Create field' }));
    expect(await within(dialog).findByText('A field with this name already exists')).toBeVisible();
    expect(calls.filter((c) => c.path === '/api/store_user_field')).toHaveLength(1);
  });

  it('keeps the type of a field in use, and deletes only after a confirmation that says why it may not', async () => {
    const { calls } = server({
      'DELETE /api/deleteUserField/8': {
        status: 409,
        body: { message: 'Status is used by 3 categories and 41 files', code: 'metadata.field_in_use' },
      },
      'DELETE /api/deleteUserField/9': { body: { data: null } },
    });
    const { user, notifications } = renderApp('/admin/metadata-fields');
    await table();
    await user.click(screen.getByRole('button', { name: 'Edit Status' }));
    const edit = screen.getByRole('dialog', { name: 'Edit Status' });
    expect(within(edit).getByLabelText('Type')).toBeDisabled();
    await user.click(within(edit).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: 'Delete Status' }));
    const refused = screen.getByRole('dialog', { name: 'Delete the field Status?' });
    expect(refused).toHaveTextContent('It is used by 3 categories, 41 files');
    await user.click(within(refused).getByRole('button', { name: 'Delete field' }));
    expect(await within(refused).findByRole('alert')).toHaveTextContent('used by 3 categories and 41 files');
    await user.click(within(refused).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('button', { name: 'Delete Amount' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the field Amount?' });
    expect(calls.some((c) => c.path === '/api/deleteUserField/9')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete field' }));
    await waitFor(() => expect(notifications.current()?.title).toBe('Field deleted'));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/deleteUserField/9')).toBe(true);
  });

  it('is read only for an auditor', async () => {
    server({}, 'Auditor');
    renderApp('/admin/metadata-fields');
    await table();
    expect(screen.getByText('Read only')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New field' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Status' })).not.toBeInTheDocument();
  });
});
