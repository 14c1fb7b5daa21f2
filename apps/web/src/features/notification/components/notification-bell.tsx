import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/button';
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
    ...apiQueryOptions(calls.notification.getNotification),
    refetchInterval: 60_000,
  });
  const read = useMarkRead();
  const unread = list.data?.unread ?? 0;
  return (
    <div className="bell">
      <Button
        variant="ghost"
        small
        aria-expanded={open}
        aria-controls="bell-list"
        onClick={() => setOpen(!open)}
      >
        Notifications{unread ? <span className="badge">{unread}</span> : null}
      </Button>
      {open ? (
        <div id="bell-list" className="bell__panel">
          {(list.data?.items ?? []).length === 0 ? <p className="muted">No notifications</p> : null}
          <ul className="plain-list">
            {(list.data?.items ?? []).map((n) => (
              <li key={n.id} className={n.read ? 'is-read' : 'is-unread'}>
                <Button
                  variant="link"
                  onClick={() => {
                    if (!n.read) read.mutate(n.id);
                    setOpen(false);
                    if (n.link) navigate(n.link);
                  }}
                >
                  {n.title}
                </Button>
                <span className="muted"> {relativeTime(n.created_at)}</span>
              </li>
            ))}
          </ul>
          <Link to="/notifications" className="button button--link" onClick={() => setOpen(false)}>
            See all
          </Link>
          {(list.data?.items ?? []).length ? (
            <Button variant="ghost" small onClick={() => setConfirming(true)}>
              Clear all
            </Button>
          ) : null}
        </div>
      ) : null}
      {confirming ? <ClearNotificationsDialog onClose={() => setConfirming(false)} /> : null}
    </div>
  );
}
