import { z } from 'zod';
import { zMultiline } from './common.js';
import { endpoint } from './http.js';

// Licence management (spec §7 "Licence"): the vendor admin installs a signed licence
// (ed25519) and sees its terms and the seats in use. Nobody else may call these.

export const ZLicence = z.object({
  licensee: z.string(),
  seats: z.number().int(),
  starts_at: z.string(),
  expires_at: z.string(),
  features: z.array(z.string()),
  installed_at: z.string(),
  installed_by: z.string().nullable(),
});
export type TLicence = z.infer<typeof ZLicence>;

export const ZLicenceState = z.object({
  /** The installed licence, or null (no limits until one is installed). */
  licence: ZLicence.nullable(),
  /** Active accounts, the vendor admin not counted. */
  seats_used: z.number().int(),
  /** Whole days until expiry (negative once expired); null without a licence. */
  days_left: z.number().int().nullable(),
  /** True once the licence has expired, or when the installed one does not verify: Quire is read-only. */
  read_only: z.boolean(),
  /**
   * Why the installed licence is not honoured (its signature does not verify: it was put in
   * the database or a restored backup, not installed); null when there is no such problem.
   */
  problem: z.string().nullable().optional(),
});
export type TLicenceState = z.infer<typeof ZLicenceState>;

export const ZInstallLicenceBody = z.object({
  /** The licence text as issued (QUIRE1.<payload>.<signature>). */
  licence: zMultiline().trim().min(1, 'Paste the licence or choose its file').max(20_000),
});

export const licenceContract = {
  state: endpoint({
    method: 'GET',
    path: '/api/controlpanel/license-management',
    guard: { area: 'licence', access: 'read' },
    summary: 'The installed licence (licensee, seats, expiry, features) and the seats in use',
    response: ZLicenceState,
  }),
  status: endpoint({
    method: 'GET',
    path: '/api/licence/status',
    guard: { area: 'settings', access: 'read' },
    extension: true,
    summary:
      "The licence's state for the company's administrators (read only): licensee, seats used and total, expiry",
    response: ZLicenceState,
  }),
  install: endpoint({
    method: 'POST',
    path: '/api/controlpanel/license-management',
    guard: { area: 'licence', access: 'write' },
    summary: 'Install a licence: refused unless its ed25519 signature verifies against the vendor key',
    body: ZInstallLicenceBody,
    response: ZLicenceState,
  }),
};
