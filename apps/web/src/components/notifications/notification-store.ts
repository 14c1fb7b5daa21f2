// The global notification area's state (spec §2, §8, §9): one list per kind, one message
// shown at a time by priority, each toast cleared 10 s after it was raised.
import { isAbortError } from '../../lib/api-error';
import { errorMessage } from '../../lib/error-message';

export type NoticeKind = 'success' | 'warning' | 'error' | 'info';

/** Which message shows when several are waiting. */
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
  /** An error toast titled after the failed action, its text from the error-message rule. */
  notifyFailure(title: string, error: unknown): void;
  dismiss(id: number): void;
}

export interface NotificationStore extends Notifier {
  subscribe(listener: () => void): () => void;
  /** The message on screen, or null. */
  current(): Notice | null;
}

type Lists = Record<NoticeKind, Notice[]>;

export function createNotificationStore(): NotificationStore {
  let lists: Lists = { success: [], warning: [], error: [], info: [] };
  let shown: Notice | null = null;
  let nextId = 1;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const listeners = new Set<() => void>();

  function update(next: Lists) {
    lists = next;
    shown = NOTICE_PRIORITY.map((kind) => lists[kind][0]).find((n) => n !== undefined) ?? null;
    for (const listener of listeners) listener();
  }

  function forget(notices: Notice[]) {
    for (const notice of notices) {
      clearTimeout(timers.get(notice.id));
      timers.delete(notice.id);
    }
  }

  function dismiss(id: number) {
    const kind = NOTICE_PRIORITY.find((k) => lists[k].some((n) => n.id === id));
    if (!kind) return;
    forget(lists[kind].filter((n) => n.id === id));
    update({ ...lists, [kind]: lists[kind].filter((n) => n.id !== id) });
  }

  function raise(kind: NoticeKind, title: string, message?: string) {
    const notice: Notice = { id: nextId++, kind, title, ...(message ? { message } : {}) };
    // The error list is cleared before each new error is shown (spec §8).
    const previous = kind === 'error' ? [] : lists[kind];
    if (kind === 'error') forget(lists.error);
    timers.set(
      notice.id,
      setTimeout(() => dismiss(notice.id), TOAST_TIMEOUT_MS),
    );
    update({ ...lists, [kind]: [...previous, notice] });
  }

  return {
    success: (title, message) => raise('success', title, message),
    warning: (title, message) => raise('warning', title, message),
    error: (title, message) => raise('error', title, message),
    info: (title, message) => raise('info', title, message),
    notifyFailure: (title, error) => {
      // A cancelled request is ignored silently (spec §7).
      if (isAbortError(error)) return;
      raise('error', title, errorMessage(error));
    },
    dismiss,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    current: () => shown,
  };
}
