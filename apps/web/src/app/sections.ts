// The signed-in sections that exist today, the area each belongs to (spec §6), and who may
// open them. The navigation and the page guard both read this one table.
import { type AccessType, type Area, canAccess, VENDOR_ADMIN } from '@quire/contract';

export interface Section {
  path: string;
  label: string;
  /** The group it is listed under in the navigation. */
  group: string;
  /** The login role it is for; `any`: both. */
  role: 'user' | 'admin' | 'any';
  /** The area it needs read access to; null: any access type but the vendor admin's. */
  area: Area | null;
}

export const SECTIONS: readonly Section[] = [
  { path: '/dashboard', label: 'Dashboard', group: 'Workspace', role: 'user', area: null },
  { path: '/categories', label: 'Categories', group: 'Workspace', role: 'user', area: null },
  { path: '/assigned', label: 'Assigned to me', group: 'Workspace', role: 'user', area: null },
  { path: '/unindexed-files', label: 'Unindexed files', group: 'Files', role: 'any', area: null },
  { path: '/files/checked-out', label: 'Checked out', group: 'Files', role: 'any', area: null },
  { path: '/files/favourites', label: 'Favourites', group: 'Files', role: 'any', area: null },
  { path: '/files/my-deleted', label: 'My deleted files', group: 'Files', role: 'any', area: null },
  { path: '/notifications', label: 'Notifications', group: 'Files', role: 'any', area: null },
  { path: '/admin/category', label: 'Categories', group: 'File Control', role: 'admin', area: 'fileControl' },
  {
    path: '/admin/category-groups',
    label: 'Category groups',
    group: 'File Control',
    role: 'admin',
    area: 'fileControl',
  },
  {
    path: '/admin/metadata-fields',
    label: 'Metadata fields',
    group: 'File Control',
    role: 'admin',
    area: 'fileControl',
  },
  {
    path: '/admin/value-lists',
    label: 'Value lists',
    group: 'File Control',
    role: 'admin',
    area: 'fileControl',
  },
  { path: '/admin/workflows', label: 'Workflows', group: 'File Control', role: 'admin', area: 'fileControl' },
  { path: '/admin/trash', label: 'Trash', group: 'File Control', role: 'admin', area: 'fileControl' },
  { path: '/admin/retention', label: 'Retention', group: 'File Control', role: 'admin', area: 'fileControl' },
  { path: '/admin/intake', label: 'Intake', group: 'File Control', role: 'admin', area: 'fileControl' },
  { path: '/admin/assigned', label: 'Assigned to me', group: 'My work', role: 'admin', area: null },
  { path: '/admin/dashboard', label: 'Administration', group: 'Settings', role: 'admin', area: 'settings' },
  { path: '/admin/users', label: 'Users', group: 'Settings', role: 'admin', area: 'settings' },
  {
    path: '/admin/logged-in-users',
    label: 'Signed-in users',
    group: 'Settings',
    role: 'admin',
    area: 'settings',
  },
  { path: '/admin/groups', label: 'Groups', group: 'Settings', role: 'admin', area: 'settings' },
  { path: '/admin/email', label: 'E-mail', group: 'Settings', role: 'admin', area: 'settings' },
  {
    path: '/admin/company-setup',
    label: 'Company setup',
    group: 'Settings',
    role: 'admin',
    area: 'settings',
  },
  {
    path: '/admin/sign-in-security',
    label: 'Sign-in security',
    group: 'Settings',
    role: 'admin',
    area: 'settings',
  },
  { path: '/admin/backups', label: 'Backups', group: 'Settings', role: 'admin', area: 'settings' },
  {
    path: '/admin/authentication',
    label: 'External authentication',
    group: 'Settings',
    role: 'admin',
    area: 'settings',
  },
  { path: '/admin/audit', label: 'Audit trail', group: 'Settings', role: 'admin', area: 'settings' },
  {
    path: '/admin/client-errors',
    label: 'Client errors',
    group: 'Settings',
    role: 'admin',
    area: 'settings',
  },
  {
    path: '/admin/license-management',
    label: 'Licence management',
    group: 'Licence',
    role: 'admin',
    area: 'licence',
  },
];

export function mayOpen(section: Section, role: string, accessType: string): boolean {
  if (section.role !== 'any' && section.role !== role) return false;
  if (section.area === null) return accessType !== VENDOR_ADMIN;
  return canAccess(accessType as AccessType, section.area, 'read');
}

/** The section a path belongs to: the longest section path it starts with. */
export function sectionFor(pathname: string): Section | undefined {
  return [...SECTIONS]
    .sort((a, b) => b.path.length - a.path.length)
    .find((s) => pathname === s.path || pathname.startsWith(`${s.path}/`));
}

/** The navigation of a signed-in person, grouped as listed. */
export function navigationFor(
  role: string,
  accessType: string,
): Array<{ group: string; sections: Section[] }> {
  const groups: Array<{ group: string; sections: Section[] }> = [];
  for (const section of SECTIONS.filter((s) => mayOpen(s, role, accessType))) {
    const group = groups.find((g) => g.group === section.group);
    if (group) group.sections.push(section);
    else groups.push({ group: section.group, sections: [section] });
  }
  return groups;
}
