import { type AccessType, type Area, canAccess } from '@quire/contract';
import { getAuth } from './storage';

/** What the signed-in person may do in an area (spec §6): read only, or change things too. */
export function useAreaAccess(area: Area): { canRead: boolean; canWrite: boolean } {
  const accessType = getAuth()?.data.access_type as AccessType | undefined;
  if (!accessType) return { canRead: false, canWrite: false };
  return { canRead: canAccess(accessType, area, 'read'), canWrite: canAccess(accessType, area, 'write') };
}

/** The signed-in person's user id, or null. */
export function currentUserId(): number | null {
  return getAuth()?.data.user.id ?? null;
}
