import type { S3Client } from '@aws-sdk/client-s3';
import { BlobStoreUnavailableError } from './blob-store.js';
import { loadLater } from './load-later.js';

// The S3 client of the blob store on S3 (s3-blob-store.ts): its options, and how the service's
// errors read: an object not found, or the service away (BlobStoreUnavailableError).

// The AWS SDK takes about a second and 30 MB to load: only a server with STORAGE=s3 loads it.
export const awsS3 = loadLater<typeof import('@aws-sdk/client-s3')>('@aws-sdk/client-s3');
export const awsStorage = loadLater<typeof import('@aws-sdk/lib-storage')>('@aws-sdk/lib-storage');

export interface S3BlobStoreOptions {
  bucket: string;
  /** Region of the bucket (any value for most S3-compatible services). */
  region: string;
  /** URL of an S3-compatible service; unset: AWS. */
  endpoint?: string;
  /** Bucket in the path (`host/bucket/key`) rather than the host name: most self-hosted services. */
  forcePathStyle?: boolean;
  /** Unset: the SDK's usual places (environment, shared files, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** The object (or bucket) is not there. */
export const notFound = (err: unknown) =>
  err instanceof awsS3().S3ServiceException &&
  (err.$metadata.httpStatusCode === 404 || err.name === 'NotFound');

/** Errors of the network or of the service itself (5xx after the SDK's retries): the store is away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const unreachable = (err: unknown) => {
  const e = err as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: number } } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  if (e.name === 'TimeoutError') return true;
  // 501 Not Implemented is a service without some call (see sweepTemp), not one away.
  const status = e.$metadata?.httpStatusCode ?? 0;
  return status >= 500 && status !== 501;
};

/**
 * The S3 client for the options: checksums only where the operation requires one (see below);
 * a service that cannot be reached fails every call with BlobStoreUnavailableError.
 */
export function createS3Client(options: S3BlobStoreOptions): S3Client {
  const client = new (awsS3().S3Client)({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // The SDK's default (WHEN_SUPPORTED) sends streaming bodies as aws-chunked with a trailing
    // CRC, which several S3-compatible services store as part of the content. Quire sends its
    // own SHA-256 where it matters (single puts, copies) instead.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (err) {
        throw unreachable(err) ? new BlobStoreUnavailableError(err) : err;
      }
    },
    { step: 'initialize', name: 'quireStoreUnavailable' },
  );
  return client;
}
