import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type RecordedCall, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const row = (n: number, username: string) => ({
  row: n,
  username,
  email: `${username}@example.test`,
  first_name: username,
  last_name: 'Test',
  access_type: 'General staff',
  role: 'user',
});

const workbook = () =>
  new File(['fake'], 'people.xlsx', {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  });

function server(dryRunErrors: Array<{ path: string; message: string }>) {
  return signedInApi('admin', 'COMPANY ADMIN', {
    'GET /api/users/all': { body: { data: { users: [], page: 1, quantity: 20, total: 0, last_page: 1 } } },
    'POST /api/import_user': (call: RecordedCall) => {
      const dryRun = (call.body as Record<string, unknown>).dry_run === 'true';
      const rows = [row(2, 'ann'), row(3, 'ben')];
      return {
        body: {
          data: dryRun
            ? { dry_run: true, rows, errors: dryRunErrors, created: 0 }
            : { dry_run: false, rows, errors: [], created: 2 },
        },
      };
    },
  });
}

describe('the user import', () => {
  it('previews the rows with their errors and will not import while there are any', async () => {
    const { calls } = server([{ path: 'row 3.email', message: 'This e-mail is already in use' }]);
    const { user } = renderApp('/admin/users/import');
    await user.upload(await screen.findByLabelText(/^Workbook/, {}, { timeout: 5_000 }), workbook());
    const ben = await screen.findByRole('row', { name: /ben@example.test/ });
    expect(ben).toHaveTextContent('E-mail: This e-mail is already in use');
    expect(screen.getByRole('row', { name: /ann@example.test/ })).toHaveTextContent('OK');
    expect(screen.getByText(/1 problem/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import 2 users' })).toBeDisabled();
    const upload = calls.find((c) => c.path === '/api/import_user');
    expect(upload?.body).toMatchObject({ dry_run: 'true' });
    expect((upload?.body as Record<string, File> | undefined)?.file?.name).toBe('people.xlsx');
  });

  it('imports when every row is fine, then goes back to the users', async () => {
    const { calls } = server([]);
    const { user, location, notifications } = renderApp('/admin/users/import');
    await user.upload(await screen.findByLabelText(/^Workbook/, {}, { timeout: 5_000 }), workbook());
    await user.click(await screen.findByRole('button', { name: 'Import 2 users' }));
    await waitFor(() => expect(location()).toBe('/admin/users'));
    expect(calls.filter((c) => c.path === '/api/import_user').at(-1)?.body).toMatchObject({
      dry_run: 'false',
    });
    expect(notifications.current()).toMatchObject({
      title: 'Users imported',
      message: '2 users were created.',
    });
  });

  it('clears the failure of an earlier file once a later preview succeeds', async () => {
    let attempt = 0;
    signedInApi('admin', 'COMPANY ADMIN', {
      'POST /api/import_user': () =>
        ++attempt === 1
          ? { status: 400, body: { message: 'The file is not a readable workbook' } }
          : { body: { data: { dry_run: true, rows: [row(2, 'ann')], errors: [], created: 0 } } },
    });
    const { user } = renderApp('/admin/users/import');
    const input = await screen.findByLabelText(/^Workbook/, {}, { timeout: 5_000 });
    await user.upload(input, workbook());
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to read the spreadsheet');
    await user.upload(input, workbook());
    expect(await screen.findByRole('row', { name: /ann@example.test/ })).toBeInTheDocument();
    expect(screen.queryByText('Failed to read the spreadsheet')).not.toBeInTheDocument();
    expect(screen.queryByText('The file is not a readable workbook')).not.toBeInTheDocument();
  });

  it('refuses a file that is not a workbook without sending it', async () => {
    const { calls } = server([]);
    renderApp('/admin/users/import');
    const input = await screen.findByLabelText(/^Workbook/, {}, { timeout: 5_000 });
    // Past the picker's filter (a person can choose "All files").
    fireEvent.change(input, { target: { files: [new File(['a,b'], 'people.csv', { type: 'text/csv' })] } });
    expect(input).toHaveAccessibleDescription('Choose an Excel workbook (.xlsx), such as the template.');
    expect(calls.some((c) => c.path === '/api/import_user')).toBe(false);
  });
});
