import type { AccessType, TEmailSetup, TMailJob } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { onePage } from '../../../testing/fixtures';
import { type MockRoutes, type RecordedCall, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const SETUP: TEmailSetup = {
  host: 'smtp.example.test',
  port: 587,
  security: 'starttls',
  username: 'mailer',
  from_address: 'quire@example.test',
  from_name: 'Quire',
  has_password: true,
  updated_at: '2025-05-01T10:00:00Z',
};

const job = (overrides: Partial<TMailJob> = {}): TMailJob => ({
  id: 1,
  kind: 'password_reset',
  to: 'ann@example.test',
  subject: 'Reset your password',
  status: 'failed',
  attempts: 5,
  max_attempts: 5,
  last_error: '535 Authentication failed',
  run_at: '2025-05-01T10:00:00Z',
  sent_at: null,
  created_at: '2025-05-01T10:00:00Z',
  ...overrides,
});

const queuePage = (items: TMailJob[]) => ({ body: { data: onePage(items) } });

function server(routes: MockRoutes = {}, as: AccessType = 'COMPANY ADMIN') {
  return signedInApi('admin', as, {
    'GET /api/email_setup': { body: { data: SETUP } },
    'GET /api/email/notification': queuePage([
      job(),
      job({
        id: 2,
        status: 'sent',
        last_error: null,
        to: 'ben@example.test',
        sent_at: '2025-05-01T10:01:00Z',
      }),
    ]),
    ...routes,
  });
}

/** How many times the queue was asked for so far. */
const queueCalls = (calls: RecordedCall[]) =>
  calls.filter((c) => c.path === '/api/email/notification').length;

const smtp = async () =>
  screen.findByRole('region', { name: 'SMTP settings' }, { timeout: 5_000 }).then(async (region) => {
    await within(region).findByLabelText('SMTP host');
    return region;
  });

describe('the e-mail page', () => {
  it('shows the saved settings; the stored password stays unchanged unless typed', async () => {
    const { calls } = server({
      'POST /api/email/setup': { body: { data: { ...SETUP, host: 'mail.example.test' } } },
    });
    const { user, notifications } = renderApp('/admin/email');
    const region = await smtp();
    expect(within(region).getByLabelText('SMTP host')).toHaveValue('smtp.example.test');
    expect(within(region).getByLabelText('Port')).toHaveValue(587);
    expect(within(region).getByLabelText('Password')).toHaveAccessibleDescription(
      'Unchanged: a password is stored. Type a new one to replace it.',
    );
    await user.clear(within(region).getByLabelText('SMTP host'));
    await user.type(within(region).getByLabelText('SMTP host'), 'mail.example.test');
    await user.click(within(region).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(notifications.current()).toMatchObject({ title: 'E-mail settings saved' }));
    const body = calls.find((c) => c.path === '/api/email/setup')?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      host: 'mail.example.test',
      port: 587,
      security: 'starttls',
      username: 'mailer',
    });
    expect(body).not.toHaveProperty('password');
  });

  it('clears the stored password when asked, and checks the port before sending', async () => {
    const { calls } = server({
      'POST /api/email/setup': { body: { data: { ...SETUP, has_password: false } } },
    });
    const { user } = renderApp('/admin/email');
    const region = await smtp();
    await user.clear(within(region).getByLabelText('Port'));
    await user.type(within(region).getByLabelText('Port'), '70000{Enter}');
    expect(within(region).getByLabelText('Port')).toHaveAccessibleDescription(
      'Enter a port between 1 and 65535',
    );
    expect(calls.some((c) => c.path === '/api/email/setup')).toBe(false);
    await user.clear(within(region).getByLabelText('Port'));
    await user.type(within(region).getByLabelText('Port'), '2525');
    await user.click(within(region).getByRole('checkbox', { name: 'Clear the stored password' }));
    expect(within(region).getByLabelText('Password')).toBeDisabled();
    await user.click(within(region).getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/email/setup')).toBe(true));
    expect(calls.find((c) => c.path === '/api/email/setup')?.body).toMatchObject({
      port: 2525,
      password: '',
    });
  });

  it('shows the SMTP error when the test e-mail fails', async () => {
    const { calls } = server({
      'POST /api/email/test': {
        status: 502,
        body: {
          message: 'The SMTP server refused the message: 535 Authentication failed',
          code: 'smtp_failed',
        },
      },
    });
    const { user, notifications } = renderApp('/admin/email');
    await smtp();
    await screen.findByRole('row', { name: /ann@example.test/ });
    const queueAsked = queueCalls(calls);
    const to = screen.getByLabelText('Send a test message to');
    expect(to).toHaveValue('jdoe@example.test');
    await user.click(screen.getByRole('button', { name: 'Send test e-mail' }));
    const test = screen.getByRole('region', { name: 'Send a test e-mail' });
    expect(await within(test).findByRole('alert')).toHaveTextContent(
      'The SMTP server refused the message: 535 Authentication failed',
    );
    expect(notifications.current()).toMatchObject({ title: 'Failed to send test e-mail' });
    // A failed test e-mail joins the queue too: the queue is asked again.
    await waitFor(() => expect(queueCalls(calls)).toBeGreaterThan(queueAsked));
  });

  it('explains a refused connection in words, keeping the raw text as details', async () => {
    server({
      'POST /api/email/test': {
        status: 502,
        body: {
          message: 'The test e-mail could not be sent: ESOCKET: connect ECONNREFUSED 127.0.0.1:1',
          code: 'smtp_failed',
        },
      },
    });
    const { user, notifications } = renderApp('/admin/email');
    await smtp();
    await user.click(screen.getByRole('button', { name: 'Send test e-mail' }));
    const test = screen.getByRole('region', { name: 'Send a test e-mail' });
    const alert = await within(test).findByRole('alert');
    expect(alert).toHaveTextContent('The mail server at 127.0.0.1:1 refused the connection');
    expect(alert).toHaveTextContent(
      'Details: The test e-mail could not be sent: ESOCKET: connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(notifications.current()).toMatchObject({
      title: 'Failed to send test e-mail',
      message: 'The mail server at 127.0.0.1:1 refused the connection',
    });
  });

  it('refuses a host with spaces before saving', async () => {
    const { calls } = server();
    const { user } = renderApp('/admin/email');
    const region = await smtp();
    const host = within(region).getByLabelText('SMTP host');
    await user.clear(host);
    await user.type(host, 'smtp example.com{Enter}');
    expect(host).toHaveAccessibleDescription(
      'Enter a host name or IP address with no spaces, such as smtp.example.com',
    );
    expect(host).toHaveFocus();
    expect(calls.some((c) => c.path === '/api/email/setup')).toBe(false);
  });

  it('shows the reason a queued e-mail failed in words', async () => {
    server({
      'GET /api/email/notification': queuePage([
        job({ attempts: 1, max_attempts: 5, last_error: 'EDNS: getaddrinfo ENOTFOUND smtp.invalid' }),
      ]),
    });
    renderApp('/admin/email');
    const row = await screen.findByRole('row', { name: /ann@example.test/ }, { timeout: 5_000 });
    expect(row).toHaveTextContent('Failed after 1 attempt');
    expect(row).toHaveTextContent('Could not find the mail server smtp.invalid');
    expect(row).toHaveTextContent('Details: EDNS: getaddrinfo ENOTFOUND smtp.invalid');
  });

  it('says when e-mail is not configured, and offers no test until it is', async () => {
    server({ 'GET /api/email_setup': { body: { data: null } } });
    renderApp('/admin/email');
    const region = await smtp();
    expect(within(region).getByText('Not configured')).toBeInTheDocument();
    expect(within(region).getByLabelText('Password')).toHaveAccessibleDescription('No password stored.');
    expect(screen.getByRole('button', { name: 'Send test e-mail' })).toBeDisabled();
  });

  it('lists the outgoing queue, filters it by status and deletes a failed job after asking', async () => {
    const { calls } = server({ 'POST /api/email/job/delete/1': { body: { data: null } } });
    const { user, notifications } = renderApp('/admin/email');
    const failed = await screen.findByRole('row', { name: /ann@example.test/ }, { timeout: 5_000 });
    expect(failed).toHaveTextContent('Failed');
    expect(failed).toHaveTextContent('535 Authentication failed');
    expect(failed).toHaveTextContent('Failed after 5 attempts');
    expect(failed).not.toHaveTextContent('5 of 5');
    const sent = screen.getByRole('row', { name: /ben@example.test/ });
    expect(within(sent).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Status'), 'failed');
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/email/notification').at(-1)?.search).toBe(
        '?page=1&quantity=20&status=failed',
      ),
    );

    const queueAsked = queueCalls(calls);
    await user.click(within(failed).getByRole('button', { name: /Delete the e-mail/ }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this e-mail?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete e-mail' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/email/job/delete/1')).toBe(true);
    expect(notifications.current()).toMatchObject({ title: 'E-mail deleted' });
    await waitFor(() => expect(queueCalls(calls)).toBeGreaterThan(queueAsked));
  });

  it('is read only for an Auditor: the settings show, nothing can be changed or sent', async () => {
    server({}, 'Auditor');
    renderApp('/admin/email');
    const region = await smtp();
    expect(screen.getByText('Read only')).toBeInTheDocument();
    expect(within(region).getByLabelText('SMTP host')).toBeDisabled();
    expect(within(region).queryByText(/Type a new one/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save settings' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send test e-mail' })).not.toBeInTheDocument();
    await screen.findByRole('row', { name: /ann@example.test/ });
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  });
});
