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

  describe('callers that said they are coming', () => {
    const recorder = () => {
      const groups: number[][] = [];
      const write = async (items: number[]) => {
        groups.push(items);
        await tick();
        return items;
      };
      return { groups, write };
    };

    it('are waited for, and written in the same group as the caller before them', {
      timeout: 5_000,
    }, async () => {
      const { groups, write } = recorder();
      const writer = groupCommit(write, { waitMs: 60_000 });
      const coming = writer.expect();
      const first = writer(1);
      await tick();
      const results = await Promise.all([first, coming.write(2)]);
      expect(results).toEqual([1, 2]);
      expect(groups).toEqual([[1, 2]]);
    });

    it('are not waited for once they give up, nor longer than waitMs', { timeout: 5_000 }, async () => {
      const { groups, write } = recorder();
      // A wait of 10 s that held would outlast the test's own time limit.
      const writer = groupCommit(write, { waitMs: 60_000 });
      const gaveUp = writer.expect();
      const first = writer(1);
      await tick();
      gaveUp.cancel();
      expect(await first).toBe(1);

      const late = groupCommit(write, { waitMs: 20 });
      late.expect();
      expect(await late(2)).toBe(2);
      expect(groups).toEqual([[1], [2]]);
    });

    it('are not waited for after comingMs (a large file, a slow client)', { timeout: 5_000 }, async () => {
      const { groups, write } = recorder();
      let clock = 0;
      const writer = groupCommit(write, { waitMs: 60_000, comingMs: 50 }, () => clock);
      writer.expect();
      clock = 51;
      expect(await writer(1)).toBe(1);
      expect(groups).toEqual([[1]]);
    });

    it('do not hold a group that is full', { timeout: 5_000 }, async () => {
      const { groups, write } = recorder();
      const writer = groupCommit(write, { waitMs: 60_000, max: 2 });
      const coming = [writer.expect(), writer.expect(), writer.expect()];
      const written = [writer(1), coming[0]!.write(2)];
      expect(await Promise.all(written)).toEqual([1, 2]);
      expect(groups).toEqual([[1, 2]]);
      for (const c of coming) c.cancel();
    });
  });
});
