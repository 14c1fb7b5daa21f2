import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('groupCommit', () => {
  it('writes a caller alone at once, and the callers that arrive meanwhile together', async () => {
    const groups: number[][] = [];
    const write = groupCommit(
      async (items: number[]) => {
        groups.push(items);
        await tick();
        return items.map((i) => i * 10);
      },
      { concurrency: 1 },
    );
    const results = await Promise.all([1, 2, 3, 4].map((i) => write(i)));
    expect(results).toEqual([10, 20, 30, 40]);
    expect(groups).toEqual([[1], [2, 3, 4]]);
  });

  it('keeps groups to `max` and runs up to `concurrency` at once', async () => {
    const groups: number[][] = [];
    let running = 0;
    let most = 0;
    const write = groupCommit(
      async (items: number[]) => {
        groups.push(items);
        most = Math.max(most, ++running);
        await tick();
        running--;
        return items;
      },
      { max: 2, concurrency: 2 },
    );
    await Promise.all([1, 2, 3, 4, 5, 6].map((i) => write(i)));
    expect(groups).toEqual([[1], [2], [3, 4], [5, 6]]);
    expect(most).toBe(2);
  });

  it('writes each item of a failed group alone, so one bad item fails only its caller', async () => {
    const write = groupCommit(
      async (items: number[]) => {
        await tick();
        if (items.includes(3)) throw new Error('three');
        return items;
      },
      { concurrency: 1 },
    );
    const results = await Promise.allSettled([1, 2, 3, 4].map((i) => write(i)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      1,
      2,
      'three',
      4,
    ]);
  });
});
