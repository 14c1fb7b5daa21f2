import { finished, type Readable, Transform } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { UploadedFile } from './multipart.js';

// The checks of an upload into a file or category (a multipart call with an object guard:
// route.ts) run while its files stream in, not before: its object guard and the request
// pipeline's checks that would otherwise hold up the first byte (the licence gate). Nothing of
// a file is kept until they pass: a file's `stream` ends only then, and the blob store, which
// takes the content as it comes (`admission`), writes and syncs it meanwhile and keeps it only
// then (PutOptions.admit). A refusal stops the reading at once and is the call's answer, the
// same as when the checks ran first.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by route.ts on the calls whose checks run while their files stream in. */
    admitWhileStoring?: boolean;
  }
}

const deferred = new WeakMap<FastifyRequest, Promise<unknown>[]>();

/** Whether this call's checks may run while its files are stored (see above). */
export const admitsWhileStoring = (req: FastifyRequest) => req.routeOptions.config.admitWhileStoring === true;

/** A check of the request pipeline, started now and awaited before any file is kept. */
export function deferCheck(req: FastifyRequest, check: Promise<unknown>): void {
  check.catch(() => {}); // awaited by admission(); a refusal before then is not unhandled
  const checks = deferred.get(req);
  if (checks) checks.push(check);
  else deferred.set(req, [check]);
}

/**
 * Settles when every deferred check of the request and then `last` have passed; fails with
 * the first refusal in that order (the order they would have run in), whichever came first.
 */
export function admission(req: FastifyRequest, last?: Promise<unknown>): Promise<void> {
  const checks = [...(deferred.get(req) ?? []), ...(last ? [last] : [])];
  const all = (async () => {
    for (const check of checks) await check;
  })();
  all.catch(() => {});
  last?.catch(() => {}); // the deferred checks have theirs (deferCheck)
  return all;
}

/**
 * A file part of a call whose checks are `admitted`: its `stream` ends only once they pass
 * (made when first asked for: the blob store reads `admission` instead) and fails with the
 * refusal; `admission` is the content as it comes, for PutOptions.admit.
 */
export function admittedFile(file: UploadedFile, admitted: Promise<void>): UploadedFile {
  let gated: Readable | undefined;
  return {
    field: file.field,
    filename: file.filename,
    claimedType: file.claimedType,
    get stream() {
      gated ??= endOnceAdmitted(file.stream, admitted);
      return gated;
    },
    admission: { stream: file.stream, admitted },
  };
}

function endOnceAdmitted(source: Readable, admitted: Promise<void>): Readable {
  const out = new Transform({
    transform(chunk: Buffer, _enc, done) {
      done(null, chunk);
    },
    flush(done) {
      admitted.then(() => done(), done);
    },
  });
  // Its reader sees a failure; one that comes after the reader stopped is not unhandled.
  out.on('error', () => {});
  source.pipe(out);
  finished(source, (err) => {
    if (err) out.destroy(err);
  });
  admitted.catch((err: Error) => out.destroy(err));
  return out;
}
