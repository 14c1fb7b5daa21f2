import type { TClientError } from '@quire/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

const anError = (overrides: Partial<TClientError> = {}): TClientError => ({
  id: 1,
  user_id: 7,
  username: 'jdoe',
  message: 'Loading chunk failed',
  data: { type: 'missing', stack: 'at main.js:1' },
  url: 'http://localhost/admin/users?page=2',
  user_agent: CHROME,
  ip: '10.0.0.5',
  created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
  ...overrides,
});

const page = (items: TClientError[], total = items.length, pageNo = 1) => ({
  body: { data: { items, page: pageNo, quantity: 20, total, last_page: Math.max(1, Math.ceil(total / 20)) } },
});

function server(errors: NonNullable<MockRoutes['GET /api/client-errors']>) {
  return signedInApi('admin', 'Auditor', {
    'GET /api/client-errors': errors,
  });
}

describe('the client errors page', () => {
  it('lists reported errors with time, user, message, page and browser', async () => {
    const { calls } = server(page([anError()]));
    renderApp('/admin/client-errors');
    const row = await screen.findByRole('row', { name: /Loading chunk failed/ }, { timeout: 5_000 });
    expect(row).toHaveTextContent('5 minutes ago');
    expect(row).toHaveTextContent('jdoe');
    expect(row).toHaveTextContent('/admin/users?page=2');
    expect(row).toHaveTextContent('Chrome 126 on Windows');
    expect(within(row).getByText('5 minutes ago').closest('time')).toHaveAttribute('title');
    expect(calls.find((c) => c.path === '/api/client-errors')?.search).toBe('?page=1&quantity=20');
  });

  it('shows the stored data as formatted JSON in an expandable row', async () => {
    server(page([anError()]));
    const { user } = renderApp('/admin/client-errors');
    const details = await screen.findByRole('button', { name: 'Details' }, { timeout: 5_000 });
    expect(details).toHaveAttribute('aria-expanded', 'false');
    await user.click(details);
    expect(screen.getByRole('button', { name: 'Hide details' })).toHaveAttribute('aria-expanded', 'true');
    const data = screen.getByLabelText('Stored data of “Loading chunk failed”');
    expect(data.textContent).toBe(JSON.stringify({ type: 'missing', stack: 'at main.js:1' }, null, 2));
    await user.click(screen.getByRole('button', { name: 'Hide details' }));
    expect(screen.queryByLabelText('Stored data of “Loading chunk failed”')).not.toBeInTheDocument();
  });

  it('pages through the errors', async () => {
    const { calls } = server((call) =>
      call.search.includes('page=2')
        ? page([anError({ id: 30, message: 'Second page error' })], 25, 2)
        : page([anError()], 25, 1),
    );
    const { user } = renderApp('/admin/client-errors');
    expect(await screen.findByText('1–20 of 25 errors', {}, { timeout: 5_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Second page error')).toBeInTheDocument();
    expect(calls.at(-1)?.search).toBe('?page=2&quantity=20');
  });

  it('says when no errors were reported', async () => {
    server(page([]));
    renderApp('/admin/client-errors');
    expect(
      await screen.findByRole('heading', { name: 'No errors reported' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
  });

  it('toasts when the errors cannot be loaded', async () => {
    server({ status: 500, body: { message: 'Database unavailable' } });
    const { notifications } = renderApp('/admin/client-errors');
    expect(
      await screen.findByRole(
        'heading',
        { name: 'The client errors could not be loaded' },
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();
    expect(notifications.current()).toMatchObject({ kind: 'error', title: 'Failed to load client errors' });
  });
});
