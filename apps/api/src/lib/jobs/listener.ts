import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

// A LISTEN connection of its own (a pooled connection cannot hold one), that comes back by
// itself: when the connection drops (the database restarted, a network cut, an idle
// timeout), it reconnects with a growing delay and tells its owner, who then looks for work
// it may have missed meanwhile.

export const LISTENER_APPLICATION_NAME = 'quire job listener';

export interface NotificationListener {
  /** True while the LISTEN connection is up. */
  readonly connected: boolean;
  /** Resolves after the first connection attempt (whether it worked or not). */
  readonly firstAttempt: Promise<void>;
  close(): Promise<void>;
}

interface ListenHandlers {
  onNotify(payload: string): void;
  /** Called after every (re)connection: notifications sent while down were lost. */
  onConnect(): void;
}

export function listenForNotifications(
  url: string,
  channel: string,
  handlers: ListenHandlers,
  log: FastifyBaseLogger,
  options: { retryMinMs?: number; retryMaxMs?: number } = {},
): NotificationListener {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  const retryMinMs = options.retryMinMs ?? 500;
  const retryMaxMs = options.retryMaxMs ?? 30_000;
  let client: pg.Client | null = null;
  let closed = false;
  let retryMs = retryMinMs;
  let retryTimer: NodeJS.Timeout | null = null;
  let resolveFirst: () => void = () => {};
  const firstAttempt = new Promise<void>((r) => {
    resolveFirst = r;
  });

  const retry = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, retryMaxMs);
  };

  async function connect() {
    const c = new pg.Client({
      connectionString: url,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
    });
    let dropped = false;
    const drop = (err?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (client === c) client = null;
      c.removeAllListeners('notification');
      c.end().catch(() => {});
      if (!closed) {
        log.warn({ err }, 'job listener connection lost; reconnecting');
        retry();
      }
    };
    c.on('error', drop);
    c.on('end', () => drop());
    c.on('notification', (msg) => {
      if (msg.channel === channel) handlers.onNotify(msg.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      drop(err);
      resolveFirst();
      return;
    }
    if (closed) {
      dropped = true;
      await c.end().catch(() => {});
      resolveFirst();
      return;
    }
    client = c;
    retryMs = retryMinMs;
    resolveFirst();
    handlers.onConnect();
  }

  void connect();

  return {
    get connected() {
      return client !== null;
    },
    firstAttempt,
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners('notification');
        await c.end().catch(() => {});
      }
    },
  };
}
