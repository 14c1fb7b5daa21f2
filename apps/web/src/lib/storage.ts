// The browser's local storage, behind one typed function per key (spec §9). Nothing else in
// the client touches localStorage directly.
import type { TLoginData, TUser } from '@quire/contract';

export const STORAGE_KEYS = {
  auth: 'auth',
  temporalAuth: 'temporal_auth',
  ftime: 'ftime',
  isCompany2FAEnabled: 'isCompany2FAEnabled',
  isUser2FAVerified: 'isUser2FAVerified',
  userData: 'userData',
  selectedCategoryId: 'selectedCategoryId',
  /** "light" or "dark"; absent: follow the system. index.html reads it before the first paint. */
  theme: 'theme',
  /** The navigation groups folded by hand (names). */
  navFolded: 'navFolded',
  /** The dashboard's "You signed in as User" hint was dismissed (until sign-out). */
  roleHintDismissed: 'roleHintDismissed',
} as const;

/** The stored auth record (spec §3): the login's data, with its access_token, and accountType. */
export interface AuthRecord {
  data: TLoginData;
  accountType: TLoginData['accountType'];
}

function read<T>(key: string): T | null {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    // Unparseable (written by hand or by an older client) or storage blocked: treat as absent.
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or blocked (private mode): the session then lasts as long as the page.
  }
}

function remove(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Storage blocked: nothing stored to remove.
  }
}

function isAuthRecord(value: unknown): value is AuthRecord {
  const data = (value as AuthRecord | null)?.data;
  return typeof data?.access_token === 'string' && typeof data.role === 'string';
}

export function authRecordFrom(data: TLoginData): AuthRecord {
  return { data, accountType: data.accountType };
}

export const getAuth = (): AuthRecord | null => {
  const value = read<unknown>(STORAGE_KEYS.auth);
  return isAuthRecord(value) ? value : null;
};
export const setAuth = (record: AuthRecord) => write(STORAGE_KEYS.auth, record);

/** A login waiting for its second factor (spec §4): not yet a signed-in session. */
export const getTemporalAuth = (): AuthRecord | null => {
  const value = read<unknown>(STORAGE_KEYS.temporalAuth);
  return isAuthRecord(value) ? value : null;
};
export const setTemporalAuth = (record: AuthRecord) => write(STORAGE_KEYS.temporalAuth, record);
export const clearTemporalAuth = () => remove(STORAGE_KEYS.temporalAuth);

/** The bearer token for calls: the signed-in session's, else the one waiting for 2FA. */
export const getAccessToken = (): string | null =>
  getAuth()?.data.access_token ?? getTemporalAuth()?.data.access_token ?? null;

export const setFtime = (value: string) => write(STORAGE_KEYS.ftime, value);

export const setIsCompany2FAEnabled = (value: boolean) => write(STORAGE_KEYS.isCompany2FAEnabled, value);

export const setIsUser2FAVerified = (value: boolean) => write(STORAGE_KEYS.isUser2FAVerified, value);

export const getUserData = (): TUser | null => read<TUser>(STORAGE_KEYS.userData);
export const setUserData = (user: TUser) => write(STORAGE_KEYS.userData, user);

export const getSelectedCategoryId = (): number | null => read<number>(STORAGE_KEYS.selectedCategoryId);
export const setSelectedCategoryId = (id: number) => write(STORAGE_KEYS.selectedCategoryId, id);

export type ThemeChoice = 'system' | 'light' | 'dark';

/** The colour theme chosen in the user menu (kept across sign-outs: it is the device's). */
export const getThemeChoice = (): ThemeChoice => {
  const value = read<unknown>(STORAGE_KEYS.theme);
  return value === 'light' || value === 'dark' ? value : 'system';
};
export const setThemeChoice = (choice: ThemeChoice) =>
  choice === 'system' ? remove(STORAGE_KEYS.theme) : write(STORAGE_KEYS.theme, choice);

export const getFoldedNavGroups = (): string[] => {
  const value = read<unknown>(STORAGE_KEYS.navFolded);
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
};
export const setFoldedNavGroups = (groups: string[]) => write(STORAGE_KEYS.navFolded, groups);

export const isRoleHintDismissed = (): boolean => read<unknown>(STORAGE_KEYS.roleHintDismissed) === true;
export const dismissRoleHint = () => write(STORAGE_KEYS.roleHintDismissed, true);

/** Sign-out: forgets the session, the 2FA flags and the cached user (spec §4). */
export function clearAuth(): void {
  for (const key of [
    STORAGE_KEYS.auth,
    STORAGE_KEYS.temporalAuth,
    STORAGE_KEYS.isCompany2FAEnabled,
    STORAGE_KEYS.isUser2FAVerified,
    STORAGE_KEYS.userData,
    STORAGE_KEYS.roleHintDismissed,
  ]) {
    remove(key);
  }
}
