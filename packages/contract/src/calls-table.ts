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
import type { Calls } from './call-ref.js';

export type { CallRef, Calls } from './call-ref.js';

/** Every call's method and path (src/call-ref.ts says why this table). */
export const calls: Calls = {
${areas.join('\n')}
};
`;
}
