// Group commit: callers that want to write while a write is committing wait for it, then go
// to the database together, in one statement and one commit, instead of queueing behind each
// other's commits. The database's commit (its WAL flush, and the locks a write holds until it
// is flushed: the audit chain's seal, a category's running number) is then paid once per
// group, not once per caller. One caller alone goes at once.
//
// A caller may also say it is coming (`expect()`: an upload whose content is being stored):
// a group about to go then waits for it, up to `waitMs`, so that callers a few milliseconds
// apart share a commit too. A statement for eight rows costs about what two single ones do,
// so under load the wait is paid back in work not done; nobody waits when nobody is coming.

interface GroupCommitOptions {
  /** The most callers in one group (default 8): one statement's rows run one after another. */
  max?: number;
  /**
   * Groups written at once (default 2): while one commits, the next gathers the callers that
   * arrive meanwhile, and a slow statement does not hold up every caller.
   */
  concurrency?: number;
  /** How long a group waits at most for the callers that said they are coming (default 0). */
  waitMs?: number;
  /**
   * How long after `expect()` a caller counts as coming (default 50 ms): one that takes longer
   * (a large file, a slow client) is not waited for.
   */
  comingMs?: number;
}

/** A caller that said it is coming: it writes, or it gives up (either ends its announcement). */
export interface Arrival<I, O> {
  write(item: I): Promise<O>;
  cancel(): void;
}

export interface GroupWriter<I, O> {
  (item: I): Promise<O>;
  /** Says a caller will write soon; a group about to go waits for it (GroupCommitOptions.waitMs). */
  expect(): Arrival<I, O>;
}

/**
 * Wraps `write(items)` (which answers one result per item, in order) so that concurrent calls
 * share it. When a group's write fails, each of its items is written again alone, so one
 * bad item (or a deadlock with another server) fails only its own caller.
 */
export function groupCommit<I, O>(
  write: (items: I[]) => Promise<O[]>,
  options: GroupCommitOptions = {},
  now: () => number = performance.now.bind(performance),
): GroupWriter<I, O> {
  const max = options.max ?? 8;
  const concurrency = options.concurrency ?? 2;
  const waitMs = options.waitMs ?? 0;
  const comingMs = options.comingMs ?? 50;
  const waiting: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> = [];
  /** When each caller still coming said so. */
  const coming = new Set<{ since: number }>();
  let writers = 0;
  /** Ends the wait of the group about to go, if one waits. */
  let wake: (() => void) | null = null;

  const anyoneComing = () => {
    const t = now();
    for (const c of coming) if (t - c.since < comingMs) return true;
    return false;
  };
  const wakeWhenReady = () => {
    if (wake && (waiting.length >= max || !anyoneComing())) wake();
  };
  const arrivals = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, waitMs);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

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
      while (waiting.length) {
        if (waitMs > 0 && !wake && waiting.length < max && anyoneComing()) await arrivals();
        // Another writer may have taken the group while this one waited.
        const group = waiting.splice(0, max);
        if (group.length) await settle(group);
      }
    } finally {
      writers--;
    }
  };

  const enqueue = (item: I) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      wakeWhenReady();
      // A group gathering its callers takes this one too: no second writer for it.
      if (writers < concurrency && !wake) void drain();
    });

  return Object.assign(enqueue, {
    expect(): Arrival<I, O> {
      const mark = { since: now() };
      coming.add(mark);
      return {
        write(item) {
          coming.delete(mark);
          return enqueue(item);
        },
        cancel() {
          if (coming.delete(mark)) wakeWhenReady();
        },
      };
    },
  });
}
