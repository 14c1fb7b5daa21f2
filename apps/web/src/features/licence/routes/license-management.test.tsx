import type { TLicenceState } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { refusedAt, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const STATE: TLicenceState = {
  licence: {
    licensee: 'Acme Ltd',
    seats: 50,
    starts_at: '2025-01-01T00:00:00Z',
    expires_at: '2025-06-20T23:59:59Z',
    features: ['ldap'],
    installed_at: '2025-01-02T10:00:00Z',
    installed_by: 'vendor',
  },
  seats_used: 12,
  days_left: 19,
  read_only: false,
};

describe('licence management', () => {
  it('shows the licence, seats used and the days left; a refused licence says why at the field', async () => {
    const { calls } = signedInApi('admin', 'DATAMAX ADMIN', {
      'GET /api/controlpanel/license-management': { body: { data: STATE } },
      'POST /api/controlpanel/license-management': refusedAt('body.licence', 'altered', {
        message: 'The licence signature does not match: it was altered or not issued by the vendor',
        code: 'licence.invalid',
      }),
    });
    const { user } = renderApp('/admin/license-management');
    const current = await screen.findByRole('region', { name: 'Current licence' }, { timeout: 5000 });
    expect(await within(current).findByText('Acme Ltd')).toBeInTheDocument();
    expect(within(current).getByText('12 of 50')).toBeInTheDocument();
    expect(within(current).getByText('19 days left')).toBeInTheDocument();
    const install = screen.getByRole('region', { name: 'Install a licence' });
    await user.click(within(install).getByRole('button', { name: 'Install licence' }));
    expect(within(install).getByLabelText('Licence')).toHaveAccessibleDescription(
      'Paste the licence or choose its file',
    );
    await user.type(within(install).getByLabelText('Licence'), 'QUIRE1.forged.sig');
    await user.click(within(install).getByRole('button', { name: 'Install licence' }));
    await waitFor(() =>
      expect(within(install).getByLabelText('Licence')).toHaveAccessibleDescription(
        'The licence signature does not match: it was altered or not issued by the vendor',
      ),
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ licence: 'QUIRE1.forged.sig' });
  });
});
