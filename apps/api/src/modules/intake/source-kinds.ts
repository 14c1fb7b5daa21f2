import type { Deps } from '../../lib/deps.js';
import { forgetLooks, pollFolder, returnFailedFile } from './folder-watch.service.js';
import { pollImapSource, retryImapPart } from './imap/imap.service.js';
import type { SourceRow } from './intake.repository.js';

// What each kind of source does: look for what arrived (a poll, run by the intake.poll
// schedule) and bring a failed arrival back to be taken again. A kind not listed here is not
// polled.

export interface SourceKind {
  /** One look at the source; throws a sentence when the source cannot be read. */
  poll(deps: Deps, source: SourceRow): Promise<{ taken: number; failed: number }>;
  /**
   * Makes a failed arrival's content available to be taken again (its arrival row is then
   * deleted by the caller, releasing the key). Throws a sentence when it no longer can.
   */
  retry(deps: Deps, source: SourceRow, externalKey: string): Promise<void>;
  /** The source was changed or removed: drop what this process remembers of it. */
  forget?(sourceId: number): void;
}

export const SOURCE_KINDS: Partial<Record<SourceRow['kind'], SourceKind>> = {
  folder: {
    poll: pollFolder,
    retry: async (_deps, source, key) => {
      await returnFailedFile(source, key);
    },
    forget: forgetLooks,
  },
  // E-mail inboxes (imap/): a look at most every minute unless an IDLE watcher saw mail.
  imap: { poll: pollImapSource, retry: retryImapPart },
};
