import { accessTypeLabel } from '@quire/contract';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { currentUserId } from '../../../lib/permissions';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useLoggedInUsers } from '../api/get-logged-in-users';
import { shortUserAgent } from '../lib/user-agent';

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {relativeTime(iso)}
    </time>
  );
}

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
        <button
          type="button"
          className="button button--ghost button--small"
          onClick={() => sessions.refetch()}
          disabled={sessions.isFetching}
        >
          {sessions.isFetching ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>

      {sessions.isPending ? (
        <div className="card empty-state" role="status">
          <span className="spinner" aria-hidden="true" />
          <p className="muted">Loading sessions…</p>
        </div>
      ) : sessions.isError && !sessions.data ? (
        <div className="card empty-state" role="alert">
          <h2>The sessions could not be loaded</h2>
          <button type="button" className="button button--ghost" onClick={() => sessions.refetch()}>
            Try again
          </button>
        </div>
      ) : rows.length === 0 ? (
        <div className="card empty-state">
          <h2>Nobody is signed in</h2>
          <p className="muted">Sessions appear here as people sign in.</p>
        </div>
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {rows.length === 1 ? '1 live session' : `${rows.length} live sessions`}
          </p>
          <div className="table-wrap">
            <table className="data-table">
              <caption className="sr-only">Signed-in users</caption>
              <thead>
                <tr>
                  <th scope="col">User</th>
                  <th scope="col">Role</th>
                  <th scope="col">IP address</th>
                  <th scope="col">Browser</th>
                  <th scope="col">Signed in</th>
                  <th scope="col">Last seen</th>
                </tr>
              </thead>
              <tbody>
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
                      <When iso={s.created_at} />
                    </td>
                    <td>
                      <When iso={s.last_seen_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}
