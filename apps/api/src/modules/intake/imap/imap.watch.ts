import type { ImapFlow } from 'imapflow';
import type { Deps } from '../../../lib/deps.js';
import { closeImap, openImap } from './imap.connection.js';
import * as repo from './imap.repository.js';
import { wakeImapSource } from './imap.service.js';
import { accountOf, imapSettings } from './imap.settings.js';

// IDLE watchers: in a process that runs jobs, one connection per enabled inbox source whose
// server offers IDLE, waiting in IDLE on its mailbox. New mail (an EXISTS that grows) marks the
// source woken, and the intake.poll schedule's next beat (seconds away) looks at it then
// rather than at its interval. A server without IDLE, or a connection that fails, leaves the
// source to the interval (a failed watcher tries again later). Each process that runs jobs
// watches; the poll itself runs once across servers, by the schedule.

/** How often the list of sources is read again (added, changed, removed). */
const WATCH_SYNC_MS = 60_000;
/** How long a watcher waits before connecting again after a failure, at first and at most. */
const RETRY_MIN_MS = 15_000;
const RETRY_MAX_MS = 10 * 60_000;
/** IDLE is broken and started again this often (servers drop IDLE after about 30 minutes). */
const IDLE_RENEW_MS = 5 * 60_000;

interface ImapWatchers {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Source ids watched in IDLE now (for tests and the log). */
  idling(): number[];
}

interface Watch {
  signature: string;
  client: ImapFlow | null;
  idling: boolean;
  stopped: boolean;
  done: Promise<void>;
}

const sleep = (ms: number, stop: () => boolean) =>
  new Promise<void>((resolve) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (stop() || Date.now() - started >= ms) {
        clearInterval(timer);
        resolve();
      }
    }, 250);
  });

export function createImapWatchers(deps: Deps, options: { syncMs?: number } = {}): ImapWatchers {
  const watches = new Map<number, Watch>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;

  function watch(sourceId: number, settings: unknown, signature: string): Watch {
    const w: Watch = { signature, client: null, idling: false, stopped: false, done: Promise.resolve() };
    w.done = (async () => {
      let backoff = RETRY_MIN_MS;
      while (!w.stopped) {
        try {
          const s = imapSettings(settings);
          const client = await openImap(accountOf(deps, s), {
            allowPrivateHosts: deps.config.IMAP_ALLOW_PRIVATE_HOSTS,
          });
          w.client = client;
          if (w.stopped) break;
          if (!client.capabilities.has('IDLE')) {
            // No IDLE here: the interval polls it. Nothing to hold a connection open for.
            await closeImap(client);
            w.client = null;
            return;
          }
          const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
          client.on('exists', (event: { count: number; prevCount: number }) => {
            if (event.count > event.prevCount)
              wakeImapSource(deps, sourceId).catch((err) =>
                deps.log.warn({ err, sourceId }, 'intake inbox watcher could not wake its source'),
              );
          });
          await client.mailboxOpen(s.mailbox, { readOnly: true });
          backoff = RETRY_MIN_MS;
          while (!w.stopped && client.usable) {
            w.idling = true;
            // idle() resolves when IDLE ends: renewed on a timer, or the connection closed.
            const renew = setTimeout(() => client.noop().catch(() => {}), IDLE_RENEW_MS);
            await Promise.race([client.idle().catch(() => {}), closed]);
            clearTimeout(renew);
          }
          w.idling = false;
        } catch (err) {
          w.idling = false;
          deps.log.info(
            { err, sourceId },
            'intake inbox watcher lost its connection; the interval polls meanwhile',
          );
        }
        if (w.client) await closeImap(w.client).catch(() => {});
        w.client = null;
        if (w.stopped) break;
        await sleep(backoff, () => w.stopped);
        backoff = Math.min(backoff * 2, RETRY_MAX_MS);
      }
    })();
    return w;
  }

  async function stopWatch(id: number) {
    const w = watches.get(id);
    if (!w) return;
    watches.delete(id);
    w.stopped = true;
    if (w.client) w.client.close();
    await w.done;
  }

  async function sync() {
    const sources = await repo.enabledImapSources(deps.db);
    const seen = new Set<number>();
    for (const source of sources) {
      const s = imapSettings(source.settings);
      const signature = JSON.stringify([
        s.host,
        s.port,
        s.tls,
        s.user,
        s.mailbox,
        s.password_encrypted,
        s.ca_certificate,
      ]);
      seen.add(source.id);
      const current = watches.get(source.id);
      if (current?.signature === signature) continue;
      if (current) await stopWatch(source.id);
      if (!running) return;
      watches.set(source.id, watch(source.id, source.settings, signature));
    }
    for (const id of [...watches.keys()]) if (!seen.has(id)) await stopWatch(id);
  }

  return {
    async start() {
      if (running) return;
      running = true;
      const look = () =>
        sync().catch((err) => deps.log.warn({ err }, 'intake inbox watchers could not read the sources'));
      await look();
      timer = setInterval(look, options.syncMs ?? WATCH_SYNC_MS);
      timer.unref();
    },
    async stop() {
      running = false;
      if (timer) clearInterval(timer);
      timer = null;
      await Promise.all([...watches.keys()].map(stopWatch));
    },
    idling: () => [...watches.entries()].filter(([, w]) => w.idling).map(([id]) => id),
  };
}
