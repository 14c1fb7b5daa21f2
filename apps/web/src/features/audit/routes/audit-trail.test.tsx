import type { TAuditChainStatus, TAuditEvent, TAuditPage } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { onePage } from '../../../testing/fixtures';
import { signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const event = (id: number, type: string, action: string, message: string): TAuditEvent => ({
  id,
  seq: id,
  created_at: '2026-11-20T10:00:00Z',
  user: { id: 2, username: 'admin', name: 'Company Admin' },
  type,
  action,
  message,
  target_type: 'file',
  target_id: '11',
  ip: '127.0.0.1',
  details: null,
  hash: 'ab'.repeat(32),
});
const page = (items: TAuditEvent[]): TAuditPage => onePage(items, { total_exact: true, next_cursor: null });
const chain: TAuditChainStatus = {
  head: { seq: 2, hash: 'ab'.repeat(32) },
  verification: {
    ok: true,
    checked: 2,
    started_at: '2026-11-20T10:00:00Z',
    finished_at: '2026-11-20T10:00:01Z',
    head_seq: 2,
    problem: null,
    problem_seq: null,
  },
  verifying: false,
};

describe('the audit trail page', () => {
  it('lists the events, filters them by type through the call, and shows the tamper check', async () => {
    const api = signedInApi('admin', 'Auditor', {
      'GET /api/all_user': { body: { data: [] } },
      'GET /api/audits/chain': { body: { data: chain } },
      'GET /api/audits/activity': (call) => {
        const type = new URLSearchParams(call.search).get('type');
        return {
          body: {
            data: page(
              type === 'file'
                ? [event(2, 'file', 'file.uploaded', 'Uploaded "minutes.txt"')]
                : [
                    event(2, 'file', 'file.uploaded', 'Uploaded "minutes.txt"'),
                    event(1, 'auth', 'login.success', 'admin signed in as admin'),
                  ],
            ),
          },
        };
      },
    });
    const { user } = renderApp('/admin/audit');
    const table = await screen.findByRole('table', { name: 'Audit events' }, { timeout: 10_000 });
    expect(await within(table).findByText('admin signed in as admin')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Tamper check' })).toHaveTextContent('The chain verifies');

    const filters = screen.getByRole('region', { name: 'Filters' });
    await user.selectOptions(within(filters).getByLabelText('Type'), 'file');
    await waitFor(() =>
      expect(within(table).queryByText('admin signed in as admin')).not.toBeInTheDocument(),
    );
    expect(within(table).getByText('Uploaded "minutes.txt"')).toBeInTheDocument();
    const calls = api.fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://x'));
    expect(
      calls.some((u) => u.pathname === '/api/audits/activity' && u.searchParams.get('type') === 'file'),
    ).toBe(true);
  });
});
