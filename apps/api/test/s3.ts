import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { createS3Client, type S3BlobStoreOptions } from '../src/lib/s3-client.js';

// A real S3-protocol server for the tests (s3rver: S3's HTTP API over a temp folder), on a
// free port of 127.0.0.1, with one empty bucket. Never a mock: the SDK signs, streams and
// parses as it does against any S3-compatible service.

export interface TestS3 {
  /** The configuration variables that point Quire at it (STORAGE=s3 and S3_*). */
  env: Record<string, string>;
  options: S3BlobStoreOptions;
  client: S3Client;
  /** Every key in the bucket, temp objects included, sorted. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startS3(bucket = 'quire-blobs'): Promise<TestS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'quire-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  // s3rver's own account.
  const env = {
    STORAGE: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const options: S3BlobStoreOptions = {
    bucket,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
  };
  const client = createS3Client(options);
  return {
    env,
    options,
    client,
    async keys() {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys.sort();
    },
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
