import type { CategoryRightName, TGrantees, TGrantInput, TRights } from '@quire/contract';
import { MultiPicker } from '../../../components/multi-picker';
import { PlainTable } from '../../../components/plain-table';
import { chooseGrantees } from '../../../lib/grantee-list';

/** A grant being edited: who, and which rights (view is always part of it). */
export interface GrantDraft {
  kind: 'user' | 'group';
  id: number;
  name: string;
  rights: CategoryRightName[];
}

export const EXTRA_RIGHTS: Array<{ right: CategoryRightName; label: string }> = [
  { right: 'upload', label: 'Upload' },
  { right: 'edit', label: 'Edit' },
  { right: 'delete', label: 'Delete' },
  { right: 'share', label: 'Share' },
  { right: 'manage', label: 'Manage' },
];

/** The drafts of grants as the API shows them. */
export function draftsFrom(
  grants: Array<{ grantee: { kind: 'user' | 'group'; id: number; name: string }; rights: TRights }>,
): GrantDraft[] {
  return grants.map((g) => ({
    ...g.grantee,
    rights: (Object.keys(g.rights) as CategoryRightName[]).filter((r) => g.rights[r]),
  }));
}

/** The drafts as the API takes them. */
export function grantsInput(drafts: GrantDraft[]): TGrantInput[] {
  return drafts.map((d) => ({
    ...(d.kind === 'user' ? { user_id: d.id } : { group_id: d.id }),
    rights: ['view', ...d.rights.filter((r) => r !== 'view')],
  }));
}

/**
 * Grants to people and groups: pick them (type-ahead), then tick their rights. Viewing comes
 * with every grant; the other rights add to it.
 */
export function GrantsEditor({
  value,
  onChange,
  grantees,
  loading,
  caption,
}: {
  value: GrantDraft[];
  onChange: (drafts: GrantDraft[]) => void;
  grantees: TGrantees | undefined;
  loading: boolean;
  caption: string;
}) {
  const pick = (kind: 'user' | 'group') => (ids: number[]) => {
    const known = kind === 'user' ? (grantees?.users ?? []) : (grantees?.groups ?? []);
    onChange(
      chooseGrantees(value, kind, ids, (id) => ({
        kind,
        id,
        name: known.find((k) => k.id === id)?.name ?? `#${id}`,
        rights: ['view'],
      })),
    );
  };
  const toggle = (draft: GrantDraft, right: CategoryRightName, on: boolean) =>
    onChange(
      value.map((d) =>
        d === draft ? { ...d, rights: on ? [...d.rights, right] : d.rights.filter((r) => r !== right) } : d,
      ),
    );

  return (
    <div className="grants">
      <div className="form-grid">
        <MultiPicker
          label="People"
          options={(grantees?.users ?? []).map((u) => ({ id: u.id, label: u.name, detail: u.username }))}
          selected={value.filter((d) => d.kind === 'user').map((d) => d.id)}
          onChange={pick('user')}
          placeholder="Type a name or username"
          loading={loading}
        />
        <MultiPicker
          label="Groups"
          options={(grantees?.groups ?? []).map((g) => ({ id: g.id, label: g.name }))}
          selected={value.filter((d) => d.kind === 'group').map((d) => d.id)}
          onChange={pick('group')}
          placeholder="Type a group name"
          loading={loading}
        />
      </div>
      {value.length > 0 ? (
        <PlainTable caption={caption} columns={['Who', 'View', ...EXTRA_RIGHTS.map((r) => r.label)]}>
          {value.map((d) => (
            <tr key={`${d.kind}-${d.id}`}>
              <th scope="row">
                {d.name} <span className="muted">{d.kind === 'group' ? '(group)' : ''}</span>
              </th>
              <td>
                <input type="checkbox" checked disabled aria-label={`${d.name} may view (always)`} />
              </td>
              {EXTRA_RIGHTS.map((r) => (
                <td key={r.right}>
                  <input
                    type="checkbox"
                    checked={d.rights.includes(r.right)}
                    onChange={(e) => toggle(d, r.right, e.target.checked)}
                    aria-label={`${d.name} may ${r.label.toLowerCase()}`}
                  />
                </td>
              ))}
            </tr>
          ))}
        </PlainTable>
      ) : (
        <p className="muted">No grants set here.</p>
      )}
    </div>
  );
}
