// pnpm blobs:migrate -- --to s3       copies every blob of the folder store (STORAGE_DIR) into
//                                      the S3 bucket (S3_BUCKET, S3_ENDPOINT, …)
// pnpm blobs:migrate -- --to folder   copies every blob of the bucket into STORAGE_DIR
//
// Each copy is verified (the target's sha256 of what it stored must be the blob's id); blobs
// the target has are skipped, so a run that was stopped goes on where it stopped. Progress
// every second; exit code 1 when a blob could not be copied. Then set STORAGE to the target
// and start Quire. Quire may keep running during a copy; a run after it stops picks up what
// was uploaded meanwhile.
import { loadConfig } from '../src/config.js';
import { copyBlobs } from '../src/lib/blob-copy.js';
import { createBlobStore } from '../src/lib/blob-store.js';
import { createS3BlobStore } from '../src/lib/s3-blob-store.js';

const to = process.argv[process.argv.indexOf('--to') + 1];
if (!process.argv.includes('--to') || (to !== 's3' && to !== 'folder')) {
  console.error('Say where to copy: pnpm blobs:migrate -- --to s3 (or --to folder)');
  process.exit(2);
}
const config = loadConfig();
if (!config.s3.bucket) {
  console.error('Set S3_BUCKET (and S3_ENDPOINT, S3_ACCESS_KEY_ID, … as for STORAGE=s3) to name the bucket.');
  process.exit(2);
}
const folder = createBlobStore(config.storageDir);
const bucket = createS3BlobStore(config.s3);
const [from, target] = to === 's3' ? [folder, bucket] : [bucket, folder];
const where = { folder: config.storageDir, s3: `s3://${config.s3.bucket}` };
console.info(`Copying every blob from ${where[to === 's3' ? 'folder' : 's3']} to ${where[to]}…`);

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
const started = Date.now();
let shown = 0;
const line = (p: { copied: number; copiedBytes: number; skipped: number; failed: unknown[] }) =>
  `${p.copied} copied (${(p.copiedBytes / 1024 ** 2).toFixed(1)} MiB), ${p.skipped} there already, ${p.failed.length} failed`;
await target.sweepTemp();
const result = await copyBlobs(from, target, {
  signal: stop.signal,
  onProgress: (p) => {
    if (Date.now() - shown < 1000) return;
    shown = Date.now();
    process.stdout.write(`  … ${line(p)}\n`);
  },
});
const seconds = (Date.now() - started) / 1000;
console.info(
  `${stop.signal.aborted ? 'Stopped' : 'Done'} in ${seconds.toFixed(1)} s: ${line(result)}` +
    (result.copiedBytes ? `, ${(result.copiedBytes / 1024 ** 2 / seconds).toFixed(1)} MiB/s` : ''),
);
for (const f of result.failed) console.error(`  ${f.id}: ${f.reason}`);
if (stop.signal.aborted) console.info('Run it again to go on where it stopped.');
process.exit(result.failed.length ? 1 : 0);
