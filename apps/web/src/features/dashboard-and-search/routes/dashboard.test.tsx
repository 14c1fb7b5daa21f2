import type { AccessType } from '@quire/contract';
import { cleanup, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const HINT = /You signed in as User\. Sign in as Admin to/;

function server(accessType: AccessType) {
  return signedInApi('user', accessType);
}

describe('the dashboard of someone signed in as User', () => {
  it('says what the Admin role opens for a User Administration Admin', async () => {
    server('User Administration Admin');
    renderApp('/dashboard');
    expect(await screen.findByText(HINT)).toHaveTextContent(
      'Sign in as Admin to manage users, groups and settings.',
    );
  });

  it('tells a Company Admin that the admin areas need the Admin role, until dismissed', async () => {
    server('COMPANY ADMIN');
    const { user, location } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(location()).toBe('/dashboard');
    const hint = screen.getByRole('note', { name: 'Signed in as User' });
    expect(hint).toHaveTextContent(
      'You signed in as User. Sign in as Admin to manage categories and settings.',
    );
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(HINT)).toBeNull();
  });

  it('stays dismissed on the next visit, until the person signs out', async () => {
    server('COMPANY ADMIN');
    const first = renderApp('/dashboard');
    await first.user.click(await screen.findByRole('button', { name: 'Dismiss' }));
    cleanup();
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(screen.queryByText(HINT)).toBeNull();
  });

  it('says nothing to General staff, who have no admin areas', async () => {
    server('General staff');
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(screen.queryByText(HINT)).toBeNull();
  });
});
