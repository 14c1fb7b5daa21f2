import { type AccessType, mayUseRole } from '@quire/contract/access';
import { useState } from 'react';
import { dismissRoleHint, getAuth, isRoleHintDismissed } from '../../../lib/storage';

/** What signing in as Admin would open, by access type (spec §6's areas, in the screens' words). */
const ADMIN_GIVES: Partial<Record<AccessType, string>> = {
  'COMPANY ADMIN': 'manage categories and settings',
  'File Control Admin': 'manage categories and workflows',
  'User Administration Admin': 'manage users, groups and settings',
  Auditor: 'review categories, settings and the audit trail',
};

/**
 * On the staff dashboard of someone whose access type has admin areas but who signed in with
 * the User role (spec §4 routes them here): says so, and how to reach those areas.
 */
export function RoleHint() {
  const auth = getAuth();
  // Dismissed, it stays away until the person signs out.
  const [dismissed, setDismissed] = useState(isRoleHintDismissed);
  if (!auth || dismissed || auth.data.role !== 'user') return null;
  const accessType = auth.data.access_type as AccessType;
  const gives = ADMIN_GIVES[accessType];
  if (!gives || !mayUseRole(accessType, 'admin')) return null;
  return (
    <div className="alert alert--info role-hint" role="note" aria-label="Signed in as User">
      <p>You signed in as User. Sign in as Admin to {gives}.</p>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => {
          dismissRoleHint();
          setDismissed(true);
        }}
      >
        Dismiss
      </button>
    </div>
  );
}
