import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { aUser, signIn } from '../../../testing/fixtures';
import { type MockRoutes, mockApi, refusedAt } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const SETUP = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/Quire:jdoe?secret=JBSWY3DPEHPK3PXP',
  qr_code: 'data:image/png;base64,iVBORw0KGgo=',
};

function server(extra: MockRoutes = {}, state = { isCompany2FAEnabled: false, isUser2FAEnabled: false }) {
  const data = signIn('user', 'General staff');
  return mockApi({
    'GET /api/user/current': { body: { data: { ...data.user, is2FAEnabled: state.isUser2FAEnabled } } },
    'POST /api/users/is2faenabled': { body: { data: state } },
    'GET /api/user-signature/7': { status: 404, body: { message: 'No signature', code: 'not_found' } },
    'GET /api/users/2fa-recovery-codes': { body: { data: { remaining: 7 } } },
    ...extra,
  });
}

const card = (name: string) => screen.getByRole('region', { name });

describe('/profile', () => {
  it('is linked from the signed-in layout and shows the user', async () => {
    server();
    const { user, location } = renderApp('/dashboard');
    await user.click(await screen.findByRole('button', { name: /^Account: / }));
    await user.click(await screen.findByRole('link', { name: 'Profile' }));
    expect(location()).toBe('/profile');
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    const account = card('Account');
    expect(account).toHaveTextContent('Jane Doe');
    expect(account).toHaveTextContent('jdoe@example.test');
    expect(account).toHaveTextContent('General Staff');
    expect(await within(card('Signature')).findByText('No signature uploaded yet.')).toBeInTheDocument();
  });

  it('changes the password with current, new and confirmation', async () => {
    const { calls } = server({
      'PUT /account/updatepassword': { body: { message: 'Your password has been changed', data: null } },
    });
    const { user } = renderApp('/profile');
    const form = await screen.findByRole('region', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'Old-Password-1');
    await user.type(within(form).getByLabelText('New password'), 'Brand-New-Phrase-9');
    expect(within(form).getByText('Use at least 10 characters')).toHaveClass('is-met');
    await user.type(within(form).getByLabelText('Confirm new password'), 'Brand-New-Phrase-9');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/account/updatepassword')).toMatchObject({
      method: 'PUT',
      body: {
        current_password: 'Old-Password-1',
        new_password: 'Brand-New-Phrase-9',
        password_confirmation: 'Brand-New-Phrase-9',
      },
    });
    expect(within(form).getByLabelText('Current password')).toHaveValue('');
  });

  it('names a broken password rule once: in the checklist, not again as an error', async () => {
    const { calls } = server();
    const { user } = renderApp('/profile');
    const form = await screen.findByRole('region', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'Old-Password-1');
    const password = within(form).getByLabelText('New password');
    await user.type(password, 'short');
    await user.type(within(form).getByLabelText('Confirm new password'), 'short{Enter}');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveFocus();
    expect(within(form).getAllByText('Use at least 10 characters')).toHaveLength(1);
    expect(within(form).getByText('Use at least 10 characters')).toHaveClass('is-unmet');
    expect(within(form).getByRole('list', { name: 'Password policy' }).children).toHaveLength(3);
    expect(calls.some((c) => c.path === '/account/updatepassword')).toBe(false);
  });

  it('shows a wrong current password beside its field', async () => {
    server({
      'PUT /account/updatepassword': refusedAt('body.current_password', 'The password is not correct', {
        message: 'The password is not correct',
      }),
    });
    const { user } = renderApp('/profile');
    const form = await screen.findByRole('region', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'Wrong-Password');
    await user.type(within(form).getByLabelText('New password'), 'Brand-New-Phrase-9');
    await user.type(within(form).getByLabelText('Confirm new password'), 'Brand-New-Phrase-9{Enter}');
    await waitFor(() =>
      expect(within(form).getByLabelText('Current password')).toHaveAccessibleDescription(
        'The password is not correct',
      ),
    );
    // Said at the field; the toast is titled and does not repeat it.
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Failed to change passwordCheck the fields marked in the form.',
    );
  });

  it('turns 2FA on: QR code and key, then a code', async () => {
    const { calls } = server({
      'POST /api/users/enable2fa': { body: { data: SETUP } },
      'POST /api/users/verify2fa': {
        body: { data: { verified: true, isCompany2FAEnabled: false, isUser2FAEnabled: true } },
      },
    });
    const { user } = renderApp('/profile');
    const twoFactor = await screen.findByRole('region', { name: /Two-factor authentication/ });
    expect(within(twoFactor).getByText('Off')).toBeInTheDocument();
    await user.click(within(twoFactor).getByRole('button', { name: 'Turn on two-factor authentication' }));
    expect(await within(twoFactor).findByTestId('manual-key')).toHaveTextContent(SETUP.secret);
    expect(within(twoFactor).getByRole('img')).toHaveAttribute('src', SETUP.qr_code);
    await user.type(within(twoFactor).getByLabelText('Verification code'), '123456{Enter}');
    expect(await screen.findByText('2FA verified successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/users/verify2fa')?.body).toEqual({ code: '123456' });
    expect(localStorage.getItem('isUser2FAVerified')).toBe('true');
  });

  it('toasts "Failed to enable 2FA!" when setup cannot start', async () => {
    server({
      'POST /api/users/enable2fa': {
        status: 409,
        body: { message: 'Two-factor authentication is already on.' },
      },
    });
    const { user } = renderApp('/profile');
    const twoFactor = await screen.findByRole('region', { name: /Two-factor authentication/ });
    await user.click(within(twoFactor).getByRole('button', { name: 'Turn on two-factor authentication' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to enable 2FA!Two-factor authentication is already on.',
    );
  });

  it('turns 2FA off after confirming in a dialog; Esc cancels it', async () => {
    const { calls } = server(
      {
        'POST /api/users/disable2fa': {
          body: {
            message: 'Two-factor authentication is off',
            data: { isCompany2FAEnabled: false, isUser2FAEnabled: false },
          },
        },
      },
      { isCompany2FAEnabled: false, isUser2FAEnabled: true },
    );
    const { user } = renderApp('/profile');
    const twoFactor = await screen.findByRole('region', { name: /Two-factor authentication/ });
    await waitFor(() => expect(within(twoFactor).getByText('On')).toBeInTheDocument());
    const turnOff = within(twoFactor).getByRole('button', { name: 'Turn off two-factor authentication' });
    await user.click(turnOff);
    const dialog = screen.getByRole('dialog', { name: 'Turn off two-factor authentication?' });
    expect(within(dialog).getByLabelText('Verification code')).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(turnOff).toHaveFocus());

    await user.click(turnOff);
    await user.type(within(screen.getByRole('dialog')).getByLabelText('Verification code'), '123456');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.find((c) => c.path === '/api/users/disable2fa')?.body).toEqual({ code: '123456' });
    expect(await within(twoFactor).findByText('Off')).toBeInTheDocument();
  });

  it('cannot turn 2FA off while the company requires it', async () => {
    server({}, { isCompany2FAEnabled: true, isUser2FAEnabled: true });
    renderApp('/profile');
    const twoFactor = await screen.findByRole('region', { name: /Two-factor authentication/ });
    await waitFor(() =>
      expect(
        within(twoFactor).getByRole('button', { name: 'Turn off two-factor authentication' }),
      ).toBeDisabled(),
    );
    expect(twoFactor).toHaveTextContent('It cannot be turned off while your company requires it.');
  });

  it('uploads a PNG signature as multipart, and refuses other files', async () => {
    const { fetchMock } = server({
      'POST /api/upload-user-signature': {
        status: 201,
        body: { data: { user_id: 7, blob_id: 'b1', size: 4 } },
      },
    });
    renderApp('/profile');
    const user = userEvent.setup({ applyAccept: false });
    const signature = await screen.findByRole('region', { name: 'Signature' });
    const input = within(signature).getByLabelText('New signature image');
    await user.upload(input, new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }));
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Choose a PNG or JPEG image'));
    const png = new File(['\x89PNG'], 'sig.png', { type: 'image/png' });
    await user.upload(input, png);
    await user.click(within(signature).getByRole('button', { name: 'Upload signature' }));
    expect(await screen.findByText('Signature uploaded')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => String(url).includes('/api/upload-user-signature'));
    const body = call?.[1]?.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('file') as File).name).toBe('sig.png');
  });

  it('shows the current signature when there is one', async () => {
    server({ 'GET /api/user-signature/7': { body: 'PNGDATA' } });
    URL.createObjectURL = () => 'blob:signature';
    URL.revokeObjectURL = () => {};
    renderApp('/profile');
    expect(await screen.findByRole('img', { name: 'Your current signature' })).toHaveAttribute(
      'src',
      'blob:signature',
    );
  });
});

