import type { contract, Data } from '@quire/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const NOW = new Date('2025-06-01T12:00:00Z');

type Session = Data<typeof contract.user.loggedInUsers>[number];
const session = (overrides: Partial<Session> = {}): Session => ({
  session_id: 's1',
  current: false,
  user: {
    id: 20,
    name: 'Alice Smith',
    username: 'asmith',
    email: 'alice@example.test',
    access_type: 'General staff' as const,
    status: 'active' as const,
  },
  role: 'user' as const,
  ip: '203.0.113.7',
  user_agent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  created_at: '2025-06-01T09:00:00Z',
  last_seen_at: '2025-06-01T11:55:00Z',
  expires_at: '2025-06-02T09:00:00Z',
  ...overrides,
});

describe('the signed-in users page', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true, toFake: ['Date'] });
  });
  afterEach(() => vi.useRealTimers());

  it('lists live sessions with a short browser name and relative times', async () => {
    signedInApi('admin', 'User Administration Admin', {
      'GET /api/logged-in-user': {
        body: {
          data: [
            session(),
            session({
              session_id: 's2',
              current: true,
              ip: null,
              user_agent: null,
              role: 'admin',
              user: { ...session().user, id: 7, name: 'Jane Doe', username: 'jdoe' },
            }),
            // Another session of the same person: not "you, this session".
            session({
              session_id: 's3',
              user: { ...session().user, id: 7, name: 'Jane Doe', username: 'jdoe' },
            }),
          ],
        },
      },
    });
    renderApp('/admin/logged-in-users');
    const alice = await screen.findByRole('row', { name: /Alice Smith/ }, { timeout: 5_000 });
    expect(alice).toHaveTextContent('asmith · General Staff');
    expect(alice).toHaveTextContent('203.0.113.7');
    expect(within(alice).getByText('Chrome 126 on Windows')).toHaveAttribute(
      'title',
      expect.stringContaining('Mozilla/5.0'),
    );
    expect(alice).toHaveTextContent('3 hours ago');
    expect(alice).toHaveTextContent('5 minutes ago');
    const [me, other] = screen.getAllByRole('row', { name: /Jane Doe/ });
    expect(me).toHaveTextContent('(you, this session)');
    expect(me).toHaveTextContent('Admin');
    expect(me).toHaveTextContent('Unknown');
    expect(other).not.toHaveTextContent('(you');
    expect(screen.getByText('3 live sessions')).toBeInTheDocument();
  });

  it('ends another session after asking, never the current one', async () => {
    const { calls } = signedInApi('admin', 'User Administration Admin', {
      'GET /api/logged-in-user': {
        body: { data: [session(), session({ session_id: 's2', current: true })] },
      },
      'POST /api/logged-in-user/s1/end': { body: { message: 'Session ended', data: null } },
    });
    const { user, notifications } = renderApp('/admin/logged-in-users');
    const rows = await screen.findAllByRole('row', { name: /Alice Smith/ }, { timeout: 5_000 });
    expect(within(rows[1] as HTMLElement).queryByRole('button', { name: 'End session' })).toBeNull();
    await user.click(within(rows[0] as HTMLElement).getByRole('button', { name: 'End session' }));
    const dialog = await screen.findByRole('dialog', { name: 'End this session of Alice Smith?' });
    const ended = () => calls.filter((c) => c.method === 'POST' && c.path === '/api/logged-in-user/s1/end');
    expect(ended()).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'End session' }));
    await vi.waitFor(() => expect(ended()).toHaveLength(1));
    expect(notifications.current()).toMatchObject({ title: 'Session ended' });
  });

  it('offers no End session to an Auditor (read only)', async () => {
    signedInApi('admin', 'Auditor', {
      'GET /api/logged-in-user': { body: { data: [session()] } },
    });
    renderApp('/admin/logged-in-users');
    const row = await screen.findByRole('row', { name: /Alice Smith/ }, { timeout: 5_000 });
    expect(within(row).queryByRole('button', { name: 'End session' })).toBeNull();
  });

  it('toasts when the sessions cannot be loaded', async () => {
    signedInApi('admin', 'Auditor', {
      'GET /api/logged-in-user': { status: 500, body: { message: 'Database is down' } },
    });
    const { notifications } = renderApp('/admin/logged-in-users');
    expect(
      await screen.findByRole('heading', { name: 'The sessions could not be loaded' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(notifications.current()).toMatchObject({ title: 'Failed to load signed-in users' });
  });
});
