import type { AccessType, TValueList, TValueListDetail } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { invalidInput, type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const STATUSES: TValueList = {
  id: 2,
  name: 'Statuses',
  description: 'Where an invoice is',
  source: 'manual',
  item_count: 3,
  fields: [{ id: 8, name: 'Status' }],
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-02T00:00:00Z',
};
const REGIONS: TValueList = {
  ...STATUSES,
  id: 3,
  name: 'Regions',
  description: '',
  source: 'excel',
  fields: [],
};

const DETAIL: TValueListDetail = {
  ...STATUSES,
  items: [
    { id: 21, key: 1, label: 'Draft', position: 0 },
    { id: 22, key: 2, label: 'Sent', position: 1 },
    { id: 23, key: 3, label: 'Paid', position: 2 },
  ],
};

function server(routes: MockRoutes = {}, as: AccessType = 'File Control Admin') {
  return signedInApi('admin', as, {
    'GET /api/valuelist': { body: { data: [STATUSES, REGIONS] } },
    'GET /api/valuelist/2': { body: { data: DETAIL } },
    ...routes,
  });
}

describe('value lists', () => {
  it('lists each list with its items and fields; a new list opens its editor', async () => {
    const { calls } = server({
      'POST /api/create_value_list': {
        body: { data: { ...DETAIL, id: 5, name: 'Currencies', description: '', items: [] } },
      },
      'GET /api/valuelist/5': { body: { data: { ...DETAIL, id: 5, name: 'Currencies', items: [] } } },
    });
    const { user, location } = renderApp('/admin/value-lists');
    const table = await screen.findByRole('table', { name: 'Value lists' }, { timeout: 5_000 });
    const regions = within(table).getByRole('row', { name: /Regions/ });
    expect(regions).toHaveTextContent('from Excel');
    expect(regions).toHaveTextContent('No field');
    expect(within(table).getByRole('row', { name: /Statuses/ })).toHaveTextContent('Status');

    await user.click(screen.getByRole('button', { name: 'New value list' }));
    const dialog = screen.getByRole('dialog', { name: 'New value list' });
    await user.click(within(dialog).getByRole('button', { name: 'Create list' }));
    expect(await within(dialog).findByText('Enter a name for the list')).toBeVisible();
    expect(calls.some((c) => c.path === '/api/create_value_list')).toBe(false);
    await user.type(within(dialog).getByLabelText('Name'), 'Currencies');
    await user.click(within(dialog).getByRole('button', { name: 'Create list' }));
    await waitFor(() => expect(location()).toBe('/admin/value-lists/5'));
    expect(calls.find((c) => c.path === '/api/create_value_list')?.body).toEqual({
      name: 'Currencies',
      description: '',
      items: [],
    });
  });

  it('edits the items in place and saves them in their new order, new ones without a key', async () => {
    const { calls } = server({
      'PUT /api/edit_value_list/2': { body: { data: DETAIL } },
    });
    const { user, notifications } = renderApp('/admin/value-lists/2');
    await screen.findByRole('heading', { level: 1, name: 'Statuses' }, { timeout: 5_000 });
    expect(screen.getByText('Used by the field Status.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Move Paid up' }));
    await user.click(screen.getByRole('button', { name: 'Remove Draft' }));
    await user.click(screen.getByRole('button', { name: 'Add item' }));
    await user.type(screen.getByLabelText('Label of item 3'), 'Disputed');
    await user.click(screen.getByRole('button', { name: 'Save list' }));
    await waitFor(() => expect(notifications.current()?.title).toBe('Value list saved'));
    expect(calls.find((c) => c.path === '/api/edit_value_list/2')?.body).toEqual({
      name: 'Statuses',
      description: 'Where an invoice is',
      items: [{ id: 23, key: 3, label: 'Paid' }, { id: 22, key: 2, label: 'Sent' }, { label: 'Disputed' }],
    });
  });

  it("shows the server's refusal at the item it names", async () => {
    server({
      'PUT /api/edit_value_list/2': invalidInput('body.items.1.label', 'Two items have the label "Paid"'),
    });
    const { user, notifications } = renderApp('/admin/value-lists/2');
    await screen.findByRole('heading', { level: 1, name: 'Statuses' }, { timeout: 5_000 });
    const second = screen.getByLabelText('Label of item 2');
    await user.clear(second);
    await user.type(second, 'Paid');
    await user.click(screen.getByRole('button', { name: 'Save list' }));
    expect(await screen.findByText('Two items have the label "Paid"')).toBeVisible();
    expect(screen.getByLabelText('Label of item 2')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Label of item 1')).not.toHaveAttribute('aria-invalid');
    expect(notifications.current()?.title).toBe('Failed to save value list!');
  });

  it("shows the server's refusal of the name under the name field, as its description", async () => {
    server({ 'PUT /api/edit_value_list/2': invalidInput('body.name', 'A value list has this name') });
    const { user } = renderApp('/admin/value-lists/2');
    await screen.findByRole('heading', { level: 1, name: 'Statuses' }, { timeout: 5_000 });
    await user.click(screen.getByRole('button', { name: 'Save list' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveAccessibleDescription('A value list has this name'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
  });

  it('deletes only after a confirmation, which shows why a list in use stays', async () => {
    const { calls } = server({
      'DELETE /api/destroyValueList/2': {
        status: 409,
        body: { message: 'Statuses is used by the field Status', code: 'value_list.in_use' },
      },
    });
    const { user, location } = renderApp('/admin/value-lists/2');
    await screen.findByRole('heading', { level: 1, name: 'Statuses' }, { timeout: 5_000 });
    await user.click(screen.getByRole('button', { name: 'Delete list' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the value list Statuses?' });
    expect(dialog).toHaveTextContent('The list and its 3 items go.');
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete list' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('used by the field Status');
    expect(location()).toBe('/admin/value-lists/2');
  });

  it('is read only for an auditor', async () => {
    server({}, 'Auditor');
    renderApp('/admin/value-lists/2');
    await screen.findByRole('heading', { level: 1, name: 'Statuses' }, { timeout: 5_000 });
    expect(screen.getByText('Read only')).toBeInTheDocument();
    expect(screen.getByLabelText('Label of item 1')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save list' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete list' })).not.toBeInTheDocument();
  });
});
