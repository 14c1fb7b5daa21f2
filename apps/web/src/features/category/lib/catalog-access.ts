import { type AccessType, canAccess } from '@quire/contract';
import { getAuth } from '../../../lib/storage';

/**
 * What the signed-in person may do with the catalog as a whole: File Control writers signed
 * in as admin change it; File Control readers (the Auditor) signed in as admin read all of it
 * (and its rights); everyone else sees the categories granted to them, read only here.
 */
export function catalogAccess(): { canWrite: boolean; readsAll: boolean } {
  const data = getAuth()?.data;
  if (data?.role !== 'admin') return { canWrite: false, readsAll: false };
  const type = data.access_type as AccessType;
  return {
    canWrite: canAccess(type, 'fileControl', 'write'),
    readsAll: canAccess(type, 'fileControl', 'read'),
  };
}
