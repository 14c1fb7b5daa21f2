import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

describe('the home page', () => {
  it('names the product and offers to sign in', async () => {
    mockApi({});
    const { user, location } = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'Quire' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(await screen.findByLabelText('Username or e-mail')).toBeInTheDocument();
    expect(location()).toBe('/login');
  });

  it('shows a loading indicator while its page loads', async () => {
    mockApi({});
    renderApp('/');
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    expect(await screen.findByRole('heading', { level: 1, name: 'Quire' })).toBeInTheDocument();
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('has a page for unknown paths', async () => {
    mockApi({});
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });
});
