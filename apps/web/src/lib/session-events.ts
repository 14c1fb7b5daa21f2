// Any call answered "not signed in" (401) ends the session at once, on the failed load itself:
// the query client announces it, the signed-in frame signs out and goes to /login.

export const SESSION_ENDED_EVENT = 'quire:session-ended';

export function announceSessionEnded(): void {
  window.dispatchEvent(new Event(SESSION_ENDED_EVENT));
}

export function onSessionEnded(listener: () => void): () => void {
  window.addEventListener(SESSION_ENDED_EVENT, listener);
  return () => window.removeEventListener(SESSION_ENDED_EVENT, listener);
}
