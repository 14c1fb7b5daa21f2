import type { AccessType, TCompanyDetails } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type MockRoutes, refusedAt, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const DETAILS: TCompanyDetails = {
  name: 'Acme Ltd',
  address: '1 Harbour Road',
  phone: '+44 20 7946 0000',
  email: 'office@acme.test',
  website: 'https://acme.test',
  logo_url: '/api/company/logo?v=3',
  background_url: null,
  updated_at: '2025-01-01T00:00:00Z',
};

function server(routes: MockRoutes = {}, as: AccessType = 'COMPANY ADMIN') {
  return signedInApi('admin', as, {
    'GET /api/company_details': { body: { data: DETAILS } },
    ...routes,
  });
}

// A <section> named by its heading is a region.
const details = () => screen.findByRole('region', { name: 'Details' }, { timeout: 5_000 });

describe('company setup', () => {
  it('saves the details as typed, after checking them by the contract', async () => {
    const { calls } = server({ 'PUT /api/company_details': { body: { data: DETAILS } } });
    const { user, notifications } = renderApp('/admin/company-setup');
    const card = await details();
    expect(within(card).getByLabelText('Company name')).toHaveValue('Acme Ltd');
    const website = within(card).getByLabelText('Website');
    await user.clear(website);
    await user.type(website, 'acme.test');
    await user.click(within(card).getByRole('button', { name: 'Save details' }));
    expect(await within(card).findByText('Use an address starting with http:// or https://')).toBeVisible();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.clear(website);
    await user.type(website, 'https://www.acme.test');
    await user.click(within(card).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(notifications.current()?.title).toBe('Company details saved'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'Acme Ltd',
      address: '1 Harbour Road',
      phone: '+44 20 7946 0000',
      email: 'office@acme.test',
      website: 'https://www.acme.test',
    });
  });

  it('a stored website that no longer passes blocks a save with its message at the field, which gets the focus', async () => {
    const { calls } = server({
      'GET /api/company_details': { body: { data: { ...DETAILS, website: 'www.acme.test' } } },
    });
    const { user } = renderApp('/admin/company-setup');
    const card = await details();
    const phone = within(card).getByLabelText('Phone');
    await user.clear(phone);
    await user.type(phone, '+44 20 7946 0001');
    await user.click(within(card).getByRole('button', { name: 'Save details' }));
    const website = within(card).getByLabelText('Website');
    await waitFor(() => expect(website).toHaveFocus());
    expect(website).toHaveAccessibleDescription('Use an address starting with http:// or https://');
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it("a refused save puts the server's message at its field and focuses it", async () => {
    server({
      'PUT /api/company_details': refusedAt('body.website', 'This address does not answer', {
        message: 'Check the website',
      }),
    });
    const { user, notifications } = renderApp('/admin/company-setup');
    const card = await details();
    await user.click(within(card).getByRole('button', { name: 'Save details' }));
    const website = within(card).getByLabelText('Website');
    await waitFor(() => expect(website).toHaveFocus());
    expect(website).toHaveAccessibleDescription('This address does not answer');
    expect(notifications.current()?.title).toBe('Failed to save the company details!');
  });

  it('uploads a background with the upload client, and removes the logo after a confirmation', async () => {
    const { calls } = server({
      'DELETE /api/company/logo': { body: { data: null } },
      'POST /api/controlpanel/upload-background': {
        body: { data: { url: '/api/company/background?v=1', mime_type: 'image/png', size: 3 } },
      },
    });
    const { user, notifications } = renderApp('/admin/company-setup');
    await details();
    expect(screen.getByRole('img', { name: 'The current logo' })).toHaveAttribute(
      'src',
      '/api/company/logo?v=3',
    );

    const background = screen.getByRole('region', { name: 'Sign-in background' });
    expect(background).toHaveTextContent('None set');
    const input = background.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, new File(['png'], 'harbour.png', { type: 'image/png' }));
    await waitFor(() => expect(notifications.current()?.title).toBe('Sign-in background saved'));
    const sent = calls.filter((c) => c.path === '/api/controlpanel/upload-background');
    expect(sent).toHaveLength(1);
    expect((sent[0]!.body as { file: File }).file.name).toBe('harbour.png');

    await user.click(screen.getByRole('button', { name: 'Remove logo' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove the logo?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(notifications.current()?.title).toBe('Logo removed'));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/company/logo')).toBe(true);
  });

  it('is read only for an auditor', async () => {
    server({}, 'Auditor');
    renderApp('/admin/company-setup');
    const card = await details();
    expect(screen.getByText('Read only')).toBeInTheDocument();
    expect(within(card).getByLabelText('Company name')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save details' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove logo' })).not.toBeInTheDocument();
    expect(document.querySelector('input[type="file"]')).toBeNull();
  });
});
