import { useSyncExternalStore } from 'react';
import { useNotificationStore } from './notification-context';

const ICONS = { success: '✓', warning: '!', error: '✕', info: 'i' } as const;

/** The one toast on screen (spec §2): errors and warnings interrupt, the rest are polite. */
export function NotificationArea() {
  const store = useNotificationStore();
  const notice = useSyncExternalStore(store.subscribe, store.current, store.current);
  if (!notice) return null;
  const urgent = notice.kind === 'error' || notice.kind === 'warning';
  return (
    <div className="toast-region">
      <div
        key={notice.id}
        className={`toast toast--${notice.kind}`}
        role={urgent ? 'alert' : 'status'}
        aria-live={urgent ? 'assertive' : 'polite'}
      >
        <span className="toast__icon" aria-hidden="true">
          {ICONS[notice.kind]}
        </span>
        <div className="toast__body">
          <p className="toast__title">{notice.title}</p>
          {notice.message ? <p className="toast__message">{notice.message}</p> : null}
        </div>
        <button
          type="button"
          className="icon-button"
          aria-label="Dismiss notification"
          onClick={() => store.dismiss(notice.id)}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
    </div>
  );
}
