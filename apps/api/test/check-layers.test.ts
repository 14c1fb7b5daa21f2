import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// scripts/check-layers.mjs (pnpm lint) on small trees made for it: each broken rule must fail
// the run and name the file; a tree that keeps the rules passes.

const script = path.resolve(import.meta.dirname, '../../../scripts/check-layers.mjs');
const trees: string[] = [];

function check(files: Record<string, string>) {
  const root = mkdtempSync(path.join(tmpdir(), 'quire-layers-'));
  trees.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  return { code: run.status, out: `${run.stdout}${run.stderr}` };
}

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

const mod = 'apps/api/src/modules/things';

describe('check-layers', () => {
  it('passes a service that opens a transaction and queries through its repository', () => {
    const run = check({
      [`${mod}/things.service.ts`]: `import * as repo from './things.repository.js';
export async function rename(deps, id, name) {
  await deps.db.$transaction(async (tx) => repo.rename(tx, id, name));
}`,
      [`${mod}/things.repository.ts`]: `export function rename(tx, id, name) {
  return tx.thing.update({ where: { id }, data: { name } });
}`,
    });
    expect(run.out).toContain('Layering rules: ok');
    expect(run.code).toBe(0);
  });

  it('fails a service that calls Prisma itself, naming the line', () => {
    const run = check({
      [`${mod}/things.service.ts`]: `export async function rename(deps, id, name) {
  await deps.db.$transaction(async (tx) => {
    await tx.thing.update({ where: { id }, data: { name } });
  });
  return deps.db.thing.count();
}
export const raw = (db) => db.$queryRaw\`SELECT 1\`;`,
    });
    expect(run.code).toBe(1);
    expect(run.out).toContain(`${mod}/things.service.ts:3: a service calls Prisma (thing)`);
    expect(run.out).toContain(`${mod}/things.service.ts:5: a service calls Prisma (thing)`);
    expect(run.out).toContain(`${mod}/things.service.ts:7: a service calls Prisma ($queryRaw)`);
  });

  it('fails on a loop of imports, type imports included', () => {
    const run = check({
      'apps/api/src/lib/a.ts': `import { b } from './b.js';\nexport const a = () => b;`,
      'apps/api/src/lib/b.ts': `import type { C } from './c.js';\nexport const b = 1 as unknown as C;`,
      'apps/api/src/lib/c.ts': `import { a } from './a.js';\nexport type C = ReturnType<typeof a>;`,
      'apps/api/src/lib/d.ts': `import { a } from './a.js';\nexport const d = a;`,
    });
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      'an import loop: apps/api/src/lib/a.ts -> apps/api/src/lib/b.ts -> apps/api/src/lib/c.ts -> apps/api/src/lib/a.ts',
    );
    expect(run.out).not.toContain('d.ts ->');
  });

  it('follows the web alias @/ into a loop', () => {
    const run = check({
      'apps/web/src/lib/x.ts': `import { y } from '@/lib/y';\nexport const x = y;`,
      'apps/web/src/lib/y.ts': `import { x } from './x';\nexport const y = x;`,
    });
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      'an import loop: apps/web/src/lib/x.ts -> apps/web/src/lib/y.ts -> apps/web/src/lib/x.ts',
    );
  });

  it('fails a web page that imports the contract table, and passes calls and type imports', () => {
    const page = 'apps/web/src/features/things/api/get-things.ts';
    const run = check({
      [page]: `import { contract, ZThing } from '@quire/contract';
export const get = () => contract.thing.list;`,
      'apps/web/src/features/things/api/get-thing.ts': `import type { contract } from '@quire/contract';
import { calls } from '@quire/contract/calls';
export const get = (): typeof contract.thing.one => calls.thing.one;`,
      'apps/web/src/features/things/api/get-things.test.ts': `import { contract } from '@quire/contract';`,
    });
    expect(run.code).toBe(1);
    expect(run.out).toContain(`${page}:1: imports the contract table`);
    expect(run.out).not.toContain('get-thing.ts');
    expect(run.out).not.toContain('get-things.test.ts');
  });

  it('still fails a route that imports a repository', () => {
    const run = check({
      [`${mod}/things.routes.ts`]: `import * as repo from './things.repository.js';\nexport default repo;`,
      [`${mod}/things.repository.ts`]: 'export const x = 1;',
    });
    expect(run.code).toBe(1);
    expect(run.out).toContain('a route imports a repository');
  });

  it('fails an area named differently on its sides, and passes one name throughout', () => {
    const index = `export const contract = {
  things: thingsContract,
  thingBulk: thingBulkContract,
} satisfies Record<string, unknown>;`;
    const same = check({
      'packages/contract/src/index.ts': index,
      [`${mod}/things.service.ts`]: 'export const a = 1;',
      'apps/api/src/modules/thing-bulk/thing-bulk.service.ts': 'export const b = 1;',
      'apps/web/src/features/things/routes/list.tsx': 'export const c = 1;',
    });
    expect(same.out).toContain('Layering rules: ok');
    const apart = check({
      'packages/contract/src/index.ts': index,
      [`${mod}/things.service.ts`]: 'export const a = 1;',
      'apps/api/src/modules/stuff/stuff.service.ts': 'export const b = 1;',
      'apps/web/src/features/thing/routes/list.tsx': 'export const c = 1;',
    });
    expect(apart.code).toBe(1);
    expect(apart.out).toContain(
      'the contract area "thing-bulk" has no folder apps/api/src/modules/thing-bulk',
    );
    expect(apart.out).toContain('apps/api/src/modules/stuff is not a contract area');
    expect(apart.out).toContain('apps/web/src/features/thing is not a contract area');
  });
});
