import type { contract, Data } from '@quire/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signIn } from '../../../testing/fixtures';
import { mockApi, type RecordedCall } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const TOTALS: Record<string, number> = { active: 12, deactivated: 3, deleted: 1 };

describe('the administration overview', () => {
  it('counts users by status, live sessions and groups, and links to each screen', async () => {
    const data = signIn('admin', 'User Administration Admin');
    mockApi({
      'GET /api/user/current': { body: { data: data.user } },
      'GET /api/users/all': (call: RecordedCall) => {
        const status = new URLSearchParams(call.search).get('status') ?? '';
        return {
          body: { data: { users: [], page: 1, quantity: 1, total: TOTALS[status] ?? 0, last_page: 1 } },
        };
      },
      // Only counted here: the rows' contents do not matter.
      'GET /api/logged-in-user': { body: { data: [{}, {}] as Data<typeof contract.user.loggedInUsers> } },
      'GET /api/all_group': { body: { data: [{ id: 1 }] as Data<typeof contract.group.allGroups> } },
      'GET /api/email_setup': { body: { data: null } },
      'GET /api/email/notification': {
        body: { data: { items: [], page: 1, quantity: 1, total: 4, last_page: 4 } },
      },
    });
    renderApp('/admin/dashboard');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Administration' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /Active users\s*12/ })).toHaveAttribute(
      'href',
      '/admin/users?status=active',
    );
    expect(await screen.findByRole('link', { name: /Deactivated users\s*3/ })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /Deleted users\s*1/ })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: /Signed in now\s*2/ })).toHaveAttribute(
      'href',
      '/admin/logged-in-users',
    );
    expect(await screen.findByRole('link', { name: /Groups\s*1/ })).toHaveAttribute('href', '/admin/groups');
    expect(
      await screen.findByRole('link', { name: /Outgoing e-mail\s*Not set up\s*4 failed to send/ }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Import users/ })).toHaveAttribute('href', '/admin/users/import');
  });
});
