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

/** The sections of one navigation group, all for the same login role and area. */
function inGroup(
  group: string,
  role: Section['role'],
  area: Area | null,
  sections: ReadonlyArray<readonly [path: string, label: string]>,
): Section[] {
  return sections.map(([path, label]) => ({ path, label, group, role, area }));
}

export const SECTIONS: readonly Section[] = [
  ...inGroup('Workspace', 'user', null, [
    ['/dashboard', 'Dashboard'],
    ['/categories', 'Categories'],
    ['/assigned', 'Assigned to me'],
  ]),
  ...inGroup('Files', 'any', null, [
    ['/unindexed-files', 'Unindexed files'],
    ['/files/checked-out', 'Checked out'],
    ['/files/favourites', 'Favourites'],
    ['/files/my-deleted', 'My deleted files'],
    ['/notifications', 'Notifications'],
  ]),
  ...inGroup('File Control', 'admin', 'fileControl', [
    ['/admin/category', 'Categories'],
    ['/admin/category-groups', 'Category groups'],
    ['/admin/metadata-fields', 'Metadata fields'],
    ['/admin/value-lists', 'Value lists'],
    ['/admin/workflows', 'Workflows'],
    ['/admin/trash', 'Trash'],
    ['/admin/retention', 'Retention'],
    ['/admin/intake', 'Intake'],
  ]),
  ...inGroup('My work', 'admin', null, [['/admin/assigned', 'Assigned to me']]),
  ...inGroup('Settings', 'admin', 'settings', [
    ['/admin/dashboard', 'Administration'],
    ['/admin/users', 'Users'],
    ['/admin/logged-in-users', 'Signed-in users'],
    ['/admin/groups', 'Groups'],
    ['/admin/email', 'E-mail'],
    ['/admin/company-setup', 'Company setup'],
    ['/admin/sign-in-security', 'Sign-in security'],
    ['/admin/backups', 'Backups'],
    ['/admin/authentication', 'External authentication'],
    ['/admin/audit', 'Audit trail'],
    ['/admin/client-errors', 'Client errors'],
  ]),
  ...inGroup('Licence', 'admin', 'licence', [['/admin/license-management', 'Licence management']]),
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
