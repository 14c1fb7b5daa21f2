import { ACCESS_TYPES, type AccessType } from '@quire/contract';
import { describe, expect, it } from 'vitest';
import { INVALID_ROLE_MESSAGE, type LoginOutcome, nextStep } from './next-step';

const plain = (role: string, accessType: string, extra: Partial<LoginOutcome> = {}): LoginOutcome => ({
  role,
  accessType,
  isCompany2FAEnabled: false,
  isUser2FAEnabled: false,
  ...extra,
});

describe('nextStep (spec §4)', () => {
  it.each<[string, AccessType, string]>([
    ['admin', 'DATAMAX ADMIN', '/admin/license-management'],
    ['admin', 'File Control Admin', '/admin/category'],
    ['admin', 'Auditor', '/admin/category'],
    ['admin', 'COMPANY ADMIN', '/admin/category'],
    ['admin', 'User Administration Admin', '/admin/dashboard'],
    ['user', 'General staff', '/dashboard'],
    ['user', 'File Control Admin', '/dashboard'],
    ['user', 'User Administration Admin', '/dashboard'],
    ['user', 'Auditor', '/dashboard'],
    ['user', 'COMPANY ADMIN', '/dashboard'],
  ])('routes %s / %s to %s when no redirect is given', (role, accessType, to) => {
    expect(nextStep(plain(role, accessType))).toEqual({ kind: 'signed-in', to });
  });

  it.each([
    ['user', 'DATAMAX ADMIN'],
    ['admin', 'General staff'],
    ['admin', 'Somebody else'],
    ['owner', 'COMPANY ADMIN'],
  ])('refuses %s / %s with the invalid-role message', (role, accessType) => {
    expect(nextStep(plain(role, accessType))).toEqual({
      kind: 'invalid-role',
      message: INVALID_ROLE_MESSAGE,
    });
    expect(INVALID_ROLE_MESSAGE).toBe('Invalid role, Try again with the correct role');
  });

  it('every access type has somewhere to go under one of the two roles', () => {
    for (const accessType of ACCESS_TYPES) {
      const kinds = ['admin', 'user'].map((role) => nextStep(plain(role, accessType)).kind);
      expect(kinds).toContain('signed-in');
    }
  });

  it('lets a given redirect win over the role routing', () => {
    expect(nextStep(plain('admin', 'Auditor', { redirect: '/admin/dashboard?tab=users' }))).toEqual({
      kind: 'signed-in',
      to: '/admin/dashboard?tab=users',
    });
    expect(nextStep(plain('user', 'General staff', { redirect: '/preview-file/12' }))).toEqual({
      kind: 'signed-in',
      to: '/preview-file/12',
    });
  });

  it('ignores a redirect that leaves the site or leads back to /login', () => {
    for (const redirect of ['https://evil.test/', '//evil.test', '/\\evil.test', 'dashboard', '/login', '']) {
      expect(nextStep(plain('user', 'General staff', { redirect }))).toEqual({
        kind: 'signed-in',
        to: '/dashboard',
      });
    }
  });

  it('sends to 2FA setup when the company requires 2FA and the user has not set it up', () => {
    expect(
      nextStep(plain('admin', 'Auditor', { isCompany2FAEnabled: true, redirect: '/admin/dashboard' })),
    ).toEqual({
      kind: 'setup-2fa',
      to: '/auth/setup-2fa?role=admin&access_type=Auditor&redirect=%2Fadmin%2Fdashboard',
    });
  });

  it('sends to 2FA verification when the user has 2FA, whatever the company says', () => {
    for (const isCompany2FAEnabled of [true, false]) {
      expect(
        nextStep(plain('user', 'General staff', { isCompany2FAEnabled, isUser2FAEnabled: true })),
      ).toEqual({ kind: 'verify-2fa', to: '/auth/verify-2fa?role=user&access_type=General+staff' });
    }
  });

  it('goes to 2FA before judging the role, which the 2FA pages route afterwards', () => {
    expect(nextStep(plain('user', 'DATAMAX ADMIN', { isUser2FAEnabled: true })).kind).toBe('verify-2fa');
  });
});
