import type { Config } from '../config.js';
import { type BlobStore, createBlobStore } from './blob-store.js';
import { createS3BlobStore } from './s3-blob-store.js';

/** The blob store the configuration names: the folder STORAGE_DIR, or an S3-compatible bucket. */
export function openBlobStore(config: Config): BlobStore {
  if (config.STORAGE === 'folder') return createBlobStore(config.storageDir);
  return createS3BlobStore(config.s3);
}
