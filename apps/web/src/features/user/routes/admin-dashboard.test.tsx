import type { contract, Data } from '@quire/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type RecordedCall, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const TOTALS: Record<string, number> = { active: 12, deactivated: 3, deleted: 1 };

describe('the administration overview', () => {
  it('counts users by status, live sessions and groups, and links to each screen', async () => {
    signedInApi('admin', 'User Administration Admin', {
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
      'GET /api/licence/status': {
        body: { data: { licence: null, seats_used: 16, days_left: null, read_only: false, problem: null } },
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
    expect(await screen.findByRole('region', { name: 'Licence' })).toHaveTextContent(
      'No licence installed: no limits. 16 active accounts.',
    );
  });

  it('shows the Company Admin the licence: who it is for, seats used of the total, and when it ends', async () => {
    signedInApi('admin', 'COMPANY ADMIN', {
      'GET /api/licence/status': {
        body: {
          data: {
            licence: {
              licensee: 'Acme Ltd',
              seats: 25,
              starts_at: '2026-01-01T00:00:00.000Z',
              expires_at: '2026-07-01T12:00:00.000Z',
              features: [],
              installed_at: '2026-01-02T09:00:00.000Z',
              installed_by: 'vendor',
            },
            seats_used: 12,
            days_left: 30,
            read_only: false,
            problem: null,
          },
        },
      },
    });
    renderApp('/admin/dashboard');
    const licence = await screen.findByRole('region', { name: 'Licence' }, { timeout: 5_000 });
    await screen.findByText('Acme Ltd');
    expect(licence).toHaveTextContent(/Licensed toAcme Ltd/);
    expect(licence).toHaveTextContent(/Seats12 of 25 used/);
    expect(licence).toHaveTextContent(/Expires.*2026.*\(30 days left\)/);
  });
});
