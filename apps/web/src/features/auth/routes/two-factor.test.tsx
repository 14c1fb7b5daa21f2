import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { authRecordFrom, setIsUser2FAVerified, setTemporalAuth } from '../../../lib/storage';
import { aLogin } from '../../../testing/fixtures';
import { type MockRoutes, mockApi, refusedAt } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const stored = (key: string) => JSON.parse(localStorage.getItem(key) ?? 'null');

const SETUP = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/Quire:jdoe?secret=JBSWY3DPEHPK3PXP&issuer=Quire',
  qr_code: 'data:image/png;base64,iVBORw0KGgo=',
};
const VERIFIED = { verified: true as const, isCompany2FAEnabled: true, isUser2FAEnabled: true };

function waitingFor2fa(
  role: 'admin' | 'user' = 'admin',
  accessType: 'Auditor' | 'General staff' = 'Auditor',
) {
  const data = aLogin(role, accessType, { isCompany2FAEnabled: true });
  setTemporalAuth(authRecordFrom(data));
  setIsUser2FAVerified(false);
  return data;
}

function server(extra: MockRoutes = {}) {
  return mockApi({
    'POST /api/users/enable2fa': { body: { data: SETUP } },
    'POST /api/users/verify2fa': { body: { message: '2FA verified successfully!', data: VERIFIED } },
    'POST /api/users/clear2fa': { body: { data: null } },
    'GET /api/user/current': { body: { data: aLogin('admin', 'Auditor').user } },
    ...extra,
  });
}

const SETUP_URL = '/auth/setup-2fa?role=admin&access_type=Auditor&redirect=%2Fadmin%2Fdashboard';

