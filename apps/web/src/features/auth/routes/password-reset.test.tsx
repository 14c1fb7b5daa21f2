import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, refusedAt } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { RESET_LINK_SENT } from './forgot-password';

const INVALID = refusedAt('body.token', 'This link is invalid or has expired', {
  message: 'This link is invalid or has expired',
  code: 'auth.invalid_link',
});

describe('Forgot password', () => {
  it('is linked from the login page and sends the e-mail, answering the same for any address', async () => {
    const { calls } = mockApi({
      'POST /account/password/email': { body: { message: RESET_LINK_SENT, data: null } },
    });
    const { user, location } = renderApp('/login');
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(location()).toBe('/forgot-password');
    const email = await screen.findByLabelText('E-mail');
    expect(email).toHaveFocus();
    await user.type(email, 'Ann@Example.test{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent(RESET_LINK_SENT);
    expect(calls.find((c) => c.path === '/account/password/email')?.body).toEqual({
      email: 'ann@example.test',
    });
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });

  it('checks the address before sending', async () => {
    const { calls } = mockApi({});
    const { user } = renderApp('/forgot-password');
    await user.type(await screen.findByLabelText('E-mail'), 'not-an-address{Enter}');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter a valid e-mail address');
    expect(calls).toHaveLength(0);
  });

  it('toasts a failure to send', async () => {
    mockApi({ 'POST /account/password/email': { status: 429, body: { message: 'Too many requests' } } });
    const { user } = renderApp('/forgot-password');
    await user.type(await screen.findByLabelText('E-mail'), 'ann@example.test{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to send the reset linkToo many requests',
    );
  });
});

describe('/reset-password', () => {
  const URL = '/reset-password?token=tok-1&email=ann%40example.test';

  it('says when the link is invalid or expired, and links to ask for a new one', async () => {
    const { calls } = mockApi({ 'POST /account/password/verify-token': INVALID });
    renderApp(URL);
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid or has expired');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(calls[0]?.body).toEqual({ email: 'ann@example.test', token: 'tok-1' });
  });

  it('says so for a link without its token', async () => {
    const { calls } = mockApi({});
    renderApp('/reset-password?email=ann%40example.test');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid or has expired');
    expect(calls).toHaveLength(0);
  });

  it('shows the password policy live, and refuses a mismatch before sending', async () => {
    const { calls } = mockApi({ 'POST /account/password/verify-token': { body: { data: { valid: true } } } });
    const { user } = renderApp(URL);
    const password = await screen.findByLabelText('New password');
    const policy = screen.getByRole('list', { name: 'Password policy' });
    await user.type(password, 'short');
    expect(within(policy).getByText('Use at least 10 characters')).toHaveClass('is-unmet');
    await user.type(password, '-but-now-long-enough');
    expect(within(policy).getByText('Use at least 10 characters')).toHaveClass('is-met');
    await user.clear(password);
    await user.type(password, 'ann-is-my-password');
    expect(within(policy).getByText('Do not use your username or e-mail in the password')).toHaveClass(
      'is-unmet',
    );
    await user.clear(password);
    await user.type(password, 'Correct-Horse-Battery');
    await user.type(screen.getByLabelText('Confirm new password'), 'Correct-Horse-Batteyr');
    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleDescription(
      'The passwords do not match',
    );
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(calls.some((c) => c.path === '/account/reset-password')).toBe(false);
  });

  it('sets the new password and goes to /login with a success toast', async () => {
    const { calls } = mockApi({
      'POST /account/password/verify-token': { body: { data: { valid: true } } },
      'POST /account/reset-password': {
        body: { message: 'Your password has been reset. Sign in with the new password.', data: null },
      },
    });
    const { user, location } = renderApp(URL);
    await user.type(await screen.findByLabelText('New password'), 'Correct-Horse-Battery');
    await user.type(screen.getByLabelText('Confirm new password'), 'Correct-Horse-Battery{Enter}');
    await waitFor(() => expect(location()).toBe('/login'));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your password has been reset. Sign in with the new password.',
    );
    expect(calls.find((c) => c.path === '/account/reset-password')?.body).toEqual({
      email: 'ann@example.test',
      token: 'tok-1',
      password: 'Correct-Horse-Battery',
    });
  });

  it("shows the server's policy refusal beside the field", async () => {
    mockApi({
      'POST /account/password/verify-token': { body: { data: { valid: true } } },
      'POST /account/reset-password': refusedAt('body.password', 'This password is too common', {
        message: 'password: This password is too common',
      }),
    });
    const { user } = renderApp(URL);
    await user.type(await screen.findByLabelText('New password'), 'Unusual-Phrase-42');
    await user.type(screen.getByLabelText('Confirm new password'), 'Unusual-Phrase-42{Enter}');
    await waitFor(() =>
      expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
        expect.stringContaining('This password is too common'),
      ),
    );
    expect(screen.getByLabelText('New password')).toHaveFocus();
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to reset password');
  });
});
