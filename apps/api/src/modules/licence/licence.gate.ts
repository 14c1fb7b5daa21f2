import { allEndpoints } from '@quire/contract';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../lib/deps.js';
import { assertWritable } from './licence.service.js';

// After the licence expires Quire is read-only (decision 014): one check in the request
// pipeline, not one in every service. Reads pass (GETs, and the POSTs the contract marks
// `reads`, such as the search); so do downloads (file answers), signing in
// and out (with the 2FA steps), client error reports, and installing a new licence. Every
// other call that could write is refused with one clear message. Nothing is ever deleted.

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const WRITES_ALLOWED_AFTER_EXPIRY = new Set([
  'auth.login',
  'auth.logout',
  'auth.is2faEnabled',
  'auth.enable2fa',
  'auth.verify2fa',
  'auth.logError',
  'licence.install',
]);

/** The POST calls that write nothing (`reads: true` in the contract). */
const READS_BY_POST = new Set(allEndpoints().flatMap((e) => (e.def.reads ? [e.operationId] : [])));

/** Whether a call must wait for the licence's verdict: a write the contract does not exempt. */
function checksLicence(req: FastifyRequest): boolean {
  if (READS.has(req.method)) return false;
  const schema = req.routeOptions.schema as Record<string, unknown> | undefined;
  const operationId = schema?.operationId;
  // Routes outside the contract (health, the web client) write nothing.
  if (typeof operationId !== 'string') return false;
  if (READS_BY_POST.has(operationId) || WRITES_ALLOWED_AFTER_EXPIRY.has(operationId)) return false;
  return !schema?.['x-quire-file'];
}

/**
 * The check in two steps. `start` (at `onRequest`, beside the session's lookup) sends the
 * licence's read at once, so a signed-in write waits for one round trip to the database where
 * it waited for two one after the other. `verdict` (a `preHandler`: after the guard has
 * answered 401 or 403, so those answers come first as before) refuses the call when the
 * licence says so; for a call that was not started it reads the licence then.
 */
export function licenceGate(deps: Deps) {
  const started = new WeakMap<FastifyRequest, Promise<unknown>>();
  const check = () =>
    assertWritable(deps).then(
      () => null,
      (err: unknown) => err,
    );
  return {
    start(req: FastifyRequest): void {
      if (checksLicence(req)) started.set(req, check());
    },
    async verdict(req: FastifyRequest): Promise<void> {
      if (!checksLicence(req)) return;
      const refusal = await (started.get(req) ?? check());
      if (refusal) throw refusal;
    },
  };
}
