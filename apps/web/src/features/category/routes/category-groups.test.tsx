import type { AccessType, TCategoryGroup, TCategoryOption, TRights } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCategoryOption } from '../../../testing/fixtures';
import { invalidInput, type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const ALL: TRights = { view: true, upload: true, edit: true, delete: true, share: true, manage: true };
const VIEW_UPLOAD: TRights = { ...ALL, edit: false, delete: false, share: false, manage: false };

const option = (id: number, name: string, path: string): TCategoryOption =>
  aCategoryOption({ id, name, path });
const CATEGORIES = [
  option(1, 'Finance', 'Finance'),
  option(2, 'Invoices', 'Finance / Invoices'),
  option(3, 'Receipts', 'Finance / Receipts'),
  option(4, 'Legal', 'Legal'),
  option(5, 'Contracts', 'Legal / Contracts'),
];

const group = (over: Partial<TCategoryGroup> = {}): TCategoryGroup => ({
  id: 7,
  name: 'Accounting',
  description: 'What the accountants see',
  categories: CATEGORIES.slice(0, 5).map(({ id, name, path }) => ({ id, name, path })),
  grants: [{ id: 1, grantee: { kind: 'group', id: 3, name: 'Accountants' }, rights: VIEW_UPLOAD }],
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  ...over,
});

function server(routes: MockRoutes = {}, as: AccessType = 'File Control Admin') {
  return signedInApi('admin', as, {
    'GET /api/category-groups': { body: { data: [group()] } },
    'GET /api/fileCategories': { body: { data: CATEGORIES } },
    'GET /api/category-grantees': {
      body: {
        data: {
          users: [{ id: 11, name: 'Alice Smith', username: 'asmith' }],
          groups: [{ id: 3, name: 'Accountants' }],
        },
      },
    },
    ...routes,
  });
}

const table = () => screen.findByRole('table', { name: 'Category groups' }, { timeout: 5_000 });

describe('category groups', () => {
  it('lists each group with its first categories, how many more, and who holds rights', async () => {
    server();
    renderApp('/admin/category-groups');
    const row = within(await table()).getByRole('row', { name: /Accounting/ });
    expect(row).toHaveTextContent('Finance, Finance / Invoices, Finance / Receipts and 2 more');
    expect(row).toHaveTextContent('Accountants');
  });

  it('creates a group with categories picked by typing and rights for a person', async () => {
    const { calls } = server({
      'POST /api/create/category-group': { body: { data: group({ id: 8, name: 'Legal team', grants: [] }) } },
    });
    const { user, notifications } = renderApp('/admin/category-groups');
    await table();
    await user.click(screen.getByRole('button', { name: 'New category group' }));
    const dialog = screen.getByRole('dialog', { name: 'New category group' });
    await user.click(within(dialog).getByRole('button', { name: 'Create group' }));
    expect(await within(dialog).findByText('Enter a name for the category group')).toBeVisible();
    expect(calls.some((c) => c.path === '/api/create/category-group')).toBe(false);

    await user.type(within(dialog).getByLabelText('Name'), 'Legal team');
    const categories = within(dialog).getByRole('combobox', { name: 'Categories' });
    await user.type(categories, 'contr');
    await user.keyboard('{ArrowDown}{Enter}');
    await user.type(categories, 'legal');
    await user.keyboard('{ArrowDown}{Enter}{Escape}');
    await user.type(within(dialog).getByRole('combobox', { name: 'People' }), 'alice');
    await user.keyboard('{ArrowDown}{Enter}{Escape}');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Alice Smith may edit' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create group' }));
    await waitFor(() => expect(notifications.current()?.title).toBe('Category group created'));
    expect(calls.find((c) => c.path === '/api/create/category-group')?.body).toEqual({
      name: 'Legal team',
      description: '',
      category_ids: [5, 4],
      permissions: [{ user_id: 11, rights: ['view', 'edit'] }],
    });
  });

  it('edits a group with what it holds filled in, and shows a refusal at its field', async () => {
    const { calls } = server({
      'POST /api/update/category-group': invalidInput(
        'body.name',
        'A category group with this name already exists',
      ),
    });
    const { user } = renderApp('/admin/category-groups');
    await table();
    await user.click(screen.getByRole('button', { name: 'Edit Accounting' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Accounting' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Accounting');
    expect(within(dialog).getByRole('checkbox', { name: 'Accountants may upload' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText('A category group with this name already exists')).toBeVisible();
    expect(calls.find((c) => c.path === '/api/update/category-group')?.body).toEqual({
      id: 7,
      name: 'Accounting',
      description: 'What the accountants see',
      category_ids: [1, 2, 3, 4, 5],
      permissions: [{ group_id: 3, rights: ['view', 'upload'] }],
    });
  });

  it('deletes only after a confirmation that the categories stay', async () => {
    const { calls } = server({
      'POST /api/delete/category-group/7': { body: { data: null } },
    });
    const { user, notifications } = renderApp('/admin/category-groups');
    await table();
    await user.click(screen.getByRole('button', { name: 'Delete Accounting' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the category group Accounting?' });
    expect(dialog).toHaveTextContent('The categories stay');
    expect(calls.some((c) => c.path === '/api/delete/category-group/7')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete group' }));
    await waitFor(() => expect(notifications.current()?.title).toBe('Category group deleted'));
    expect(calls.some((c) => c.path === '/api/delete/category-group/7')).toBe(true);
  });

  it('is read only for an auditor', async () => {
    server({}, 'Auditor');
    renderApp('/admin/category-groups');
    await table();
    expect(screen.getByText('Read only')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New category group' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Accounting' })).not.toBeInTheDocument();
  });
});