describe('the signed-in user menu', () => {
  it('has a Profile link for admins too', async () => {
    const data = signIn('admin', 'Auditor');
    mockApi({ 'GET /api/user/current': { body: { data: aUser({ ...data.user }) } } });
    const { user } = renderApp('/admin/category');
    await user.click(await screen.findByRole('button', { name: /^Account: / }));
    const account = await screen.findByRole('region', { name: 'Signed in as' });
    expect(within(account).getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
  });
});

describe('/profile: two-factor recovery codes', () => {
  const CODES = Array.from({ length: 10 }, (_, i) => `wxyz${i + 2}-mnpq${i + 2}`);

  it('shows the ten codes once when 2FA is turned on, until they are put away', async () => {
    server({
      'POST /api/users/enable2fa': { body: { data: SETUP } },
      'POST /api/users/verify2fa': {
        body: {
          data: { verified: true, isCompany2FAEnabled: false, isUser2FAEnabled: true, recovery_codes: CODES },
        },
      },
    });
    const { user } = renderApp('/profile');
    const twoFactor = await screen.findByRole('region', { name: /Two-factor authentication/ });
    await user.click(within(twoFactor).getByRole('button', { name: 'Turn on two-factor authentication' }));
    await user.type(await within(twoFactor).findByLabelText('Verification code'), '123456{Enter}');
    const list = await within(twoFactor).findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(within(twoFactor).getByRole('button', { name: 'Download codes' })).toBeInTheDocument();
    await user.click(within(twoFactor).getByRole('button', { name: 'I have saved them' }));
    expect(within(twoFactor).queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
  });

  it('says how many are left and makes new ones after the password', async () => {
    const { calls } = server(
      {
        'POST /api/users/2fa-recovery-codes': {
          body: {
            message: 'New recovery codes made; the old ones no longer work',
            data: { recovery_codes: CODES, remaining: 10 },
          },
        },
      },
      { isCompany2FAEnabled: false, isUser2FAEnabled: true },
    );
    const { user } = renderApp('/profile');
    const twoFactor = await screen.findByRole('region', { name: /Two-factor authentication/ });
    expect(await within(twoFactor).findByTestId('recovery-codes-left')).toHaveTextContent(
      '7 recovery codes left.',
    );
    await user.click(within(twoFactor).getByRole('button', { name: 'Make new recovery codes' }));
    const dialog = screen.getByRole('dialog', { name: 'Make new recovery codes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Use your password instead' }));
    await user.type(within(dialog).getByLabelText('Password'), 'Correct-Horse-9{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      calls.find((c) => c.method === 'POST' && c.path === '/api/users/2fa-recovery-codes')?.body,
    ).toEqual({
      password: 'Correct-Horse-9',
    });
    expect(await within(twoFactor).findByRole('list', { name: 'Recovery codes' })).toHaveTextContent(
      CODES[9]!,
    );
    expect(within(twoFactor).getByTestId('recovery-codes-left')).toHaveTextContent('10 recovery codes left.');
  });

  it('keeps the dialog open with the reason at the field when the password is wrong', async () => {
    server(
      {
        'POST /api/users/2fa-recovery-codes': refusedAt('body.password', 'The password is not correct', {
          message: 'The password is not correct',
          code: 'auth.wrong_password',
        }),
      },
      { isCompany2FAEnabled: false, isUser2FAEnabled: true },
    );
    const { user } = renderApp('/profile');
    const twoFactor = await screen.findByRole('region', { name: /Two-factor authentication/ });
    await user.click(await within(twoFactor).findByRole('button', { name: 'Make new recovery codes' }));
    const dialog = screen.getByRole('dialog', { name: 'Make new recovery codes?' });
    await user.click(within(dialog).getByRole('button', { name: 'Use your password instead' }));
    await user.type(within(dialog).getByLabelText('Password'), 'wrong{Enter}');
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription(
        expect.stringContaining('The password is not correct'),
      ),
    );
    expect(screen.getByRole('alert', { hidden: true })).toHaveTextContent(
      'Failed to make new recovery codes',
    );
  });
});
