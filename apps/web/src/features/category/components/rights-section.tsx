import type { TCategoryInfo, TGrantView, TRights } from '@quire/contract';
import { useId, useState } from 'react';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { PlainTable } from '../../../components/plain-table';
import { useGrantees } from '../api/get-grantees';
import { useUpdateFolder } from '../api/update-folder';
import { draftsFrom, GrantsEditor, grantsInput } from './grants-editor';

const RIGHTS: Array<keyof TRights> = ['view', 'upload', 'edit', 'delete', 'share', 'manage'];

function sourceOf(grant: TGrantView, here: number): string {
  if (grant.source === 'inherited') return `Inherited from ${grant.from.name}`;
  const group = `Through the category group ${grant.category_group?.name}`;
  return grant.from.id === here ? group : `${group}, inherited from ${grant.from.name}`;
}

/**
 * Who may do what here: the grants set on this category (editable by File Control writers),
 * and those that hold here from elsewhere, shown as such: inherited from a category above, or
 * through a category group.
 */
export function RightsSection({ info, canWrite }: { info: TCategoryInfo; canWrite: boolean }) {
  const id = useId();
  const notify = useNotify();
  const update = useUpdateFolder();
  const grantees = useGrantees({ enabled: canWrite });
  const grants = info.grants ?? [];
  const own = grants.filter((g) => g.source === 'own');
  const elsewhere = grants.filter((g) => g.source !== 'own');
  const [drafts, setDrafts] = useState(() => draftsFrom(own));

  const save = () =>
    update.mutate(
      { folder_id: info.id, permissions: grantsInput(drafts) },
      {
        onSuccess: () => notify.success('Rights saved', `The rights on ${info.name} were saved.`),
        onError: (error) => notify.notifyFailure('Failed to save the rights!', error),
      },
    );

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Rights</h2>
      <p className="muted">
        {info.inherit_permissions
          ? 'Rights set on the categories above hold here too.'
          : 'This category does not take the rights of the categories above.'}
      </p>
      <h3>Set on this category</h3>
      {canWrite ? (
        <>
          <GrantsEditor
            value={drafts}
            onChange={setDrafts}
            grantees={grantees.data}
            loading={grantees.isPending}
            caption={`Rights set on ${info.name}`}
          />
          <div className="form-actions">
            <PendingButton type="button" pending={update.isPending} pendingLabel="Saving…" onClick={save}>
              Save rights
            </PendingButton>
          </div>
        </>
      ) : (
        <GrantList grants={own} caption={`Rights set on ${info.name}`} here={info.id} showSource={false} />
      )}
      <h3>From elsewhere</h3>
      <GrantList
        grants={elsewhere}
        caption={`Rights on ${info.name} from elsewhere`}
        here={info.id}
        showSource
      />
    </section>
  );
}

function GrantList({
  grants,
  caption,
  here,
  showSource,
}: {
  grants: TGrantView[];
  caption: string;
  here: number;
  showSource: boolean;
}) {
  if (grants.length === 0) return <p className="muted">None.</p>;
  return (
    <PlainTable caption={caption} columns={['Who', 'Rights', showSource ? 'From' : null]}>
      {grants.map((g) => (
        <tr key={`${g.source}-${g.id}`}>
          <th scope="row">
            {g.grantee.name} <span className="muted">{g.grantee.kind === 'group' ? '(group)' : ''}</span>
          </th>
          <td>{RIGHTS.filter((r) => g.rights[r]).join(', ')}</td>
          {showSource ? (
            <td>
              <span className="badge badge--neutral">{sourceOf(g, here)}</span>
            </td>
          ) : null}
        </tr>
      ))}
    </PlainTable>
  );
}
