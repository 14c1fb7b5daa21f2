import type { EndpointDef } from './http.js';
import type { Contract } from './index.js';

// The web client's zod-free view of the contract (the table itself is src/calls.ts, written
// from the contract by `pnpm --filter @quire/contract calls`): every call's method and path
// (and `produces` where it answers a file), without its schemas. Pages call the API through
// it, so a page loads zod and the schemas only when it validates a form with them. The types
// come from the contract.

/** A call of the contract by method and path; `entry` is its contract entry, for types only. */
export interface CallRef<E extends EndpointDef> {
  readonly method: E['method'];
  readonly path: E['path'];
  readonly produces?: E['produces'];
  readonly entry?: E;
}

export type Calls = {
  [A in keyof Contract]: {
    [K in keyof Contract[A]]: Contract[A][K] extends EndpointDef ? CallRef<Contract[A][K]> : never;
  };
};
