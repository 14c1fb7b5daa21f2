import type { FastifyInstance } from 'fastify';

// A request body must keep coming at a minimum rate (REQUEST_MIN_BYTES_PER_SEC). The idle
// timeout (REQUEST_IDLE_TIMEOUT_MS) only catches silence: a client that sends one byte every
// few seconds would hold a connection, and an upload's temp file, for ever. As Apache's
// mod_reqtimeout does, a body has a grace period, extended by one second for every
// `minBytesPerSec` bytes received: a request whose body is still arriving past
// `start + grace + received / minBytesPerSec` is answered 408 and its connection closed.
// The upload's stream fails with it, so the blob store keeps nothing (the temp file goes).

interface ReceiveRateOptions {
  /** Bytes a second a body must average once the grace period is over; 0 turns the check off. */
  minBytesPerSec: number;
  /** Milliseconds a body may take before the rate counts. */
  graceMs: number;
}

const SLOW_BODY = JSON.stringify({
  message:
    'The request body arrived too slowly, so the request was ended. Check your connection and try again.',
  code: 'request.too_slow',
});

export function enforceReceiveRate(app: FastifyInstance, options: ReceiveRateOptions) {
  if (options.minBytesPerSec <= 0) return;
  const every = Math.min(1000, options.graceMs);
  app.addHook('onRequest', async (req, reply) => {
    const raw = req.raw;
    const socket = raw.socket;
    const hasBody =
      Number(raw.headers['content-length'] ?? 0) > 0 || raw.headers['transfer-encoding'] !== undefined;
    // (app.inject's requests have no real socket: nothing to measure.)
    if (!hasBody || raw.complete || typeof socket?.bytesRead !== 'number') return;
    const started = Date.now();
    const readBefore = socket.bytesRead;
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed) return clearInterval(timer);
      const received = socket.bytesRead - readBefore;
      const deadline = started + options.graceMs + (received / options.minBytesPerSec) * 1000;
      if (Date.now() <= deadline) return;
      clearInterval(timer);
      req.log.warn(
        { received, ms: Date.now() - started, minBytesPerSec: options.minBytesPerSec },
        'request body too slow: connection closed',
      );
      if (reply.raw.headersSent) {
        socket.destroy();
        return;
      }
      // The reply cannot go through Fastify: the handler is still reading the body, and fails
      // (nothing kept) when the socket goes. Node answers its own header timeout the same way.
      socket.end(
        'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n' +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(SLOW_BODY)}\r\n\r\n` +
          SLOW_BODY,
        () => socket.destroy(),
      );
    }, every);
    timer.unref();
    const stop = () => clearInterval(timer);
    reply.raw.once('finish', stop).once('close', stop);
  });
}
