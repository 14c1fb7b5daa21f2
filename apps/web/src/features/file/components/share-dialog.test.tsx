import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aFile, fileServer, olive } from '../../../testing/file-fixtures';
import { invalidInput } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const sharer = aFile({ permissions: { view: true, download: true, edit: true, delete: true, share: true } });
const link = {
  id: '0b8f6a56-3f0c-4c5e-9c61-4a3c1fd1e001',
  token: 'tok',
  path: '/preview-file/tok',
  expires_at: null,
  has_password: true,
};

async function openShare() {
  const app = renderApp('/files/5');
  await screen.findByRole('heading', { level: 1, name: 'report.txt' }, { timeout: 10_000 });
  await app.user.click(screen.getByRole('button', { name: 'Share link' }));
  return { ...app, dialog: await screen.findByRole('dialog', { name: 'Share a link' }) };
}

describe('the share dialog', () => {
  it('shows a too-short password at the password field, and sends nothing', async () => {
    const api = fileServer(sharer);
    const { user, dialog } = await openShare();
    const password = within(dialog).getByLabelText(/^Password/);
    await user.type(password, 'abcde');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(password).toHaveAccessibleDescription('Use at least 8 characters');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveFocus();
    expect(api.calls.some((c) => c.path === '/api/share-file/5')).toBe(false);
  });

  it("shows the server's refusal of the password at the field", async () => {
    fileServer(sharer, {
      'POST /api/share-file/5': invalidInput('body.password', 'This password is too common'),
    });
    const { user, dialog } = await openShare();
    const password = within(dialog).getByLabelText(/^Password/);
    await user.type(password, 'password1');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    await waitFor(() => expect(password).toHaveAccessibleDescription('This password is too common'));
  });

  it('creates a link with its password and shows it to copy', async () => {
    const api = fileServer(sharer, {
      'POST /api/share-file/5': {
        body: { data: { file_id: 5, shared_with: [], link, revoked: [] } },
      },
    });
    const { user, dialog } = await openShare();
    await user.type(within(dialog).getByLabelText(/^Password/), 'long enough');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByLabelText('Share link')).toHaveValue(
      `${window.location.origin}/preview-file/tok`,
    );
    expect(screen.getByText('Link created')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/share-file/5')?.body).toEqual({
      public_link: true,
      expires_at: null,
      password: 'long enough',
    });
  });

  it('revokes a live link', async () => {
    const live = {
      id: link.id,
      created_by: olive,
      expires_at: null,
      has_password: false,
      revoked_at: null,
      download_count: 3,
      last_used_at: null,
      created_at: '2026-01-02T10:00:00Z',
      live: true,
    };
    const api = fileServer(aFile({ ...sharer, links: [live] }), {
      'POST /api/share-file/5': {
        body: { data: { file_id: 5, shared_with: [], link: null, revoked: [link.id] } },
      },
    });
    const { user, dialog } = await openShare();
    expect(dialog).toHaveTextContent('Open · 3 downloads');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Link revoked')).toBeInTheDocument();
    expect(api.calls.find((c) => c.path === '/api/share-file/5')?.body).toEqual({
      revoke_link_ids: [link.id],
    });
  });
});
