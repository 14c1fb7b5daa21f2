import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
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

  it('takes the keys from S3_ACCESS_KEY_ID_FILE and S3_SECRET_ACCESS_KEY_FILE (Docker secrets)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-s3-secrets-'));
    try {
      await writeFile(path.join(dir, 'id'), 'S3RVER\n');
      await writeFile(path.join(dir, 'secret'), 'S3RVER\n');
      const { S3_ACCESS_KEY_ID: _id, S3_SECRET_ACCESS_KEY: _secret, ...env } = s3.env;
      const config = loadConfig({
        ...env,
        LOG_LEVEL: 'silent',
        S3_ACCESS_KEY_ID_FILE: path.join(dir, 'id'),
        S3_SECRET_ACCESS_KEY_FILE: path.join(dir, 'secret'),
      });
      expect(config.s3.credentials).toEqual({ accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
      await expect(createS3BlobStore(config.s3).sweepTemp()).resolves.toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('starts when all is well', async () => {
    await expect(createS3BlobStore(s3.options).sweepTemp()).resolves.toBeUndefined();
  });
});
