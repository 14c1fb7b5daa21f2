// pnpm bench:storage — upload (put) and download (readChunks) throughput of the two blob
// stores side by side, on this machine: the folder store on a temp folder, and the S3 store
// on s3rver (an S3-protocol server in Node writing to a temp folder on the same disk) on
// 127.0.0.1. So the S3 figure is Quire's S3 path through a local emulator, not a real
// service's; it shows what the protocol costs here. `--mib=N` sets the big blob's size
// (default 256); `--small=N` the count of 100 KiB blobs (default 200). Each figure is the
// median of `--rounds=N` (default 3).
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { type BlobStore, createBlobStore } from '../src/lib/blob-store.js';
import { createS3BlobStore } from '../src/lib/s3-blob-store.js';
import { startS3 } from '../test/s3.js';
import { median } from './stats.js';

const MiB = 1024 * 1024;
const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.slice(name.length + 3)) : fallback;
};
const BIG = arg('mib', 256) * MiB;
const SMALL = arg('small', 200);
const ROUNDS = Math.max(1, arg('rounds', 3));

/** `size` bytes of random data in 1 MiB pieces (one block reused: generation is not timed). */
const block = randomBytes(MiB);
const content = (size: number, salt: number) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < size; at += MiB) {
        const piece = Buffer.from(block.subarray(0, Math.min(MiB, size - at)));
        piece.writeUInt32BE(salt, 0);
        piece.writeUInt32BE(at / MiB, 4);
        yield piece;
      }
    })(),
  );

async function seconds(fn: () => Promise<unknown>) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function measure(blobs: BlobStore, round: number) {
  let id = '';
  const up = await seconds(async () => {
    id = (await blobs.put(content(BIG, round))).id;
  });
  const down = await seconds(async () => {
    for await (const _ of blobs.readChunks(id, undefined, 512 * 1024)) {
      // drained, as a download is
    }
  });
  const smalls: string[] = [];
  const smallUp = await seconds(async () => {
    for (let i = 0; i < SMALL; i++) smalls.push((await blobs.put(randomBytes(100 * 1024))).id);
  });
  const smallDown = await seconds(async () => {
    for (const s of smalls)
      for await (const _ of blobs.readChunks(s)) {
        // drained
      }
  });
  return {
    up: BIG / MiB / up,
    down: BIG / MiB / down,
    smallUp: SMALL / smallUp,
    smallDown: SMALL / smallDown,
  };
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-stores-'));
const s3 = await startS3();
try {
  const stores: Array<[string, BlobStore]> = [
    ['folder', createBlobStore(path.join(dir, 'blobs'))],
    ['S3 (s3rver)', createS3BlobStore(s3.options)],
  ];
  const results = new Map<string, Array<Awaited<ReturnType<typeof measure>>>>();
  // Rounds take turns between the stores, so a noisy moment of the disk hits both.
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, blobs] of stores)
      results.set(name, [...(results.get(name) ?? []), await measure(blobs, round)]);

  console.info(
    `\nBlob stores (${os.cpus().length} cores; ${BIG / MiB} MiB blob, ${SMALL} blobs of 100 KiB; median of ${ROUNDS})\n`,
  );
  console.info('| store        | upload MiB/s | download MiB/s | small puts/s | small reads/s |');
  console.info('| ------------ | ------------ | -------------- | ------------ | ------------- |');
  for (const [name] of stores) {
    const r = results.get(name) ?? [];
    const m = (k: keyof (typeof r)[number]) => median(r.map((x) => x[k])).toFixed(1);
    console.info(
      `| ${name.padEnd(12)} | ${m('up').padStart(12)} | ${m('down').padStart(14)} | ${m('smallUp').padStart(12)} | ${m('smallDown').padStart(13)} |`,
    );
  }
} finally {
  await s3.close();
  await rm(dir, { recursive: true, force: true });
}
