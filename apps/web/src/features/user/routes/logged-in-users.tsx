import { accessTypeLabel, type contract, type Data } from '@quire/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable, EmptyText, QueryState, RefreshButton, Timestamp } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { useAreaAccess } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { shortUserAgent } from '../../../lib/user-agent';
import { useEndSession } from '../api/end-session';
import { useLoggedInUsers } from '../api/get-logged-in-users';

type Session = Data<typeof contract.user.loggedInUsers>[number];

export function LoggedInUsersPage() {
  const sessions = useLoggedInUsers();
  const { canWrite } = useAreaAccess('settings');
  const [ending, setEnding] = useState<Session | null>(null);
  useFailureToast(sessions.error, sessions.errorUpdatedAt, 'Failed to load signed-in users');
  const rows = sessions.data ?? [];
  const columns = ['User', 'Role', 'IP address', 'Browser', 'Signed in', 'Last seen'];

  return (
    <>
      <PageHeader title="Signed-in users">
        Live sessions: signed in, not signed out and not expired, most recently seen first.
      </PageHeader>
      <div className="section-header">
        <Link to="/admin/users">Back to users</Link>
        <RefreshButton query={sessions} />
      </div>

      <QueryState
        query={sessions}
        what="sessions"
        isEmpty={rows.length === 0}
        empty={<EmptyText title="Nobody is signed in">Sessions appear here as people sign in.</EmptyText>}
      >
        <p className="muted" aria-live="polite">
          {rows.length === 1 ? '1 live session' : `${rows.length} live sessions`}
        </p>
        <DataTable caption="Signed-in users" columns={columns} actions={canWrite}>
          {rows.map((s) => (
            <tr key={s.session_id}>
              <td>
                {s.user.name || s.user.username}
                {s.current ? <span className="muted"> (you, this session)</span> : null}
                <div className="cell-muted">
                  {s.user.username} · {accessTypeLabel(s.user.access_type)}
                </div>
              </td>
              <td>{s.role === 'admin' ? 'Admin' : 'User'}</td>
              <td>{s.ip ?? <span className="muted">Unknown</span>}</td>
              <td title={s.user_agent ?? undefined}>{shortUserAgent(s.user_agent)}</td>
              <td>
                <Timestamp iso={s.created_at} />
              </td>
              <td>
                <Timestamp iso={s.last_seen_at} />
              </td>
              {canWrite ? (
                <td className="cell-actions">
                  {s.current ? (
                    <span className="cell-muted">Sign out to end it</span>
                  ) : (
                    <button
                      type="button"
                      className="button button--small button--ghost"
                      onClick={() => setEnding(s)}
                    >
                      End session
                    </button>
                  )}
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      </QueryState>
      {ending ? <EndSessionDialog session={ending} onClose={() => setEnding(null)} /> : null}
    </>
  );
}

function EndSessionDialog({ session, onClose }: { session: Session; onClose: () => void }) {
  const end = useEndSession();
  const notify = useNotify();
  const who = session.user.name || session.user.username;
  return (
    <ConfirmDialog
      title={`End this session of ${who}?`}
      confirmLabel="End session"
      pendingLabel="Ending…"
      tone="danger"
      pending={end.isPending}
      onCancel={onClose}
      onConfirm={() =>
        end.mutate(session.session_id, {
          onSuccess: () => {
            notify.success(
              'Session ended',
              `${who} is signed out on that browser and must sign in again there.`,
            );
            onClose();
          },
          onError: (error) => notify.notifyFailure('Failed to end session!', error),
        })
      }
    >
      <p>
        {who} is signed out at once on {shortUserAgent(session.user_agent)}
        {session.ip ? ` (${session.ip})` : ''}. Their other sessions stay open.
      </p>
    </ConfirmDialog>
  );
}
