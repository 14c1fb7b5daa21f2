import type { TFileDetail, TFileGrant, TFileGrantRow } from '@quire/contract';
import { useEffect, useState } from 'react';
import { Dialog } from '../../../components/dialog';
import { MultiPicker, type PickerOption } from '../../../components/multi-picker';
import { useNotify } from '../../../components/notifications/notification-context';
import { PlainTable } from '../../../components/plain-table';
import { chooseGrantees } from '../../../lib/grantee-list';
import { useAreaAccess } from '../../../lib/permissions';
import { useSetFilePermissions } from '../api/file-mutations';
import { useFilePermissions, useGrantableGroups } from '../api/file-queries';
import { useFieldUsers } from '../api/get-field-users';
import { DialogForm } from './dialog-form';

const RIGHTS = ['view', 'download', 'edit', 'delete', 'share'] as const;
type Right = (typeof RIGHTS)[number];
const RIGHT_LABELS: Record<Right, string> = {
  view: 'View',
  download: 'Download',
  edit: 'Edit',
  delete: 'Delete',
  share: 'Share',
};

/** One grant being edited: who (a person or a group) and the rights. */
interface Row extends Record<Right, boolean> {
  kind: 'user' | 'group';
  id: number;
  name: string;
}

function rowFrom(g: TFileGrantRow): Row | null {
  const rights = { view: g.view, download: g.download, edit: g.edit, delete: g.delete, share: g.share };
  if (g.user) return { kind: 'user', id: g.user.id, name: g.user.name, ...rights };
  if (g.group) return { kind: 'group', id: g.group.id, name: g.group.name, ...rights };
  return null;
}

function grantFrom(r: Row): TFileGrant {
  const who = r.kind === 'user' ? { user_id: r.id } : { group_id: r.id };
  // Any right implies view.
  const view = r.view || r.download || r.edit || r.delete || r.share;
  return { ...who, view, download: r.download, edit: r.edit, delete: r.delete, share: r.share };
}

/**
 * A file's own permissions: people and groups with their rights on this file, and whether the
 * category's permissions hold for it too. You cannot grant a right you do not hold.
 */
export function FilePermissionsDialog({ file, onClose }: { file: TFileDetail; onClose: () => void }) {
  const notify = useNotify();
  const current = useFilePermissions(file.id);
  const people = useFieldUsers(true);
  const groups = useGrantableGroups(useAreaAccess('fileControl').canRead);
  const save = useSetFilePermissions();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [inherit, setInherit] = useState(true);

  useEffect(() => {
    if (current.data && rows === null) {
      setRows(current.data.grants.map(rowFrom).filter((r): r is Row => r !== null));
      setInherit(!current.data.has_own_permissions);
    }
  }, [current.data, rows]);

  const list = rows ?? [];
  const personOptions: PickerOption[] = (people.data ?? []).map((p) => ({
    id: p.id,
    label: p.name,
    detail: p.username,
  }));
  // Groups already granted stay choosable even for those who cannot list every group.
  const listed = groups.data?.groups ?? [];
  const groupOptions: PickerOption[] = [
    ...listed.map((g) => ({ id: g.id, label: g.name })),
    ...list
      .filter((r) => r.kind === 'group' && !listed.some((g) => g.id === r.id))
      .map((r) => ({ id: r.id, label: r.name })),
  ];
  const mine = current.data?.mine;

  function choose(kind: Row['kind'], ids: number[], options: PickerOption[]) {
    setRows(
      chooseGrantees(list, kind, ids, (id) => ({
        kind,
        id,
        name: options.find((o) => o.id === id)?.label ?? `#${id}`,
        view: true,
        download: false,
        edit: false,
        delete: false,
        share: false,
      })),
    );
  }

  function toggle(row: Row, right: Right, on: boolean) {
    setRows(list.map((r) => (r.kind === row.kind && r.id === row.id ? { ...r, [right]: on } : r)));
  }

  return (
    <Dialog
      title={`Permissions of ${file.name}`}
      description="Who may do what with this file, besides its owner and the File Control admins."
      onClose={onClose}
      busy={save.isPending}
      size="large"
    >
      {current.isPending ? (
        <p className="muted">Loading the permissions…</p>
      ) : current.isError ? (
        <p className="field__error">The permissions could not be loaded.</p>
      ) : (
        <DialogForm
          onSubmit={() =>
            save.mutate(
              { file_id: file.id, inherit_category: inherit, grants: list.map(grantFrom) },
              {
                onSuccess: () => {
                  notify.success('Permissions saved', `${file.name}'s permissions were changed.`);
                  onClose();
                },
                onError: (error) => notify.notifyFailure('Failed to update permissions!', error),
              },
            )
          }
          onCancel={onClose}
          pending={save.isPending}
          pendingLabel="Saving…"
          submitLabel="Save permissions"
        >
          <label className="checkbox">
            <input type="checkbox" checked={inherit} onChange={(e) => setInherit(e.target.checked)} /> The
            category's permissions apply too
          </label>
          {!inherit ? (
            <p className="muted">Only the people and groups below (and the owner) reach this file.</p>
          ) : null}
          <MultiPicker
            label="People"
            options={personOptions}
            loading={people.isPending}
            selected={list.filter((r) => r.kind === 'user').map((r) => r.id)}
            onChange={(ids) => choose('user', ids, personOptions)}
          />
          <MultiPicker
            label="Groups"
            options={groupOptions}
            loading={groups.isFetching}
            emptyText="Only File Control can list the groups."
            selected={list.filter((r) => r.kind === 'group').map((r) => r.id)}
            onChange={(ids) => choose('group', ids, groupOptions)}
          />
          {list.length ? (
            <PlainTable
              caption="Rights on this file"
              columns={['Who', ...RIGHTS.map((right) => RIGHT_LABELS[right])]}
            >
              {list.map((row) => (
                <tr key={`${row.kind}-${row.id}`}>
                  <th scope="row">
                    {row.name} <span className="muted">({row.kind === 'user' ? 'person' : 'group'})</span>
                  </th>
                  {RIGHTS.map((right) => (
                    <td key={right}>
                      <input
                        type="checkbox"
                        aria-label={`${RIGHT_LABELS[right]}: ${row.name}`}
                        checked={row[right]}
                        disabled={mine ? !mine[right] : false}
                        onChange={(e) => toggle(row, right, e.target.checked)}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </PlainTable>
          ) : (
            <p className="muted">No one has rights of their own on this file.</p>
          )}
        </DialogForm>
      )}
    </Dialog>
  );
}
