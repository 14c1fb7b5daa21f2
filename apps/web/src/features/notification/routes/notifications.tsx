import type { TNotification } from '@quire/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button';
import { Timestamp } from '../../../components/data-table';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { PageNavigation } from '../../../components/pagination';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useMarkRead, useNotifications } from '../api/notifications';
import { ClearNotificationsDialog } from '../components/clear-notifications-dialog';

function Item({ n, onRead, busy }: { n: TNotification; onRead: () => void; busy: boolean }) {
  return (
    <li className={`notice-item ${n.read ? 'is-read' : 'is-unread'}`}>
      <div className="notice-item__text">
        <span className="notice-item__title">
          {n.link ? (
            <Link to={n.link} onClick={() => (n.read ? undefined : onRead())}>
              {n.title}
            </Link>
          ) : (
            n.title
          )}
          {n.read ? null : <span className="sr-only"> (unread)</span>}
        </span>
        <span className="muted notice-item__meta">
          {n.body ? `${n.body} · ` : ''}
          <Timestamp iso={n.created_at} />
        </span>
      </div>
      {n.read ? null : (
        <Button variant="ghost" small aria-label={`Mark read: ${n.title}`} onClick={onRead} disabled={busy}>
          Mark read
        </Button>
      )}
    </li>
  );
}

/** Every notification of the person: who did what to which file and when, newest first. */
export function NotificationsPage() {
  const notify = useNotify();
  const [page, setPage] = useState(1);
  const [clearing, setClearing] = useState(false);
  const list = useNotifications(page);
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load notifications');
  const read = useMarkRead();
  const data = list.data;
  const items = data?.items ?? [];
  const markRead = (id: number) =>
    read.mutate(id, {
      onError: (error) => notify.notifyFailure('Failed to mark notification as read!', error),
    });

  return (
    <>
      <PageHeader title="Notifications">
        What happened to the files you follow and the files shared with you.
        {data ? ` ${data.unread} unread.` : ''}
      </PageHeader>
      {items.length ? (
        <div className="section-header">
          <Button variant="ghost" onClick={() => setClearing(true)}>
            Clear all
          </Button>
        </div>
      ) : null}
      {list.isPending ? (
        <p className="muted">Loading notifications…</p>
      ) : items.length === 0 ? (
        <div className="card empty-state">
          <p className="muted">No notifications. Follow a file to be told when it changes.</p>
        </div>
      ) : (
        <ul
          className="plain-list notice-list"
          aria-label="Notifications"
          aria-busy={list.isFetching || undefined}
        >
          {items.map((n) => (
            <Item key={n.id} n={n} busy={read.isPending} onRead={() => markRead(n.id)} />
          ))}
        </ul>
      )}
      <PageNavigation data={data} noun="notifications" onPage={setPage} busy={list.isPlaceholderData} />
      {clearing ? (
        <ClearNotificationsDialog
          onClose={() => setClearing(false)}
          onCleared={(cleared) => {
            notify.success('Notifications cleared', `${cleared} removed.`);
            setPage(1);
          }}
        />
      ) : null}
    </>
  );
}
