import { contract } from '@quire/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { apiQueryOptions } from '../../../lib/api-client';
import { relativeTime } from '../../../lib/format';
import { useMarkRead } from '../api/notifications';
import { ClearNotificationsDialog } from './clear-notifications-dialog';

/** The bell: the unread count, and the list (open one to mark it read, or clear them all). */
export function NotificationBell() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const list = useQuery({
    ...apiQueryOptions(contract.notification.getNotification),
    refetchInterval: 60_000,
  });
  const read = useMarkRead();
  const unread = list.data?.unread ?? 0;
  return (
    <div className="bell">
      <button
        type="button"
        className="button button--ghost button--small"
        aria-expanded={open}
        aria-controls="bell-list"
        onClick={() => setOpen(!open)}
      >
        Notifications{unread ? <span className="badge">{unread}</span> : null}
      </button>
      {open ? (
        <div id="bell-list" className="bell__panel">
          {(list.data?.items ?? []).length === 0 ? <p className="muted">No notifications</p> : null}
          <ul className="plain-list">
            {(list.data?.items ?? []).map((n) => (
              <li key={n.id} className={n.read ? 'is-read' : 'is-unread'}>
                <button
                  type="button"
                  className="button button--link"
                  onClick={() => {
                    if (!n.read) read.mutate(n.id);
                    setOpen(false);
                    if (n.link) navigate(n.link);
                  }}
                >
                  {n.title}
                </button>
                <span className="muted"> {relativeTime(n.created_at)}</span>
              </li>
            ))}
          </ul>
          <Link to="/notifications" className="button button--link" onClick={() => setOpen(false)}>
            See all
          </Link>
          {(list.data?.items ?? []).length ? (
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => setConfirming(true)}
            >
              Clear all
            </button>
          ) : null}
        </div>
      ) : null}
      {confirming ? <ClearNotificationsDialog onClose={() => setConfirming(false)} /> : null}
    </div>
  );
}
