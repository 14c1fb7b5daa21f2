import { createHash } from 'node:crypto';
import type { AuthContext } from './session.js';

// A call that only reads (a list, a filter, a search: routes marked `readsOnly`) by a session
// this server resolved a moment ago starts with that session's context while the session is
// read again beside it, rather than after it (decision 023). Its answer waits for that read
// and is given only when the session is still the same caller (lib/route.ts confirmSession);
// otherwise the call is checked and run again as the session now is, or refused. Nothing is
// written by such a call, so a run that is thrown away leaves no trace.

/** How long after its last read a session may start a call ahead of its read. */
const AHEAD_MS = 60_000;
/** How many sessions a server remembers (the oldest is let go first). */
const SEEN_MAX = 5000;

const keyOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The sessions a server resolved lately, by their token's hash, with when. */
export function sessionsSeen(now: () => number = Date.now) {
  const seen = new Map<string, { auth: AuthContext; at: number }>();
  return {
    /** Notes what `token` resolved to now: a live session without a pending second factor, or none. */
    note(token: string, auth: AuthContext | null) {
      const key = keyOf(token);
      seen.delete(key);
      if (!auth || auth.twoFactorPending) return;
      seen.set(key, { auth, at: now() });
      if (seen.size > SEEN_MAX) seen.delete(seen.keys().next().value as string);
    },
    /** The context `token` resolved to within AHEAD_MS, if it did. */
    recent(token: string): AuthContext | undefined {
      const hit = seen.get(keyOf(token));
      return hit && now() - hit.at <= AHEAD_MS ? hit.auth : undefined;
    },
  };
}

export type SessionsSeen = ReturnType<typeof sessionsSeen>;

/** Whether `now` is the caller `ahead` was: the same session, person, role, access type and second-factor state. */
export function sameCaller(ahead: AuthContext, now: AuthContext | null): now is AuthContext {
  return (
    now !== null &&
    now.sessionId === ahead.sessionId &&
    now.userId === ahead.userId &&
    now.role === ahead.role &&
    now.accessType === ahead.accessType &&
    now.twoFactorPending === ahead.twoFactorPending
  );
}
