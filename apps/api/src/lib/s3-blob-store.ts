import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BlobStore, type ByteRange, isBlobId, TEMP_PREFIX, writerIsGone } from './blob-store.js';
import { ContentMeter, meterStream, type PutOptions, type StoredBlob } from './content-meter.js';
import { CHUNK_BYTES } from './file-chunks.js';
import { awsS3, awsStorage, createS3Client, notFound, type S3BlobStoreOptions } from './s3-client.js';

// The blob store on an S3-compatible service (AWS S3, MinIO, Ceph RGW, Garage, R2, …), with
// the folder store's layout as object keys: content at `ab/cd/<sha256>`, uploads in flight
// under `tmp/<host>.<pid>.<uuid>`. So `aws s3 sync STORAGE_DIR s3://bucket --exclude 'tmp/*'`
// copies a folder store over as it is.
//
// The key is the content's sha256, known only once the last byte is read. Content that fits
// in one part (SINGLE_PUT_BYTES) is hashed in memory and put at its key in one request, with
// its sha256 as the request's checksum, which the service checks before it keeps anything.
// Larger content streams to a temp key as a multipart upload (lib-storage), hashed on the
// way; then the service copies it to its key, computing the copy's SHA-256, which must equal
// ours (where the service answers one), and the temp object is deleted. A blob is therefore
// whole at its key or absent; a put that fails (too large, refused by `inspect`, the service
// away, the server killed) leaves at most a temp object or an unfinished multipart upload,
// which sweepTemp removes. Putting content that is already stored writes it again, which
// is what makes its LastModified the time a put last touched it (see `remove`).
//
// The client, its options and the service's errors (not found, away) are s3-client.ts.

/** Content up to this size is put in one request; larger goes as a multipart upload. */
export const SINGLE_PUT_BYTES = 8 * 1024 * 1024;
/**
 * Part size of a multipart upload: 8 MiB, or more when `maxBytes` needs it (an upload has at
 * most 10,000 parts); 16 MiB for putChunks, whose size is not known (a backup: 156 GiB at most).
 */
const PART_BYTES = 8 * 1024 * 1024;
const CHUNKS_PART_BYTES = 16 * 1024 * 1024;
const MAX_PARTS = 9_000;
/** Parts uploaded at a time by one put: about (PARTS_IN_FLIGHT + 1) parts in memory per put. */
const PARTS_IN_FLIGHT = 2;
/** Largest object one CopyObject copies; larger ones are copied part by part. */
const COPY_MAX_BYTES = 5 * 1024 ** 3;
/** Part size of a multipart copy. */
const COPY_PART_BYTES = 512 * 1024 * 1024;
const TMP = 'tmp/';
const KEY = /^([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})$/;

