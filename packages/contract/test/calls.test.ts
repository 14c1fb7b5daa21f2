import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { calls } from '../src/calls.js';
import { callsSource } from '../src/calls-table.js';
import { allEndpoints } from '../src/index.js';

// src/calls.ts is the web client's zod-free table of the calls: it must say what the contract says.

describe('the calls table', () => {
  it('is the one the contract writes (pnpm --filter @quire/contract calls)', () => {
    const written = readFileSync(path.resolve(import.meta.dirname, '../src/calls.ts'), 'utf8');
    expect(written).toBe(callsSource());
  });

  it('has every entry of the contract with its method, path and file answer, and nothing else', () => {
    const table = calls as unknown as Record<
      string,
      Record<string, { method: string; path: string; produces?: string }>
    >;
    const fromTable = Object.entries(table).flatMap(([area, entries]) =>
      Object.entries(entries).map(([name, ref]) => [`${area}.${name}`, ref] as const),
    );
    expect(Object.fromEntries(fromTable)).toEqual(
      Object.fromEntries(
        allEndpoints().map(({ operationId, def }) => [
          operationId,
          { method: def.method, path: def.path, ...(def.produces === 'file' ? { produces: 'file' } : {}) },
        ]),
      ),
    );
  });
});
