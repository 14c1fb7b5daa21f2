import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const locked = {
  password_required: true,
  name: null,
  mime_type: null,
  size: null,
  preview: null,
  expires_at: null,
};
const open = {
  password_required: false,
  name: 'report.txt',
  mime_type: 'text/plain',
  size: 12,
  preview: 'text' as const,
  expires_at: null,
};

describe('a public link with a password', () => {
  it('a wrong password is told at the field; after the right one no failure stays and the file shows', async () => {
    const api = mockApi({
      'GET /api/public/file-view/tok': (call) => ({
        body: { data: new URLSearchParams(call.search).get('access') === 'proof' ? open : locked },
      }),
      'POST /api/public/file-unlock/tok': (call) =>
        (call.body as { password: string }).password === 'right password'
          ? { body: { data: { access: 'proof', expires_at: '2026-01-01T11:00:00Z' } } }
          : { status: 404, body: { message: 'This link does not work', code: 'share.not_found' } },
      'GET /api/public/file-content/tok': { body: 'Shared text.' },
    });
    const { user } = renderApp('/preview-file/tok');
    const password = await screen.findByLabelText('Password', {}, { timeout: 10_000 });
    await user.type(password, 'wrong');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText('Failed to open link!')).toBeInTheDocument();
    expect(password).toHaveAccessibleDescription(/does not open the link/);

    await user.clear(password);
    await user.type(password, 'right password');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'report.txt' })).toBeInTheDocument();
    expect(await screen.findByText('Shared text.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Failed to open link!')).not.toBeInTheDocument());
    expect(api.calls.filter((c) => c.path === '/api/public/file-unlock/tok')).toHaveLength(2);
  });
});
