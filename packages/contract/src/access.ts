// Access types and what they may do (spec §6). One table, read by the API's guards and by
// the web client's navigation.

export const ACCESS_TYPES = [
  'General staff',
  'File Control Admin',
  'User Administration Admin',
  'Auditor',
  'COMPANY ADMIN',
  'DATAMAX ADMIN',
] as const;
export type AccessType = (typeof ACCESS_TYPES)[number];

export const VENDOR_ADMIN: AccessType = 'DATAMAX ADMIN';

export const LOGIN_ROLES = ['admin', 'user'] as const;
export type LoginRole = (typeof LOGIN_ROLES)[number];

export type Area = 'fileControl' | 'settings' | 'licence';
export type Access = 'read' | 'write';

const grants: Record<AccessType, Partial<Record<Area, Access>>> = {
  'General staff': {},
  'File Control Admin': { fileControl: 'write' },
  'User Administration Admin': { settings: 'write' },
  Auditor: { fileControl: 'read', settings: 'read' },
  'COMPANY ADMIN': { fileControl: 'write', settings: 'write' },
  'DATAMAX ADMIN': { licence: 'write' },
};

/** The fixed list of display names (spec §5). */
export const ACCESS_TYPE_LABELS: Record<AccessType, string> = {
  'General staff': 'General Staff',
  'File Control Admin': 'File Control Admin',
  'User Administration Admin': 'User Administration Admin',
  Auditor: 'Auditor',
  'COMPANY ADMIN': 'Company Admin',
  'DATAMAX ADMIN': 'Vendor Admin',
};

export const AREA_LABELS: Record<Area, string> = {
  fileControl: 'File Control',
  settings: 'Settings',
  licence: 'Licence management',
};

export function accessTypeLabel(accessType: string): string {
  return ACCESS_TYPE_LABELS[accessType as AccessType] ?? accessType;
}

/** Whether an access type may read or write an area. Write implies read. */
export function canAccess(accessType: AccessType, area: Area, access: Access): boolean {
  const granted = grants[accessType]?.[area];
  return granted === 'write' || (granted === 'read' && access === 'read');
}

/** Whether an access type may sign in with a login role (spec §4, §6). */
export function mayUseRole(accessType: AccessType, role: LoginRole): boolean {
  if (role === 'user') return accessType !== VENDOR_ADMIN;
  return accessType !== 'General staff';
}

/** Where a signed-in person lands when no redirect is given (spec §4); null: invalid. */
export function landingPath(role: string, accessType: string): string | null {
  if (role === 'admin') {
    if (accessType === VENDOR_ADMIN) return '/admin/license-management';
    if (accessType === 'File Control Admin' || accessType === 'Auditor' || accessType === 'COMPANY ADMIN')
      return '/admin/category';
    if (accessType === 'User Administration Admin') return '/admin/dashboard';
    return null;
  }
  if (role === 'user' && accessType !== VENDOR_ADMIN && ACCESS_TYPES.includes(accessType as AccessType))
    return '/dashboard';
  return null;
}