const keyOf = (id: string) => {
  if (!isBlobId(id)) throw new Error(`Not a blob id: ${id}`);
  return `${id.slice(0, 2)}/${id.slice(2, 4)}/${id}`;
};
const rangeHeader = (range?: ByteRange) => (range ? `bytes=${range.start}-${range.end}` : undefined);
export function createS3BlobStore(options: S3BlobStoreOptions, client = createS3Client(options)): BlobStore {
  const Bucket = options.bucket;
  const {
    AbortMultipartUploadCommand,
    CompleteMultipartUploadCommand,
    CopyObjectCommand,
    CreateMultipartUploadCommand,
    DeleteObjectCommand,
    GetObjectCommand,
    HeadBucketCommand,
    HeadObjectCommand,
    ListMultipartUploadsCommand,
    ListObjectsV2Command,
    PutObjectCommand,
    S3ServiceException,
    UploadPartCopyCommand,
  } = awsS3();
  const { Upload } = awsStorage();

  const head = async (key: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket, Key: key }));
    } catch (err) {
      if (notFound(err)) return null;
      throw err;
    }
  };
  const drop = (key: string) => client.send(new DeleteObjectCommand({ Bucket, Key: key }));
  let lastCheck: { at: number; answer: Promise<boolean> } | undefined;

  /** Copies the temp object to the blob's key; answers the SHA-256 (base64) the service computed, if any. */
  const copy = async (from: string, to: string, size: number): Promise<string | undefined> => {
    const CopySource = `${Bucket}/${from}`;
    if (size <= COPY_MAX_BYTES) {
      const done = await client.send(
        new CopyObjectCommand({ Bucket, Key: to, CopySource, ChecksumAlgorithm: 'SHA256' }),
      );
      return done.CopyObjectResult?.ChecksumSHA256;
    }
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: to }));
    try {
      const Parts = [];
      for (let start = 0, PartNumber = 1; start < size; start += COPY_PART_BYTES, PartNumber++) {
        const end = Math.min(start + COPY_PART_BYTES, size) - 1;
        const part = await client.send(
          new UploadPartCopyCommand({
            Bucket,
            Key: to,
            UploadId,
            PartNumber,
            CopySource,
            CopySourceRange: `bytes=${start}-${end}`,
          }),
        );
        Parts.push({ PartNumber, ETag: part.CopyPartResult?.ETag });
      }
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket, Key: to, UploadId, MultipartUpload: { Parts } }),
      );
    } catch (err) {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key: to, UploadId })).catch(() => {});
      throw err;
    }
    return undefined;
  };

  /**
   * Streams content longer than one part to a temp key, then copies it to its address: the
   * address `meter` answers once it has taken all of `body`.
   */
  const putLarge = async (
    body: Readable,
    meter: ContentMeter,
    partSize = PART_BYTES,
  ): Promise<StoredBlob> => {
    const tmpKey = `${TMP}${TEMP_PREFIX}${randomUUID()}`;
    // Parts are kept on failure by lib-storage, which would otherwise answer the abort's
    // error instead of the put's own (a BlobTooLargeError); this store aborts them itself.
    const upload = new Upload({
      client,
      params: { Bucket, Key: tmpKey, Body: body },
      partSize,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: true,
    });
    try {
      await upload.done();
    } catch (err) {
      body.destroy();
      if (upload.uploadId)
        await client
          .send(new AbortMultipartUploadCommand({ Bucket, Key: tmpKey, UploadId: upload.uploadId }))
          .catch(() => {});
      await drop(tmpKey).catch(() => {});
      throw err;
    }
    const blob = meter.blob();
    const key = keyOf(blob.id);
    try {
      const checksum = await copy(tmpKey, key, blob.size);
      const ours = Buffer.from(blob.id, 'hex').toString('base64');
      // A composite checksum (of parts, `…-N`) is not the content's SHA-256: nothing to compare.
      if (checksum && !checksum.includes('-') && checksum !== ours) {
        await drop(key).catch(() => {});
        throw new Error(`The store's copy of blob ${blob.id} has SHA-256 ${checksum} (base64), not ${ours}`);
      }
    } finally {
      await drop(tmpKey).catch(() => {});
    }
    return blob;
  };

  const putSmall = async (content: Buffer): Promise<StoredBlob> => {
    const sha = createHash('sha256').update(content).digest();
    const id = sha.toString('hex');
    await client.send(
      new PutObjectCommand({
        Bucket,
        Key: keyOf(id),
        Body: content,
        ContentLength: content.length,
        ChecksumSHA256: sha.toString('base64'),
      }),
    );
    return { id, size: content.length };
  };

  return {
    async put(content, putOptions: PutOptions = {}) {
      // Settled before a byte is sent: the bucket has no temp file to drop on a refusal.
      await putOptions.admit;
      const meter = new ContentMeter(putOptions);
      const counted = meterStream(meter);
      const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
      // The source's errors (a client gone) reach the reader through the meter.
      pipeline(source, counted).catch(() => {});
      const chunks = counted[Symbol.asyncIterator]();
      const first: Buffer[] = [];
      let firstBytes = 0;
      try {
        for (;;) {
          const next = await chunks.next();
          if (next.done) return await putSmall(Buffer.concat(first, firstBytes));
          first.push(next.value as Buffer);
          firstBytes += (next.value as Buffer).length;
          if (firstBytes > SINGLE_PUT_BYTES) break;
        }
      } catch (err) {
        source.destroy();
        throw err;
      }
      const rest = async function* () {
        yield* first.splice(0);
        for (let next = await chunks.next(); !next.done; next = await chunks.next())
          yield next.value as Buffer;
      };
      try {
        const partSize = Math.max(PART_BYTES, Math.ceil((putOptions.maxBytes ?? 0) / MAX_PARTS));
        return await putLarge(Readable.from(rest(), { objectMode: false }), meter, partSize);
      } catch (err) {
        counted.destroy();
        source.destroy();
        throw err;
      }
    },

    async putChunks(source) {
      // Each chunk is copied before the next is asked for: the producer may reuse its buffers.
      const meter = new ContentMeter();
      const copied = async function* () {
        for await (const chunk of source) {
          meter.take(chunk);
          yield Buffer.from(chunk);
        }
      };
      return putLarge(Readable.from(copied(), { objectMode: false }), meter, CHUNKS_PART_BYTES);
    },

    async read(id, range) {
      const got = await client.send(
        new GetObjectCommand({ Bucket, Key: keyOf(id), Range: rangeHeader(range) }),
      );
      return got.Body as Readable;
    },

    async *readChunks(id, range, chunkBytes = CHUNK_BYTES) {
      // The service's body arrives in socket-sized pieces; they go out gathered into chunks of
      // chunkBytes (the last one shorter), so a download writes (and waits for) fewer, larger ones.
      const got = await client.send(
        new GetObjectCommand({ Bucket, Key: keyOf(id), Range: rangeHeader(range) }),
      );
      const body = got.Body as Readable;
      let held: Buffer[] = [];
      let heldBytes = 0;
      try {
        for await (const piece of body) {
          held.push(piece as Buffer);
          heldBytes += (piece as Buffer).length;
          while (heldBytes >= chunkBytes) {
            const gathered = Buffer.concat(held, heldBytes);
            held = [gathered.subarray(chunkBytes)];
            heldBytes -= chunkBytes;
            yield gathered.subarray(0, chunkBytes);
          }
        }
        if (heldBytes) yield Buffer.concat(held, heldBytes);
      } finally {
        body.destroy();
      }
    },

    exists: async (id) => (await head(keyOf(id))) !== null,

    async size(id) {
      const found = await head(keyOf(id));
      if (!found) throw Object.assign(new Error(`Blob ${id} is not stored`), { code: 'ENOENT' });
      return found.ContentLength ?? 0;
    },

    async remove(id, removeOptions = {}) {
      const key = keyOf(id);
      if (removeOptions.unlessTouchedAfter) {
        const found = await head(key);
        if (!found) return;
        if ((found.LastModified?.getTime() ?? 0) > removeOptions.unlessTouchedAfter.getTime()) return;
      }
      await drop(key);
    },

    async *list() {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          const match = object.Key ? KEY.exec(object.Key) : null;
          if (!match || !match[3]!.startsWith(match[1]! + match[2]!)) continue;
          yield { id: match[3]!, touchedAt: object.LastModified ?? new Date(0) };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },

    reachable() {
      // One HeadBucket a second at most, whoever asks: the health check stays cheap under load.
      if (!lastCheck || Date.now() - lastCheck.at > 1000) {
        lastCheck = {
          at: Date.now(),
          answer: client.send(new HeadBucketCommand({ Bucket })).then(
            () => true,
            () => false,
          ),
        };
      }
      return lastCheck.answer;
    },

    async sweepTemp(olderThanMs = 3_600_000) {
      // Young ones only when their writer is gone: another server may be writing them.
      const cutoff = Date.now() - olderThanMs;
      const stale = (name: string, at: Date | undefined) =>
        writerIsGone(name) || (at !== undefined && at.getTime() < cutoff);
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: TMP, ContinuationToken }));
        for (const object of page.Contents ?? []) {
          if (object.Key && stale(object.Key.slice(TMP.length), object.LastModified)) await drop(object.Key);
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      // Unfinished multipart uploads (a put cut off by a killed server) hold their parts
      // until aborted. Services without this listing (some emulators) have none to show.
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      for (;;) {
        let page: Awaited<ReturnType<typeof listUploads>>;
        try {
          page = await listUploads(KeyMarker, UploadIdMarker);
        } catch (err) {
          if (err instanceof S3ServiceException && err.name === 'NotImplemented') return;
          throw err;
        }
        for (const upload of page.Uploads ?? []) {
          if (upload.Key && upload.UploadId && stale(upload.Key.slice(TMP.length), upload.Initiated))
            await client.send(
              new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }),
            );
        }
        if (!page.IsTruncated) return;
        KeyMarker = page.NextKeyMarker;
        UploadIdMarker = page.NextUploadIdMarker;
      }
    },
  };

  function listUploads(KeyMarker?: string, UploadIdMarker?: string) {
    return client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: TMP, KeyMarker, UploadIdMarker }));
  }
}
