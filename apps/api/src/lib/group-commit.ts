// Group commit: callers that want to write while a write is committing wait for it, then go
// to the database together, in one statement and one commit, instead of queueing behind each
// other's commits. The database's commit (its WAL flush, and the locks a write holds until it
// is flushed: the audit chain's seal, a category's running number) is then paid once per
// group, not once per caller. One caller alone goes at once; nobody waits for a timer.

interface GroupCommitOptions {
  /** The most callers in one group (default 8): one statement's rows run one after another. */
  max?: number;
  /**
   * Groups written at once (default 2): while one commits, the next gathers the callers that
   * arrive meanwhile, and a slow statement does not hold up every caller.
   */
  concurrency?: number;
}

/**
 * Wraps `write(items)` (which answers one result per item, in order) so that concurrent calls
 * share it. When a group's write fails, each of its items is written again alone, so one
 * bad item (or a deadlock with another server) fails only its own caller.
 */
export function groupCommit<I, O>(
  write: (items: I[]) => Promise<O[]>,
  options: GroupCommitOptions = {},
): (item: I) => Promise<O> {
  const max = options.max ?? 8;
  const concurrency = options.concurrency ?? 2;
  const waiting: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  let writers = 0;

  const settle = async (group: typeof waiting) => {
    try {
      const results = await write(group.map((g) => g.item));
      group.forEach((g, i) => {
        g.resolve(results[i] as O);
      });
    } catch (err) {
      if (group.length === 1) {
        group[0]?.reject(err);
        return;
      }
      for (const g of group) {
        try {
          g.resolve((await write([g.item]))[0] as O);
        } catch (own) {
          g.reject(own);
        }
      }
    }
  };

  const drain = async () => {
    writers++;
    try {
      while (waiting.length) await settle(waiting.splice(0, max));
    } finally {
      writers--;
    }
  };

  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (writers < concurrency) void drain();
    });
}
