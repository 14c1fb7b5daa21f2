import { type AccessType, type Area, canAccess } from '@quire/contract';
import type { AccessType as DbAccessType } from '@quire/db';
import { companyAdminOnly, moreAccessThanYours, vendorAdminProtected } from './errors.js';

// The database keeps enum codes; the wire carries the spec's names.
const toWire: Record<DbAccessType, AccessType> = {
  GENERAL_STAFF: 'General staff',
  FILE_CONTROL_ADMIN: 'File Control Admin',
  USER_ADMINISTRATION_ADMIN: 'User Administration Admin',
  AUDITOR: 'Auditor',
  COMPANY_ADMIN: 'COMPANY ADMIN',
  VENDOR_ADMIN: 'DATAMAX ADMIN',
};
const toDb = Object.fromEntries(Object.entries(toWire).map(([db, wire]) => [wire, db])) as Record<
  AccessType,
  DbAccessType
>;

export const accessTypeFromDb = (value: DbAccessType): AccessType => toWire[value];
export const accessTypeToDb = (value: AccessType): DbAccessType => toDb[value];

const AREAS: Area[] = ['fileControl', 'settings', 'licence'];

/**
 * Whether an admin of access type `caller` may manage (create, change, reset) a user of
 * access type `target`: every area the target may read or write, the caller may too. A User
 * Administration Admin manages General staff and User Administration Admins; a Company Admin
 * everyone but the vendor admin.
 */
export function mayManage(caller: AccessType, target: AccessType): boolean {
  return AREAS.every(
    (area) =>
      (!canAccess(target, area, 'read') || canAccess(caller, area, 'read')) &&
      (!canAccess(target, area, 'write') || canAccess(caller, area, 'write')),
  );
}

/**
 * The one rule for acting on other users (editing, status, passwords, signatures, 2FA resets,
 * sessions, group memberships): 403 when any target is the vendor admin, or has an access
 * type that grants more than the caller's (`mayManage`). Targets carry either form of the
 * access type (the database's code or the wire name).
 */
export function assertMayManage(
  caller: AccessType,
  targets: Array<{ accessType: DbAccessType | AccessType }>,
) {
  for (const target of targets) {
    const type =
      (toWire as Record<string, AccessType>)[target.accessType] ?? (target.accessType as AccessType);
    if (type === 'DATAMAX ADMIN') throw vendorAdminProtected();
    if (!mayManage(caller, type)) throw moreAccessThanYours();
  }
}

/** 403 unless the caller is a Company Admin (restoring data, or deciding who signs in, outranks the Settings area). */
export function assertCompanyAdmin(auth: { accessType: AccessType }, what: string): void {
  if (auth.accessType !== 'COMPANY ADMIN') throw companyAdminOnly(what);
}