describe('/auth/setup-2fa', () => {
  it('shows the QR code and the manual key of a new secret, with the waiting login token', async () => {
    waitingFor2fa();
    const { calls } = server();
    renderApp(SETUP_URL);
    const qr = await screen.findByRole('img', { name: 'QR code to scan with your authenticator app' });
    expect(qr).toHaveAttribute('src', SETUP.qr_code);
    expect(screen.getByTestId('manual-key')).toHaveTextContent(SETUP.secret);
    expect(screen.getByRole('button', { name: 'Copy key' })).toBeInTheDocument();
    const code = screen.getByLabelText('Verification code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    const enable = calls.filter((c) => c.path === '/api/users/enable2fa');
    expect(enable).toHaveLength(1);
    expect(enable[0]?.headers.authorization).toBe('Bearer token-123');
  });

  it('verifies the code, signs in, says so and moves on to the redirect after 2 s', async () => {
    waitingFor2fa();
    const { calls } = server();
    const { user, location } = renderApp(SETUP_URL);
    await user.type(await screen.findByLabelText('Verification code'), '123456{Enter}');
    expect(await screen.findAllByText(/2FA verified successfully!/)).not.toHaveLength(0);
    expect(calls.find((c) => c.path === '/api/users/verify2fa')?.body).toEqual({ code: '123456' });
    expect(stored('auth')?.data.access_token).toBe('token-123');
    expect(localStorage.getItem('temporal_auth')).toBeNull();
    expect(stored('isUser2FAVerified')).toBe(true);
    expect(location()).toBe(SETUP_URL);
    await waitFor(() => expect(location()).toBe('/admin/dashboard'), { timeout: 3_000 });
  });

  it('asks for six digits before calling the server', async () => {
    waitingFor2fa();
    const { calls } = server();
    const { user } = renderApp(SETUP_URL);
    await user.type(await screen.findByLabelText('Verification code'), '12{Enter}');
    expect(screen.getByLabelText('Verification code')).toHaveAccessibleDescription(
      expect.stringContaining('Enter the 6-digit code from your authenticator app'),
    );
    expect(calls.some((c) => c.path === '/api/users/verify2fa')).toBe(false);
  });

  it('spaces out the digits of the code only, not its label and hint', async () => {
    waitingFor2fa();
    server();
    renderApp(SETUP_URL);
    const input = await screen.findByLabelText('Verification code');
    expect(input).toHaveClass('otp-input');
    expect(input.closest('.field')).not.toHaveClass('otp-input');
  });

  it('shows a refused code beside the field and in a "Failed to verify 2FA!" toast', async () => {
    waitingFor2fa();
    server({
      'POST /api/users/verify2fa': refusedAt('body.code', 'Invalid verification code', {
        message: 'Invalid verification code',
        code: 'auth.invalid_code',
      }),
    });
    const { user } = renderApp(SETUP_URL);
    await user.type(await screen.findByLabelText('Verification code'), '000000{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to verify 2FA!Check the fields marked in the form.',
    );
    expect(screen.getByLabelText('Verification code')).toHaveAccessibleDescription(
      expect.stringContaining('Invalid verification code'),
    );
    expect(localStorage.getItem('auth')).toBeNull();
    expect(stored('temporal_auth')).not.toBeNull();
  });

  it('toasts "Failed to enable 2FA!" when no secret can be made', async () => {
    waitingFor2fa();
    server({ 'POST /api/users/enable2fa': { status: 500, body: { message: 'Database is down' } } });
    renderApp(SETUP_URL);
    const toast = await screen.findByText('Database is down', { selector: '.toast__message' });
    expect(toast.closest('[role="alert"]')).toHaveTextContent('Failed to enable 2FA!');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('Cancel clears the 2FA session, forgets the login and returns to /login', async () => {
    waitingFor2fa();
    const { calls } = server();
    const { user, location } = renderApp(SETUP_URL);
    await screen.findByTestId('manual-key');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(location()).toBe('/login'));
    expect(calls.find((c) => c.path === '/api/users/clear2fa')).toMatchObject({ method: 'POST' });
    expect(localStorage.getItem('temporal_auth')).toBeNull();
  });

  it('Cancel toasts "Failed to clear 2FA session!" when the call fails, and still leaves', async () => {
    waitingFor2fa();
    server({ 'POST /api/users/clear2fa': { status: 500, body: { message: 'Server error' } } });
    const { user, location } = renderApp(SETUP_URL);
    await screen.findByTestId('manual-key');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to clear 2FA session!Server error');
    await waitFor(() => expect(location()).toBe('/login'));
    expect(localStorage.getItem('temporal_auth')).toBeNull();
  });

  it('sends a visitor with no waiting login to /login', async () => {
    const { calls } = server();
    const { location } = renderApp(SETUP_URL);
    await screen.findByRole('button', { name: 'Sign in' });
    expect(location()).toBe('/login');
    // Nothing but the sign-in page's own questions (is registration open? the company's branding).
    expect(
      calls.filter((c) => !['/account/registration', '/api/get_logo_and_expiry_date'].includes(c.path)),
    ).toHaveLength(0);
  });
});

describe('/auth/verify-2fa', () => {
  it('asks for the code only and lands on the role’s page when there is no redirect', async () => {
    waitingFor2fa('user', 'General staff');
    const { calls } = server({
      'GET /api/user/current': { body: { data: aLogin('user', 'General staff').user } },
    });
    const { user, location } = renderApp('/auth/verify-2fa?role=user&access_type=General+staff');
    const code = await screen.findByLabelText('Verification code');
    expect(code).toHaveFocus();
    expect(screen.queryByTestId('manual-key')).not.toBeInTheDocument();
    await user.type(code, '654321');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(/2FA verified successfully! Taking you/)).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/users/enable2fa')).toBe(false);
    await waitFor(() => expect(location()).toBe('/dashboard'), { timeout: 3_000 });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
  });

  it('shows "Failed to verify 2FA!" with the server’s reason', async () => {
    waitingFor2fa('user', 'General staff');
    server({
      'POST /api/users/verify2fa': {
        status: 400,
        body: { message: 'This code has already been used. Wait for the next code.' },
      },
    });
    const { user } = renderApp('/auth/verify-2fa?role=user');
    await user.type(await screen.findByLabelText('Verification code'), '111111{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to verify 2FA!This code has already been used. Wait for the next code.',
    );
  });
});

describe('two-factor recovery codes at sign-in', () => {
  const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i + 2}-efgh${i + 2}`);

  it('shows the codes a new setup answers, with copy and download, before moving on', async () => {
    waitingFor2fa();
    server({
      'POST /api/users/verify2fa': {
        body: { message: '2FA verified successfully!', data: { ...VERIFIED, recovery_codes: CODES } },
      },
    });
    const { user, location } = renderApp(SETUP_URL);
    await user.type(await screen.findByLabelText('Verification code'), '123456{Enter}');
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list).toHaveTextContent(CODES[0]!);
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download codes' })).toBeInTheDocument();
    // It waits for the person: the codes are shown this once.
    await new Promise((r) => setTimeout(r, 2_300));
    expect(location()).toBe(SETUP_URL);
    await user.click(screen.getByRole('button', { name: 'I have saved them, continue' }));
    await waitFor(() => expect(location()).toBe('/admin/dashboard'), { timeout: 3_000 });
  });

  it('"Use a recovery code" signs in with one instead of the app', async () => {
    waitingFor2fa('user', 'General staff');
    const { calls } = server({
      'GET /api/user/current': { body: { data: aLogin('user', 'General staff').user } },
      'POST /api/users/verify2fa-recovery': {
        body: {
          message: 'Signed in with a recovery code; it cannot be used again',
          data: { ...VERIFIED, remaining_recovery_codes: 9 },
        },
      },
    });
    const { user, location } = renderApp('/auth/verify-2fa?role=user&access_type=General+staff');
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText('Recovery code');
    expect(field).toHaveFocus();
    await user.type(field, 'abcde-23456{Enter}');
    expect(await screen.findByText(/2FA verified successfully! Taking you/)).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/users/verify2fa-recovery')?.body).toEqual({
      recovery_code: 'abcde-23456',
    });
    expect(calls.some((c) => c.path === '/api/users/verify2fa')).toBe(false);
    expect(stored('isUser2FAVerified')).toBe(true);
    await waitFor(() => expect(location()).toBe('/dashboard'), { timeout: 3_000 });
  });

  it('says at the field when the recovery code is refused, and can go back to the app', async () => {
    waitingFor2fa();
    server({
      'POST /api/users/verify2fa-recovery': refusedAt(
        'body.recovery_code',
        'That is not one of your unused recovery codes',
        { message: 'That is not one of your unused recovery codes', code: 'auth.invalid_recovery_code' },
      ),
    });
    const { user } = renderApp('/auth/verify-2fa?role=admin');
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.click(screen.getByRole('button', { name: 'Sign in with the recovery code' }));
    expect(screen.getByLabelText('Recovery code')).toHaveAccessibleDescription(
      expect.stringContaining('Enter one of your recovery codes'),
    );
    await user.type(screen.getByLabelText('Recovery code'), 'used1-used2{Enter}');
    await waitFor(() =>
      expect(screen.getByLabelText('Recovery code')).toHaveAccessibleDescription(
        expect.stringContaining('That is not one of your unused recovery codes'),
      ),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to verify 2FA!');
    await user.click(screen.getByRole('button', { name: 'Use your authenticator app instead' }));
    expect(screen.getByLabelText('Verification code')).toBeInTheDocument();
  });
});
