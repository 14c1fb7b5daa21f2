import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3BlobStore } from '../src/lib/s3-blob-store.js';
import { startupFailureMessage } from '../src/startup-errors.js';
import { startS3, type TestS3 } from './s3.js';

// A start on STORAGE=s3 sweeps the bucket's temp objects first (buildApp): when the service is
// away, the bucket missing or the keys refused, the start stops with a sentence naming what
// to set, from the real errors of a real S3-protocol server (s3rver).

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3.close());

/** What a start would print when the store's first call (the sweep) fails. */
async function startWith(options: Partial<TestS3['options']>) {
  const failure = await createS3BlobStore({ ...s3.options, ...options })
    .sweepTemp()
    .then(
      () => null,
      (err: unknown) => err,
    );
  expect(failure, 'the sweep should fail').not.toBeNull();
  return startupFailureMessage(failure);
}

describe('a start on an S3 store that cannot work', () => {
  it('says the service cannot be reached, naming S3_ENDPOINT', async () => {
    expect(await startWith({ endpoint: 'http://127.0.0.1:1' })).toMatch(
      /^Quire could not reach the S3 store \(.*ECONNREFUSED.*\): .*S3_ENDPOINT/,
    );
  });

  it('says the bucket does not exist, naming S3_BUCKET', async () => {
    expect(await startWith({ bucket: 'no-such-bucket' })).toContain('S3_BUCKET');
  });

  it('says the keys were refused, naming them', async () => {
    expect(
      await startWith({ credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'not-the-secret' } }),
    ).toMatch(/refused Quire's keys \(InvalidAccessKeyId\).*S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY/);
  });

  it('starts when all is well', async () => {
    await expect(createS3BlobStore(s3.options).sweepTemp()).resolves.toBeUndefined();
  });
});
