import type { AccessType } from '@quire/contract';
import type { AccessType as DbAccessType } from '@quire/db';

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
