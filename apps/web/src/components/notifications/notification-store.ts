// The global notification area's state (spec §2, §8, §9): one message at a time, each toast
// cleared 10 s after it was raised. The newest message replaces whatever is showing, so a
// failure is never hidden behind an older success; only among messages raised in the same
// tick (one batch) does the spec's priority order decide which one shows first.
import { isAbortError } from '../../lib/api-error';
import { failureMessage } from '../../lib/error-message';

export type NoticeKind = 'success' | 'warning' | 'error' | 'info';

/** Which message shows first when several are raised in the same tick. */
export const NOTICE_PRIORITY: readonly NoticeKind[] = ['success', 'warning', 'error', 'info'];

export const TOAST_TIMEOUT_MS = 10_000;

export interface Notice {
  id: number;
  kind: NoticeKind;
  title: string;
  message?: string;
}

export interface Notifier {
  success(title: string, message?: string): void;
  warning(title: string, message?: string): void;
  error(title: string, message?: string): void;
  info(title: string, message?: string): void;
  /**
   * An error toast titled after the failed action, its text from the error-message rule
   * (a refusal naming fields says to check them: each field shows its own message).
   */
  notifyFailure(title: string, error: unknown): void;
  dismiss(id: number): void;
}

export interface NotificationStore extends Notifier {
  subscribe(listener: () => void): () => void;
  /** The message on screen, or null. */
  current(): Notice | null;
  /** Forgets every message (sign-out, leaving for the public pages). */
  clear(): void;
}

const rank = (notice: Notice) => NOTICE_PRIORITY.indexOf(notice.kind);

export function createNotificationStore(): NotificationStore {
  /** The messages of the latest batch, in the order they show: priority, then newest first. */
  let queue: Notice[] = [];
  /** Whether the latest batch is still open (its tick has not ended). */
  let batchOpen = false;
  let nextId = 1;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const listeners = new Set<() => void>();

  function update(next: Notice[]) {
    queue = next;
    for (const listener of listeners) listener();
  }

  function forget(notices: Notice[]) {
    for (const notice of notices) {
      clearTimeout(timers.get(notice.id));
      timers.delete(notice.id);
    }
  }

  function dismiss(id: number) {
    if (!queue.some((n) => n.id === id)) return;
    forget(queue.filter((n) => n.id === id));
    update(queue.filter((n) => n.id !== id));
  }

  function raise(kind: NoticeKind, title: string, message?: string) {
    const notice: Notice = { id: nextId++, kind, title, ...(message ? { message } : {}) };
    timers.set(
      notice.id,
      setTimeout(() => dismiss(notice.id), TOAST_TIMEOUT_MS),
    );
    if (!batchOpen) {
      // A new tick: the new message replaces everything raised before it.
      batchOpen = true;
      void Promise.resolve().then(() => {
        batchOpen = false;
      });
      forget(queue);
      update([notice]);
      return;
    }
    // The same tick: one message per kind (the newest), shown in priority order.
    const rest = queue.filter((n) => n.kind !== kind);
    forget(queue.filter((n) => n.kind === kind));
    update([...rest, notice].sort((a, b) => rank(a) - rank(b)));
  }

  return {
    success: (title, message) => raise('success', title, message),
    warning: (title, message) => raise('warning', title, message),
    error: (title, message) => raise('error', title, message),
    info: (title, message) => raise('info', title, message),
    notifyFailure: (title, error) => {
      // A cancelled request is ignored silently (spec §7).
      if (isAbortError(error)) return;
      raise('error', title, failureMessage(error));
    },
    dismiss,
    clear: () => {
      forget(queue);
      update([]);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    current: () => queue[0] ?? null,
  };
}
