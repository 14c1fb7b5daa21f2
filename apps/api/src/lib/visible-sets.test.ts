import type { Db } from '@quire/db';
import { describe, expect, it } from 'vitest';
import { byKeptSets, type SeenRow } from './visible-sets.js';

// byKeptSets alone, with the statements replaced by counters: when a kept row is used, when
// it is read again, and how much is kept. (What the statements answer, against a real
// database, is in the lists' tests: dashboard-and-search.test.ts, category-files.test.ts.)

const row = (epoch: string, ids = 1): SeenRow => ({
  category_ids: Array.from({ length: ids }, (_, i) => i + 1),
  file_ids: [],
  epoch,
});

/** A database key of its own, the epoch its statements answer, and counts of reads and pages. */
function world(epochAtFirst = '1.1') {
  const w = {
    db: {} as Db,
    epoch: epochAtFirst,
    reads: 0,
    pages: [] as string[],
    run: (key: string, budget?: number, ids = 1) =>
      byKeptSets(
        w.db,
        key,
        async () => {
          w.reads++;
          return row(w.epoch, ids);
        },
        async (r) => {
          w.pages.push(r?.epoch ?? 'none');
          return { epochs: [w.epoch] };
        },
        budget,
      ),
  };
  return w;
}

describe('byKeptSets', () => {
  it('reads the sets once, then pages by the kept row while its epoch holds', async () => {
    const w = world();
    await w.run('7');
    await w.run('7');
    await w.run('7');
    expect(w.reads).toBe(1);
    expect(w.pages).toEqual(['1.1', '1.1', '1.1']);
  });

  it('reads them again, and pages again, when a statement saw another epoch', async () => {
    const w = world();
    await w.run('7');
    w.epoch = '1.2';
    await w.run('7');
    expect(w.reads).toBe(2);
    expect(w.pages).toEqual(['1.1', '1.1', '1.2']);
    await w.run('7');
    expect(w.reads).toBe(2);
  });

  it('keeps within its budget of ids, letting the oldest go, and never a row larger than it', async () => {
    const w = world();
    await w.run('a', 10, 4);
    await w.run('b', 10, 4);
    await w.run('c', 10, 4); // 12 ids: 'a' goes
    expect(w.reads).toBe(3);
    await w.run('b', 10, 4);
    await w.run('c', 10, 4);
    expect(w.reads).toBe(3);
    await w.run('a', 10, 4);
    expect(w.reads).toBe(4);
    await w.run('huge', 10, 11);
    await w.run('huge', 10, 11);
    expect(w.reads).toBe(6);
  });

  it('keeps apart what it keeps for two databases', async () => {
    const one = world();
    const two = world();
    await one.run('7');
    await two.run('7');
    expect([one.reads, two.reads]).toEqual([1, 1]);
  });
});
