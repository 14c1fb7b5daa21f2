import { describe, expect, it } from 'vitest';
import { ACCESS_TYPES, canAccess, landingPath, mayUseRole } from '../src/access.js';
import { buildPath, toRoutePath } from '../src/http.js';
import { passwordProblems } from '../src/password-policy.js';

describe('access (spec §6)', () => {
  it('grants each access type exactly its areas', () => {
    const table = Object.fromEntries(
      ACCESS_TYPES.map((t) => [
        t,
        (['fileControl', 'settings', 'licence'] as const).flatMap((area) =>
          (['read', 'write'] as const).filter((a) => canAccess(t, area, a)).map((a) => `${area}:${a}`),
        ),
      ]),
    );
    expect(table).toEqual({
      'General staff': [],
      'File Control Admin': ['fileControl:read', 'fileControl:write'],
      'User Administration Admin': ['settings:read', 'settings:write'],
      Auditor: ['fileControl:read', 'settings:read'],
      'COMPANY ADMIN': ['fileControl:read', 'fileControl:write', 'settings:read', 'settings:write'],
      'DATAMAX ADMIN': ['licence:read', 'licence:write'],
    });
  });

  it('lets the vendor admin in only as admin, and General staff only as user', () => {
    expect(mayUseRole('DATAMAX ADMIN', 'user')).toBe(false);
    expect(mayUseRole('DATAMAX ADMIN', 'admin')).toBe(true);
    expect(mayUseRole('General staff', 'admin')).toBe(false);
    expect(mayUseRole('General staff', 'user')).toBe(true);
    expect(mayUseRole('Auditor', 'user')).toBe(true);
  });
});

describe('landing pages (spec §4)', () => {
  it.each([
    ['admin', 'DATAMAX ADMIN', '/admin/license-management'],
    ['admin', 'File Control Admin', '/admin/category'],
    ['admin', 'Auditor', '/admin/category'],
    ['admin', 'COMPANY ADMIN', '/admin/category'],
    ['admin', 'User Administration Admin', '/admin/dashboard'],
    ['admin', 'General staff', null],
    ['user', 'General staff', '/dashboard'],
    ['user', 'COMPANY ADMIN', '/dashboard'],
    ['user', 'DATAMAX ADMIN', null],
    ['guest', 'General staff', null],
    ['user', 'Somebody', null],
  ])('%s with %s lands on %s', (role, type, path) => {
    expect(landingPath(role, type)).toBe(path);
  });
});

describe('paths', () => {
  it('fills and encodes path parameters, and refuses a missing one', () => {
    expect(buildPath('/api/editUser/{id}', { id: 7 })).toBe('/api/editUser/7');
    expect(buildPath('/account/forgot-password/{email}', { email: 'a b@x.io' })).toBe(
      '/account/forgot-password/a%20b%40x.io',
    );
    expect(() => buildPath('/api/editUser/{id}', {})).toThrow('Missing path parameter "id"');
    expect(toRoutePath('/api/group/delete/{id}')).toBe('/api/group/delete/:id');
  });
});

describe('password policy', () => {
  it('refuses short, common and personal passwords, and accepts a good one', () => {
    expect(passwordProblems('short')).toEqual(['Use at least 10 characters']);
    expect(passwordProblems('password123')).toEqual(['This password is too common']);
    // From zxcvbn's breach-derived list, in any case.
    expect(passwordProblems('4815162342')).toEqual(['This password is too common']);
    expect(passwordProblems('12345QWERT')).toEqual(['This password is too common']);
    expect(passwordProblems('aaaaaaaaaaaa')).toEqual(['This password is too common']);
    expect(passwordProblems('jdoe-is-great-99', { username: 'jdoe' })).toEqual([
      'Do not use your username or e-mail in the password',
    ]);
    expect(passwordProblems('Mary.Smith.2026!', { email: 'mary.smith@corp.test' })).toHaveLength(1);
    expect(passwordProblems('violet-harbour-tram-42', { username: 'jdoe', email: 'jdoe@corp.test' })).toEqual(
      [],
    );
  });
});
