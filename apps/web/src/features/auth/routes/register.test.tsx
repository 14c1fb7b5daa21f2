import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockRoutes, mockApi, refusedAt } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

function server(extra: MockRoutes = {}) {
  return mockApi({
    'GET /account/registration': { body: { data: { open: true } } },
    'POST /account/email/is-valid': (call) => ({
      body: {
        data: { valid: true, available: (call.body as { email: string }).email !== 'taken@example.test' },
      },
    }),
    'POST /account/register': {
      status: 200,
      body: { message: 'Thank you. Check your e-mail for the link that activates your account.', data: null },
    },
    'GET /account/resend-verification/ann%40example.test': {
      body: { message: 'We have sent a new verification link.', data: null },
    },
    ...extra,
  });
}

async function fill(user: ReturnType<typeof renderApp>['user'], email = 'ann@example.test') {
  await user.type(await screen.findByLabelText('Username'), 'ann');
  await user.type(screen.getByLabelText('E-mail'), email);
  await user.type(screen.getByLabelText('First name'), 'Ann');
  await user.type(screen.getByLabelText('Last name'), 'Lee');
  await user.type(screen.getByLabelText('Password'), 'Correct-Horse-Battery');
  await user.type(screen.getByLabelText('Confirm new password'), 'Correct-Horse-Battery');
}

describe('/register', () => {
  it('is linked from the login page', async () => {
    server();
    const { user, location } = renderApp('/login');
    await user.click(await screen.findByRole('link', { name: 'Create an account' }));
    expect(location()).toBe('/register');
    expect(await screen.findByRole('heading', { level: 1, name: 'Create an account' })).toBeInTheDocument();
  });

  it('never tells whether an address already has an account (as forgot-password does not)', async () => {
    const { calls } = server();
    const { user } = renderApp('/register');
    await user.type(await screen.findByLabelText('E-mail'), 'taken@example.test');
    await user.tab();
    await user.type(screen.getByLabelText('First name'), 'Ann');
    expect(screen.queryByText(/already uses|is taken|already has/i)).toBeNull();
    expect(screen.getByLabelText('E-mail')).not.toHaveAttribute('aria-invalid');
    expect(calls.filter((c) => c.path === '/account/email/is-valid')).toHaveLength(0);
  });

  it('creates the account and asks to check the e-mail; the link can be sent again', async () => {
    const { calls } = server();
    const { user } = renderApp('/register');
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Check your e-mail' })).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/account/register')?.body).toEqual({
      username: 'ann',
      email: 'ann@example.test',
      password: 'Correct-Horse-Battery',
      first_name: 'Ann',
      last_name: 'Lee',
    });
    await user.click(screen.getByRole('button', { name: 'Resend the e-mail' }));
    expect(await screen.findByText('We have sent a new verification link.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'GET' && c.path.startsWith('/account/resend-verification/'))).toBe(
      true,
    );
  });

  it('shows the message when self-registration is turned off', async () => {
    server({
      'POST /account/register': {
        status: 403,
        body: {
          message: 'Self-registration is turned off. Ask your administrator for an account.',
          code: 'auth.self_registration_off',
        },
      },
    });
    const { user } = renderApp('/register');
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Self-registration is turned off. Ask your administrator for an account.',
    );
  });

  it('says up front when self-registration is turned off, with no form and no refused call, and links back to sign in', async () => {
    const { calls } = server({ 'GET /account/registration': { body: { data: { open: false } } } });
    const { user, location } = renderApp('/register');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Registration is closed' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Self-registration is turned off. Ask your administrator for an account.',
    );
    expect(calls.filter((c) => c.path === '/account/registration')).toHaveLength(1);
    // Nothing the server would refuse: no e-mail probe, no register call.
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    expect(screen.queryByLabelText('Username')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to sign in' }));
    expect(location()).toBe('/login');
  });

  it('shows the fields the server refuses beside them', async () => {
    server({
      'POST /account/register': refusedAt('body.username', 'This username is taken', {
        message: 'This username is taken',
      }),
    });
    const { user } = renderApp('/register');
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Username')).toHaveAccessibleDescription('This username is taken'),
    );
    expect(screen.getByLabelText('Username')).toHaveFocus();
  });

  it('refuses a password against the policy before sending', async () => {
    const { calls } = server();
    const { user } = renderApp('/register');
    await user.type(await screen.findByLabelText('Username'), 'ann');
    await user.type(screen.getByLabelText('E-mail'), 'ann@example.test');
    await user.type(screen.getByLabelText('Password'), 'ann1234567890');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      expect.stringContaining('Do not use your username or e-mail in the password'),
    );
    expect(calls.some((c) => c.path === '/account/register')).toBe(false);
  });
});

describe('/verify-email', () => {
  it('confirms the address and offers to sign in', async () => {
    const { calls } = mockApi({
      'POST /account/verify-email': {
        body: { message: 'Your e-mail address is confirmed. You can sign in now.', data: { verified: true } },
      },
    });
    renderApp('/verify-email?token=t-1&email=ann%40example.test');
    expect(await screen.findByText('Your e-mail address is confirmed. You can sign in now.')).toHaveAttribute(
      'role',
      'status',
    );
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(calls.filter((c) => c.path === '/account/verify-email')).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ email: 'ann@example.test', token: 't-1' });
  });

  it('says when the link is refused, and can send a new one', async () => {
    const { calls } = mockApi({
      'POST /account/verify-email': { status: 400, body: { message: 'This link is invalid or has expired' } },
      'GET /account/resend-verification/ann%40example.test': { body: { message: 'Sent', data: null } },
    });
    const { user } = renderApp('/verify-email?token=t-1&email=ann%40example.test');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid or has expired');
    await user.click(screen.getByRole('button', { name: 'Resend the e-mail' }));
    await waitFor(() =>
      expect(calls.some((c) => c.path.startsWith('/account/resend-verification/'))).toBe(true),
    );
    expect(await screen.findByText('Verification e-mail sent')).toBeInTheDocument();
  });
});
