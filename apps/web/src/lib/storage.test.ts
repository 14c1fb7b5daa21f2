import { describe, expect, it } from 'vitest';
import { aLogin } from '../testing/fixtures';
import {
  authRecordFrom,
  clearAuth,
  dismissRoleHint,
  getAccessToken,
  getAuth,
  getSelectedCategoryId,
  isRoleHintDismissed,
  setAuth,
  setFtime,
  setIsCompany2FAEnabled,
  setIsUser2FAVerified,
  setSelectedCategoryId,
  setTemporalAuth,
  setUserData,
} from './storage';

describe('storage', () => {
  it('keeps the auth record under "auth" as { data, accountType }', () => {
    const data = aLogin('admin', 'Auditor');
    setAuth(authRecordFrom(data));
    expect(JSON.parse(localStorage.getItem('auth') ?? 'null')).toEqual({ data, accountType: 'Admin' });
    expect(getAccessToken()).toBe('token-123');
  });

  it('ignores an auth record that is not one', () => {
    localStorage.setItem('auth', '{not json');
    expect(getAuth()).toBeNull();
    localStorage.setItem('auth', JSON.stringify({ data: {} }));
    expect(getAuth()).toBeNull();
  });

  it('clearAuth forgets the session, the 2FA flags and the user, and keeps the rest', () => {
    const data = aLogin('user', 'General staff');
    setAuth(authRecordFrom(data));
    setTemporalAuth(authRecordFrom(data));
    setIsCompany2FAEnabled(true);
    setIsUser2FAVerified(true);
    setUserData(data.user);
    setSelectedCategoryId(12);
    setFtime('1');
    dismissRoleHint();

    clearAuth();
    expect(isRoleHintDismissed()).toBe(false);

    for (const key of ['auth', 'temporal_auth', 'isCompany2FAEnabled', 'isUser2FAVerified', 'userData']) {
      expect(localStorage.getItem(key)).toBeNull();
    }
    expect(getAccessToken()).toBeNull();
    expect(getSelectedCategoryId()).toBe(12);
    expect(localStorage.getItem('ftime')).toBe('"1"');
  });
});
