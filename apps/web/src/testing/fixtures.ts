import type { AccessType, TLoginData, TUser } from '@quire/contract';
import { authRecordFrom, setAuth, setUserData } from '../lib/storage';

export function aUser(overrides: Partial<TUser> = {}): TUser {
  return {
    id: 7,
    username: 'jdoe',
    email: 'jdoe@example.test',
    first_name: 'Jane',
    last_name: 'Doe',
    name: 'Jane Doe',
    role: 'admin',
    access_type: 'Auditor',
    status: 'active',
    is2FAEnabled: false,
    created_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function aLogin(
  role: 'admin' | 'user',
  accessType: AccessType,
  overrides: Partial<TLoginData> = {},
): TLoginData {
  return {
    access_token: 'token-123',
    access_type: accessType,
    accountType: role === 'admin' ? 'Admin' : 'User',
    role,
    isCompany2FAEnabled: false,
    isUser2FAEnabled: false,
    user: aUser({ role, access_type: accessType }),
    ...overrides,
  };
}

/** Starts a test signed in, as a login would have left the browser. */
export function signIn(role: 'admin' | 'user', accessType: AccessType): TLoginData {
  const data = aLogin(role, accessType);
  setAuth(authRecordFrom(data));
  setUserData(data.user);
  return data;
}
