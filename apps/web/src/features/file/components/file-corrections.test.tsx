import type { TCategoryOption, TFileDetail, TFilePermissions } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCategoryField, aFile, fileServer, olive, sam } from '../../../testing/file-fixtures';
import { invalidInput } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

// Correcting a filed file from its page: its values, its category, its own permissions.

async function openPage() {
  const app = renderApp('/files/5');
  await screen.findByRole('heading', { level: 1, name: 'report.txt' }, { timeout: 10_000 });
  return app;
}
const bar = () => screen.getByRole('toolbar', { name: 'File actions' });
const values = () => screen.getByRole('region', { name: 'Values' });

const invoiceFields = [
  aCategoryField({ id: 13, name: 'Reference', type: 'text' }),
  aCategoryField({ id: 14, name: 'Amount', type: 'number' }),
];
const rights = { view: true, upload: true, edit: true, delete: false, share: false, manage: false };
const category = (id: number, name: string): TCategoryOption => ({
  id,
  name,
  path: `Finance / ${name}`,
  parent_id: 1,
  rights,
});

describe('the file page: values', () => {
  it('edits the values: sent by field, the page shows the new ones', async () => {
    let file: TFileDetail = aFile();
    const api = fileServer(() => file, {
      'GET /api/folderMeta/4': {
        body: { data: { folder_id: 4, inherit_fields: false, fields: invoiceFields } },
      },
      'POST /api/edit-file-user-field': () => {
        file = aFile({
          values: [
            { field_id: 13, name: 'Reference', type: 'text', value: 'REF-2', display: 'REF-2' },
            { field_id: 14, name: 'Amount', type: 'number', value: 12.5, display: '12.5' },
          ],
        });
        return { body: { data: file } };
      },
    });
    const { user } = await openPage();
    expect(values()).toHaveTextContent('REF-1');
    await user.click(within(bar()).getByRole('button', { name: 'Edit values' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the values of report.txt' });
    const reference = await within(dialog).findByLabelText('Reference');
    expect(reference).toHaveValue('REF-1');
    await user.clear(reference);
    await user.type(reference, 'REF-2');
    await user.type(within(dialog).getByLabelText('Amount'), '12.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save values' }));
    expect(await screen.findByText('Values saved')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/edit-file-user-field')?.body).toEqual({
      file_id: 5,
      values: [
        { field_id: 13, value: 'REF-2' },
        { field_id: 14, value: 12.5 },
      ],
    });
    await waitFor(() => expect(values()).toHaveTextContent('REF-2'));
    expect(values()).toHaveTextContent('12.5');
  });

  it("shows the server's refusal at the field it names", async () => {
    const api = fileServer(aFile(), {
      'GET /api/folderMeta/4': {
        body: { data: { folder_id: 4, inherit_fields: false, fields: invoiceFields } },
      },
      'POST /api/edit-file-user-field': invalidInput('body.fields.14', 'Amount must be at most 1000'),
    });
    const { user } = await openPage();
    await user.click(within(bar()).getByRole('button', { name: 'Edit values' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the values of report.txt' });
    await user.type(await within(dialog).findByLabelText('Amount'), '5000');
    await user.click(within(dialog).getByRole('button', { name: 'Save values' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Amount')).toHaveAccessibleDescription(
        'Amount must be at most 1000',
      ),
    );
    expect(within(dialog).getByLabelText('Amount')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls.filter((c) => c.path === '/api/edit-file-user-field')).toHaveLength(1);
  });
});

describe('the file page: move', () => {
  it('moves to a category the caller may upload into, with its fields, and shows the new category', async () => {
    let file: TFileDetail = aFile();
    const api = fileServer(() => file, {
      'GET /api/fileCategories': { body: { data: [category(4, 'Invoices'), category(6, 'Receipts')] } },
      'GET /api/folderMeta/6': {
        body: {
          data: {
            folder_id: 6,
            inherit_fields: false,
            fields: [
              aCategoryField({ id: 13, name: 'Reference', type: 'text' }),
              aCategoryField({ id: 15, name: 'Shop', type: 'text', required: true }),
            ],
          },
        },
      },
      'POST /api/update-file-category': () => {
        file = aFile({ folder_id: 6, folder_name: 'Receipts', incremental: 'REC-9' });
        return { body: { data: file } };
      },
    });
    const { user } = await openPage();
    await user.click(within(bar()).getByRole('button', { name: 'Move' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move report.txt' });
    const picker = within(dialog).getByLabelText('Move to category');
    await waitFor(() =>
      expect(within(picker).getByRole('option', { name: 'Finance / Receipts' })).toBeInTheDocument(),
    );
    // The category it is in is not offered.
    expect(within(picker).queryByRole('option', { name: 'Finance / Invoices' })).not.toBeInTheDocument();
    await user.selectOptions(picker, 'Finance / Receipts');
    expect(await within(dialog).findByLabelText(/Shop/)).toHaveValue('');
    expect(within(dialog).getByLabelText('Reference')).toHaveValue('REF-1');
    // A required field left empty is marked before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Move to Receipts' }));
    expect(api.calls.some((c) => c.path === '/api/update-file-category')).toBe(false);
    await user.type(within(dialog).getByLabelText(/Shop/), 'Corner shop');
    await user.click(within(dialog).getByRole('button', { name: 'Move to Receipts' }));
    expect(await screen.findByText('File moved')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/update-file-category')?.body).toEqual({
      file_id: 5,
      folder_id: 6,
      values: [
        { field_id: 13, value: 'REF-1' },
        { field_id: 15, value: 'Corner shop' },
      ],
    });
    expect(api.calls.find((c) => c.path === '/api/fileCategories')?.search).toBe('?right=upload');
    expect(await screen.findByRole('link', { name: 'Receipts' })).toHaveAttribute(
      'href',
      '/files/category/6',
    );
  });
});

describe('the file page: permissions', () => {
  const permissions = (over: Partial<TFilePermissions> = {}): TFilePermissions => ({
    file_id: 5,
    has_own_permissions: false,
    grants: [
      {
        id: 1,
        user: sam,
        group: null,
        view: true,
        download: true,
        edit: false,
        delete: false,
        share: false,
      },
    ],
    mine: { view: true, download: true, edit: true, delete: true, share: true },
    ...over,
  });

  it("lists the file's grants, changes a right and the inheritance, and saves them all", async () => {
    const withShare = aFile({
      permissions: { view: true, download: true, edit: true, delete: true, share: true },
    });
    const api = fileServer(withShare, {
      'GET /api/file-permissions/5': { body: { data: permissions() } },
      'GET /api/user_fields/users': { body: { data: [olive, sam] } },
      'POST /api/update-file-permission': {
        body: { data: permissions({ has_own_permissions: true }) },
      },
    });
    const { user } = await openPage();
    await user.click(within(bar()).getByRole('button', { name: 'Permissions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Permissions of report.txt' });
    const edit = await within(dialog).findByRole('checkbox', { name: 'Edit: Sam Clerk' });
    expect(within(dialog).getByRole('checkbox', { name: 'Download: Sam Clerk' })).toBeChecked();
    expect(edit).not.toBeChecked();
    await user.click(edit);
    await user.click(within(dialog).getByRole('checkbox', { name: "The category's permissions apply too" }));
    await user.click(within(dialog).getByRole('button', { name: 'Save permissions' }));
    expect(await screen.findByText('Permissions saved')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/update-file-permission')?.body).toEqual({
      file_id: 5,
      inherit_category: false,
      grants: [{ user_id: 8, view: true, download: true, edit: true, delete: false, share: false }],
    });
  });

  it('adds a person with view only, and offers no right the caller does not hold', async () => {
    const withShare = aFile({
      permissions: { view: true, download: true, edit: false, delete: false, share: true },
    });
    const api = fileServer(withShare, {
      'GET /api/file-permissions/5': {
        body: {
          data: permissions({
            grants: [],
            mine: { view: true, download: true, edit: false, delete: false, share: true },
          }),
        },
      },
      'GET /api/user_fields/users': { body: { data: [olive, sam] } },
      'POST /api/update-file-permission': { body: { data: permissions() } },
    });
    const { user } = await openPage();
    await user.click(within(bar()).getByRole('button', { name: 'Permissions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Permissions of report.txt' });
    expect(
      await within(dialog).findByText('No one has rights of their own on this file.'),
    ).toBeInTheDocument();
    await user.type(within(dialog).getByRole('combobox', { name: 'People' }), 'Sam');
    await screen.findByRole('option', { name: /Sam Clerk/ });
    await user.keyboard('{ArrowDown}{Enter}');
    await user.keyboard('{Escape}'); // closes the list of people, not the dialog
    expect(within(dialog).getByRole('checkbox', { name: 'View: Sam Clerk' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Edit: Sam Clerk' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Save permissions' }));
    expect(await screen.findByText('Permissions saved')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/update-file-permission')?.body).toEqual({
      file_id: 5,
      inherit_category: true,
      grants: [{ user_id: 8, view: true, download: false, edit: false, delete: false, share: false }],
    });
  });
});
