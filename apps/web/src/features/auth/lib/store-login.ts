import type { TLoginData } from '@quire/contract';
import {
  authRecordFrom,
  setAuth,
  setIsCompany2FAEnabled,
  setIsUser2FAVerified,
  setTemporalAuth,
  setUserData,
} from '../../../lib/storage';
import type { NextStep } from './next-step';

/**
 * Stores a successful login (spec §3, §4). A login that still needs its second factor is kept
 * in temporal_auth, so that it opens no signed-in page until the 2FA pages finish it.
 */
export function storeLogin(data: TLoginData, step: NextStep): void {
  if (step.kind === 'invalid-role') return;
  const record = authRecordFrom(data);
  if (step.kind === 'signed-in') setAuth(record);
  else setTemporalAuth(record);
  setUserData(data.user);
  setIsCompany2FAEnabled(data.isCompany2FAEnabled);
  setIsUser2FAVerified(false);
}
