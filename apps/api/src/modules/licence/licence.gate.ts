import { allEndpoints } from '@quire/contract';
import type { FastifyRequest } from 'fastify';
import { admitsWhileStoring, deferCheck } from '../../lib/admission.js';
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

export function licenceGate(deps: Deps) {
  return async function readOnlyAfterExpiry(req: FastifyRequest): Promise<void> {
    if (READS.has(req.method)) return;
    const schema = req.routeOptions.schema as Record<string, unknown> | undefined;
    const operationId = schema?.operationId;
    // Routes outside the contract (health, the web client) write nothing.
    if (typeof operationId !== 'string') return;
    if (READS_BY_POST.has(operationId) || WRITES_ALLOWED_AFTER_EXPIRY.has(operationId)) return;
    if (schema?.['x-quire-file']) return;
    // An upload's file streams in meanwhile; none is kept unless this passes (lib/admission.ts).
    if (admitsWhileStoring(req)) return deferCheck(req, assertWritable(deps));
    await assertWritable(deps);
  };
}
