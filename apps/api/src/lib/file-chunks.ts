import { open } from 'node:fs/promises';

// Reading big files as chunks of reused buffers, for work that goes through gigabytes in one
// go (a backup, a restore): no Buffer is allocated per read, so the garbage collector is not
// woken every few dozen MiB of external memory. A chunk is valid only until the next one is
// asked for; whoever keeps one must copy it.

export const CHUNK_BYTES = 4 * 1024 * 1024;

/** Spare read buffers by size, shared by every reader of the process (a few of each kept). */
const spare = new Map<number, Buffer[]>();
const takeBuffer = (size: number) => spare.get(size)?.pop() ?? Buffer.allocUnsafe(size);
const giveBack = (buffer: Buffer) => {
  const kept = spare.get(buffer.length) ?? [];
  spare.set(buffer.length, kept);
  if (kept.length < 8) kept.push(buffer);
};

/**
 * The bytes of `file` (from `start` to `end`, both included, when given) as chunks of up to
 * `chunkBytes` (default 4 MiB). The next chunk is read while the caller works on the current
 * one.
 */
export async function* readFileChunks(
  file: string,
  range: { start?: number; end?: number } = {},
  chunkBytes = CHUNK_BYTES,
): AsyncGenerator<Buffer> {
  const handle = await open(file, 'r');
  const buffers = [takeBuffer(chunkBytes), takeBuffer(chunkBytes)] as const;
  const last = range.end ?? Number.POSITIVE_INFINITY;
  let position = range.start ?? 0;
  const read = async (buffer: Buffer) => {
    const want = Math.min(buffer.length, last + 1 - position);
    if (want <= 0) return 0;
    const { bytesRead } = await handle.read(buffer, 0, want, position);
    position += bytesRead;
    return bytesRead;
  };
  let which = 0;
  let next = read(buffers[0]);
  try {
    for (;;) {
      const n = await next;
      if (n === 0) return;
      const current = buffers[which]!;
      which ^= 1;
      next = read(buffers[which]!);
      yield current.subarray(0, n);
    }
  } finally {
    await next.catch(() => 0);
    await handle.close();
    giveBack(buffers[0]);
    giveBack(buffers[1]);
  }
}
