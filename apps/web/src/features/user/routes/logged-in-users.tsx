import { accessTypeLabel } from '@quire/contract';
import { Link } from 'react-router';
import { DataTable, QueryState, RefreshButton, Timestamp } from '../../../components/data-table';
import { PageHeader } from '../../../components/page-header';
import { currentUserId } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { shortUserAgent } from '../../../lib/user-agent';
import { useLoggedInUsers } from '../api/get-logged-in-users';

const COLUMNS = ['User', 'Role', 'IP address', 'Browser', 'Signed in', 'Last seen'];

export function LoggedInUsersPage() {
  const sessions = useLoggedInUsers();
  const me = currentUserId();
  useFailureToast(sessions.error, sessions.errorUpdatedAt, 'Failed to load signed-in users');
  const rows = sessions.data ?? [];

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
        loadingText="Loading sessions…"
        failedText="The sessions could not be loaded"
        isEmpty={rows.length === 0}
        empty={
          <>
            <h2>Nobody is signed in</h2>
            <p className="muted">Sessions appear here as people sign in.</p>
          </>
        }
      >
        <p className="muted" aria-live="polite">
          {rows.length === 1 ? '1 live session' : `${rows.length} live sessions`}
        </p>
        <DataTable caption="Signed-in users" columns={COLUMNS}>
          {rows.map((s) => (
            <tr key={s.session_id}>
              <td>
                {s.user.name || s.user.username}
                {s.user.id === me ? <span className="muted"> (you)</span> : null}
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
            </tr>
          ))}
        </DataTable>
      </QueryState>
    </>
  );
}
