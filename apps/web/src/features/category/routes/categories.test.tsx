import type { AccessType, TCategory, TCategoryInfo, TRights } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCategory, aMetadataField, onePage } from '../../../testing/fixtures';
import { invalidInput, type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const ALL: TRights = { view: true, upload: true, edit: true, delete: true, share: true, manage: true };
const VIEW: TRights = { view: true, upload: false, edit: false, delete: false, share: false, manage: false };

const folder = (
  id: number,
  name: string,
  parent_id: number | null,
  depth: number,
  over: Partial<TCategory> = {},
): TCategory => aCategory({ id, name, parent_id, depth, rights: ALL, ...over });

const TREE = [
  folder(1, 'Finance', null, 0, { subcategory_count: 2, file_count: 3 }),
  folder(2, 'Invoices', 1, 1, { file_count: 12 }),
  folder(3, 'Receipts', 1, 1, { position: 1 }),
  folder(4, 'Legal', null, 0, { position: 1 }),
];

const FIELD = aMetadataField({
  id: 8,
  name: 'Status',
  type: 'select',
  value_list: { id: 2, name: 'Statuses' },
  required: true,
  usage: { categories: 1, files: 0, workflows: 0 },
});

const info = (f: TCategory, over: Partial<TCategoryInfo> = {}): TCategoryInfo => ({
  ...f,
  ancestors: f.parent_id === 1 ? [{ id: 1, name: 'Finance' }] : [],
  children: TREE.filter((c) => c.parent_id === f.id),
  incremental_prefix: '',
  fields: [],
  related_tags: [],
  category_groups: [],
  grants: [],
  subtree_file_count: f.id === 1 ? 15 : f.file_count,
  subtree_category_count: f.subcategory_count,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
  ...over,
});

function server(
  routes: MockRoutes = {},
  role: 'admin' | 'user' = 'admin',
  as: AccessType = 'File Control Admin',
) {
  return signedInApi(role, as, {
    'GET /api/folders': { body: { data: TREE } },
    ...Object.fromEntries(TREE.map((f) => [`GET /api/folder/info/${f.id}`, { body: { data: info(f) } }])),
    ...routes,
  });
}

const heading = () => screen.findByRole('heading', { level: 1, name: 'Categories' }, { timeout: 5_000 });

describe('the category tree', () => {
  it('shows the tree, the first category chosen with what it holds; choosing another shows it', async () => {
    server();
    const { user, location } = renderApp('/admin/category');
    await heading();
    const tree = await screen.findByRole('treegrid', { name: 'Categories' });
    expect(await within(tree).findByRole('row', { name: /Finance/ })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Finance' })).toBeInTheDocument();
    expect(screen.getByText('3 files, 2 sub-categories')).toBeInTheDocument();
    // The branch of the chosen category is open: its children are rows of the tree.
    await user.click(within(tree).getByRole('row', { name: /Invoices/ }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Invoices' })).toBeInTheDocument();
    expect(location()).toBe('/admin/category?id=2');
    expect(localStorage.getItem('selectedCategoryId')).toBe('2');
  });

  it('is keyboard usable: arrows move through the tree, Enter chooses', async () => {
    server();
    const { user } = renderApp('/admin/category');
    await heading();
    const tree = await screen.findByRole('treegrid', { name: 'Categories' });
    await within(tree).findByRole('row', { name: /Finance/ });
    await user.click(within(tree).getByRole('row', { name: /Legal/ }));
    await screen.findByRole('heading', { level: 2, name: 'Legal' });
    await user.keyboard('{ArrowUp}{ArrowUp}{Enter}');
    expect(await screen.findByRole('heading', { level: 2, name: 'Invoices' })).toBeInTheDocument();
  });

  it('creates a sub-category in the chosen category', async () => {
    const { calls } = server({
      'POST /api/storeFolder': { body: { data: info(folder(9, 'Credit notes', 1, 1)) } },
    });
    const { user, notifications } = renderApp('/admin/category?id=1');
    await screen.findByRole('heading', { level: 2, name: 'Finance' }, { timeout: 5_000 });
    await user.click(screen.getByRole('button', { name: 'New sub-category' }));
    const dialog = await screen.findByRole('dialog', { name: 'New category in Finance' });
    await user.type(within(dialog).getByLabelText('Name'), 'Credit notes');
    await user.click(within(dialog).getByRole('button', { name: 'Create category' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/storeFolder')).toBe(true));
    expect(calls.find((c) => c.path === '/api/storeFolder')?.body).toEqual({
      name: 'Credit notes',
      description: '',
      parent_id: 1,
    });
    await waitFor(() => expect(notifications.current()?.title).toBe('Category created'));
  });

  it('shows a taken name at the name field', async () => {
    server({
      'POST /api/storeFolder': invalidInput(
        'body.name',
        'A category with this name already exists at this place',
        'A category named "Legal" already exists here',
      ),
    });
    const { user } = renderApp('/admin/category');
    await user.click(await screen.findByRole('button', { name: 'New category' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'New category' });
    await user.type(within(dialog).getByLabelText('Name'), 'legal');
    await user.click(within(dialog).getByRole('button', { name: 'Create category' }));
    expect(
      await within(dialog).findByText('A category with this name already exists at this place'),
    ).toBeVisible();
    expect(within(dialog).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
  });

  it("checks a new tag's name and colour at their fields before sending it", async () => {
    const { calls } = server();
    const { user } = renderApp('/admin/category/1');
    await user.click(await screen.findByRole('button', { name: 'Add a tag' }, { timeout: 5_000 }));
    const dialog = screen.getByRole('dialog', { name: 'New related tag' });
    await user.type(within(dialog).getByLabelText(/^Colour/), 'blue');
    await user.click(within(dialog).getByRole('button', { name: 'Add tag' }));
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription('Enter a name for the tag');
    const colour = within(dialog).getByLabelText(/^Colour/);
    expect(colour).toHaveAccessibleDescription('Use a colour as #rrggbb');
    expect(colour).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getByLabelText(/^Links the category/)).not.toHaveAttribute('aria-invalid');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says why a move was refused under the place it was to go', async () => {
    server({
      'POST /api/update/folder': {
        status: 409,
        body: { message: 'Legal already has a category named Finance', code: 'conflict' },
      },
    });
    const { user } = renderApp('/admin/category?id=1');
    await screen.findByRole('heading', { level: 2, name: 'Finance' }, { timeout: 5_000 });
    await user.click(screen.getByRole('button', { name: 'More actions for Finance' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Move Finance to another place' }));
    const dialog = screen.getByRole('dialog', { name: 'Move Finance' });
    const into = within(dialog).getByLabelText('Move into');
    await user.selectOptions(into, 'Legal');
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() =>
      expect(into).toHaveAccessibleDescription(/Legal already has a category named Finance/),
    );
    expect(into).toHaveAttribute('aria-invalid', 'true');
  });

  it('deletes only after saying how many files go to the trash, and sends that number', async () => {
    const { calls } = server({
      'POST /api/deleteFolder': { body: { data: { id: 1, deleted_categories: 3, trashed_files: 15 } } },
    });
    const { user, notifications } = renderApp('/admin/category?id=1');
    await screen.findByRole('heading', { level: 2, name: 'Finance' }, { timeout: 5_000 });
    await user.click(screen.getByRole('button', { name: 'More actions for Finance' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete Finance' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Finance?' });
    expect(dialog).toHaveTextContent('Finance and its 2 sub-categories will be deleted.');
    expect(dialog).toHaveTextContent('15 files will be moved to the trash');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Delete and trash 15 files' }));
    await waitFor(() => expect(notifications.current()?.title).toBe('Category deleted'));
    expect(calls.find((c) => c.path === '/api/deleteFolder')?.body).toEqual({
      folder_id: 1,
      confirm_file_count: 15,
    });
  });

  it('shows the new number when files changed before the delete was confirmed', async () => {
    let infoCalls = 0;
    server({
      'GET /api/folder/info/1': () => {
        infoCalls += 1;
        return { body: { data: info(TREE[0]!, { subtree_file_count: infoCalls > 1 ? 16 : 15 }) } };
      },
      'POST /api/deleteFolder': {
        status: 409,
        body: {
          message: '"Finance" and its 2 sub-categories hold 16 files.',
          code: 'category.delete_unconfirmed',
        },
      },
    });
    const { user } = renderApp('/admin/category?id=1');
    await screen.findByRole('heading', { level: 2, name: 'Finance' }, { timeout: 5_000 });
    await user.click(screen.getByRole('button', { name: 'More actions for Finance' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete Finance' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Finance?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete and trash 15 files' }));
    expect(
      await within(dialog).findByRole('button', { name: 'Delete and trash 16 files' }),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The number of files changed');
  });

  it('is read only for the Auditor, with the settings open to read', async () => {
    server({}, 'admin', 'Auditor');
    renderApp('/admin/category');
    await heading();
    await screen.findByRole('heading', { level: 2, name: 'Finance' });
    expect(screen.queryByRole('button', { name: 'New category' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'More actions for Finance' })).not.toBeInTheDocument();
    expect(screen.getByText('Read only')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Settings and rights' })).toHaveAttribute(
      'href',
      '/admin/category/1',
    );
  });

  it('shows General staff the categories open to them, with what they may do', async () => {
    server(
      {
        'GET /api/folders': {
          body: { data: [folder(2, 'Invoices', null, 0, { rights: VIEW, file_count: 12 })] },
        },
        'GET /api/folder/info/2': {
          body: {
            data: info(folder(2, 'Invoices', null, 0, { rights: VIEW }), { ancestors: [], grants: null }),
          },
        },
      },
      'user',
      'General staff',
    );
    renderApp('/categories');
    await heading();
    expect(screen.getByText('The categories open to you.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 2, name: 'Invoices' })).toBeInTheDocument();
    expect(screen.getByText('view')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Settings/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New category' })).not.toBeInTheDocument();
  });

  it("opens the chosen category's files, and offers Upload only where the person may upload", async () => {
    const UPLOAD: TRights = { ...VIEW, upload: true };
    server(
      {
        'GET /api/folders': {
          body: {
            data: [
              folder(2, 'Invoices', null, 0, { rights: UPLOAD, file_count: 12 }),
              folder(4, 'Legal', null, 0, { rights: VIEW, position: 1 }),
            ],
          },
        },
        'GET /api/folder/info/2': {
          body: {
            data: info(folder(2, 'Invoices', null, 0, { rights: UPLOAD }), { ancestors: [], grants: null }),
          },
        },
        'GET /api/folder/info/4': {
          body: {
            data: info(folder(4, 'Legal', null, 0, { rights: VIEW }), { ancestors: [], grants: null }),
          },
        },
        'GET /api/fileIncategory/2': {
          body: {
            data: onePage([], { folder: { id: 2, name: 'Invoices' }, columns: [] }),
          },
        },
      },
      'user',
      'General staff',
    );
    const { user, location } = renderApp('/categories');
    const detail = await screen.findByRole('region', { name: 'Invoices' }, { timeout: 5_000 });
    expect(within(detail).getByRole('link', { name: 'Upload' })).toHaveAttribute('href', '/files/upload/2');
    expect(within(detail).getByRole('link', { name: 'Invoices' })).toHaveAttribute(
      'href',
      '/files/category/2',
    );
    await user.click(
      within(screen.getByRole('treegrid', { name: 'Categories' })).getByRole('row', { name: /Legal/ }),
    );
    const legal = await screen.findByRole('region', { name: 'Legal' });
    expect(within(legal).getByRole('link', { name: 'Open' })).toHaveAttribute('href', '/files/category/4');
    expect(within(legal).queryByRole('link', { name: 'Upload' })).not.toBeInTheDocument();
    await user.click(
      within(screen.getByRole('treegrid', { name: 'Categories' })).getByRole('row', { name: /Invoices/ }),
    );
    await user.click(
      within(await screen.findByRole('region', { name: 'Invoices' })).getByRole('link', { name: 'Open' }),
    );
    await waitFor(() => expect(location()).toBe('/files/category/2'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Invoices' })).toBeInTheDocument();
  });
});

describe('the category settings', () => {
  const infoWithGrants = info(TREE[1]!, {
    fields: [
      {
        field: FIELD,
        position: 0,
        required: true,
        required_override: null,
        default_value: null,
        show_in_list: true,
        inherited: true,
        inherited_from: { id: 1, name: 'Finance' },
      },
    ],
    grants: [
      {
        id: 1,
        grantee: { kind: 'group', id: 5, name: 'Accounting' },
        rights: VIEW,
        source: 'own',
        from: { id: 2, name: 'Invoices' },
        category_group: null,
      },
      {
        id: 2,
        grantee: { kind: 'user', id: 6, name: 'Ann Lee' },
        rights: { ...VIEW, upload: true },
        source: 'inherited',
        from: { id: 1, name: 'Finance' },
        category_group: null,
      },
      {
        id: 3,
        grantee: { kind: 'group', id: 7, name: 'Auditors' },
        rights: VIEW,
        source: 'category_group',
        from: { id: 2, name: 'Invoices' },
        category_group: { id: 4, name: 'Money' },
      },
    ],
  });

  it('shows inherited fields and rights as such, and saves the grants set here', async () => {
    const { calls } = server({
      'GET /api/folder/info/2': { body: { data: infoWithGrants } },
      'GET /api/user_fields': { body: { data: [FIELD] } },
      'GET /api/category-grantees': {
        body: {
          data: {
            users: [{ id: 6, name: 'Ann Lee', username: 'alee' }],
            groups: [{ id: 5, name: 'Accounting' }],
          },
        },
      },
      'POST /api/update/folder': { body: { data: infoWithGrants } },
    });
    const { user } = renderApp('/admin/category/2');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Invoices: settings' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    const fields = screen.getByRole('region', { name: 'Metadata fields' });
    expect(within(fields).getByText('Status')).toBeInTheDocument();
    expect(within(fields).getByText('Inherited from Finance')).toBeInTheDocument();
    const elsewhere = screen.getByRole('table', { name: 'Rights on Invoices from elsewhere' });
    expect(within(elsewhere).getByRole('row', { name: /Ann Lee/ })).toHaveTextContent(
      'Inherited from Finance',
    );
    expect(within(elsewhere).getByRole('row', { name: /Auditors/ })).toHaveTextContent(
      'Through the category group Money',
    );
    const own = screen.getByRole('table', { name: 'Rights set on Invoices' });
    await user.click(within(own).getByRole('checkbox', { name: 'Accounting may upload' }));
    await user.click(screen.getByRole('button', { name: 'Save rights' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/update/folder')).toBe(true));
    expect(calls.find((c) => c.path === '/api/update/folder')?.body).toEqual({
      folder_id: 2,
      permissions: [{ group_id: 5, rights: ['view', 'upload'] }],
    });
  });
});
