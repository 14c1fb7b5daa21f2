import { contract } from './index.js';

// The source of src/calls.ts (a zod-free table of every call: method, path, and whether it
// answers a file), written by `pnpm --filter @quire/contract calls` and compared with the
// contract by test/calls.test.ts.

/** The text of src/calls.ts for the contract as it is now. */
export function callsSource(): string {
  const areas = Object.entries(contract).map(([area, entries]) => {
    const lines = Object.entries(entries).map(([name, def]) => {
      const produces = 'produces' in def && def.produces ? `, produces: '${def.produces}'` : '';
      return `    ${name}: { method: '${def.method}', path: '${def.path}'${produces} },`;
    });
    return `  ${area}: {\n${lines.join('\n')}\n  },`;
  });
  return `// Generated from the contract by \`pnpm --filter @quire/contract calls\` (src/calls-table.ts);
// test/calls.test.ts fails when it is not the contract's. Do not edit by hand.
//
// Every call's method and path (and \`produces\` where it answers a file), without its zod
// schemas: the web client calls the API through this table, so a page loads zod and the
// schemas only when it validates a form with them. The types come from the contract.
import type { EndpointDef } from './http.js';
import type { Contract } from './index.js';

/** A call of the contract by method and path; \`entry\` is its contract entry, for types only. */
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

export const calls: Calls = {
${areas.join('\n')}
};
`;
}
