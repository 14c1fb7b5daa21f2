import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';

// The side of a put that both blob stores share (lib/blob-store.ts on a folder,
// lib/s3-blob-store.ts on a bucket): its options and answer, and ContentMeter with its
// Transform.

/** Bytes buffered on the way to the store: large writes, fewer system calls, bounded memory. */
export const WRITE_BUFFER = 1024 * 1024;

export interface StoredBlob {
  /** sha256 of the content, hex: the blob's id and address. */
  id: string;
  size: number;
}

export interface PutOptions {
  /** More bytes than this fail the put with BlobTooLargeError; nothing is kept. */
  maxBytes?: number;
  /**
   * Checks the first `inspectBytes` bytes (or the whole content when shorter) while they
   * stream in, before anything is kept: a throw fails the put and nothing is kept. Used to
   * refuse a file by its content (a signature that is not an image) without storing it.
   */
  inspect?: (head: Buffer) => void | Promise<void>;
  /** How many leading bytes `inspect` sees (default 4100, what file-type needs). */
  inspectBytes?: number;
  /**
   * Whether the content may be kept at all (a caller's checks, run while it streams in):
   * awaited once the content is written and synced, before it is kept. A rejection fails the
   * put with its error and nothing is kept; it stops the reading of a stream at once.
   */
  admit?: Promise<unknown>;
}

export class BlobTooLargeError extends Error {
  override name = 'BlobTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`Content exceeds ${maxBytes} bytes`);
  }
}

/**
 * What every put does to the bytes it is given, whichever store writes them: counts them
 * (past `maxBytes`: BlobTooLargeError), hashes them, and gathers the first `inspectBytes` for
 * `inspect`, which runs once, before any byte may be kept. The stores drive it: the folder
 * store's write loop, the S3 store's Transform (lib/s3-blob-store.ts), both stores' putChunks.
 */
export class ContentMeter {
  size = 0;
  /** Whether the head has been inspected (or there is no `inspect`): bytes may be kept. */
  inspected: boolean;
  readonly #hash = createHash('sha256');
  readonly #maxBytes: number | undefined;
  readonly #inspect: PutOptions['inspect'];
  readonly #inspectBytes: number;
  #head: Buffer[] = [];
  #headBytes = 0;

  constructor(options: PutOptions = {}) {
    this.#maxBytes = options.maxBytes;
    this.#inspect = options.inspect;
    this.#inspectBytes = options.inspect ? (options.inspectBytes ?? 4100) : 0;
    this.inspected = !options.inspect;
  }

  /**
   * Counts and hashes the next chunk (throws BlobTooLargeError past `maxBytes`). Answers the
   * inspection when this chunk completes the head: wait for it before keeping anything.
   */
  take(chunk: Uint8Array): Promise<void> | undefined {
    this.size += chunk.length;
    if (this.#maxBytes !== undefined && this.size > this.#maxBytes)
      throw new BlobTooLargeError(this.#maxBytes);
    this.#hash.update(chunk);
    if (this.inspected) return;
    this.#head.push(chunk as Buffer);
    this.#headBytes += chunk.length;
    if (this.#headBytes >= this.#inspectBytes) return this.#runInspect();
  }

  /** The content has ended: inspects a head shorter than `inspectBytes`, if not done. */
  finish(): Promise<void> | undefined {
    if (!this.inspected) return this.#runInspect();
  }

  /** The content's id (its sha256) and size, once it has all been taken. */
  blob(): StoredBlob {
    return { id: this.#hash.digest('hex'), size: this.size };
  }

  async #runInspect() {
    this.inspected = true;
    const head = Buffer.concat(this.#head, this.#headBytes).subarray(0, this.#inspectBytes);
    this.#head = [];
    await this.#inspect?.(head);
  }
}

/** A Transform that passes the bytes through `meter`, unchanged: the S3 store's put. */
export function meterStream(meter: ContentMeter): Transform {
  return new Transform({
    highWaterMark: WRITE_BUFFER,
    transform(chunk: Buffer, _enc, done) {
      let inspecting: Promise<void> | undefined;
      try {
        inspecting = meter.take(chunk);
      } catch (err) {
        return done(err as Error);
      }
      if (!inspecting) return done(null, chunk);
      inspecting.then(() => done(null, chunk), done);
    },
    flush(done) {
      const inspecting = meter.finish();
      if (!inspecting) return done();
      inspecting.then(() => done(), done);
    },
  });
}
