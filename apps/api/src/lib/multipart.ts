import { finished, type Readable, Transform } from 'node:stream';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { UploadSpec } from '@quire/contract';
import type { FastifyRequest } from 'fastify';
import { BlobTooLargeError } from './content-meter.js';
import { AppError, createError, invalidInput, refusedAt } from './errors.js';
import { formatBytes } from './format.js';

/** A file part of an upload, to be streamed (read to its end) before the next is asked for. */
export interface UploadedFile {
  field: string;
  /** The name the client gave, for display only (never a disk path). */
  filename: string;
  /** The type the client claimed: never trusted, the content decides. */
  claimedType: string;
  /** The content. While the call's checks run (lib/admission.ts) it ends only once they pass. */
  stream: Readable;
  /**
   * For the blob store, while the call's checks run: the content as it comes, and the checks
   * to await before keeping it (PutOptions.admit), so the file is written and synced meanwhile.
   */
  admission?: { stream: Readable; admitted: Promise<void> };
}

const notMultipart = () =>
  invalidInput('Send the form as multipart/form-data', [{ path: 'body', message: 'Not a multipart form' }]);

const malformedUpload = () =>
  refusedAt(
    'upload.malformed',
    'body',
    'The upload is not a valid multipart form or was cut off. Choose the file again and retry.',
  );

const uploadTooLarge = createError({
  code: 'upload.too_large',
  statusCode: 413,
  message: (maxBytes: number) =>
    `The file is larger than the ${formatBytes(maxBytes)} limit. Choose a smaller file or split it.`,
});

const tooManyParts = createError({
  code: 'upload.too_many_parts',
  statusCode: 413,
  message: (max: number) => `Send at most ${max} file${max === 1 ? '' : 's'} in one upload.`,
});

const fieldAfterFile = (name: string) =>
  invalidInput('Send the form fields before the file', [
    { path: `body.${name}`, message: 'Must come before the file in the form' },
  ]);

const unexpectedFile = (name: string) =>
  invalidInput(`The form has a file in "${name}", which this call does not take`, [
    { path: `body.${name}`, message: 'Not a file field of this call' },
  ]);

export const missingFile = (field: string) =>
  invalidInput('Choose a file to upload', [{ path: `body.${field}`, message: 'Required' }]);

/** Turns what busboy and @fastify/multipart throw into the named errors. */
export function uploadError(err: unknown, maxBytes: number, maxFiles: number): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof BlobTooLargeError) return uploadTooLarge(err.maxBytes);
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return uploadTooLarge(maxBytes);
  if (code === 'FST_FILES_LIMIT') return tooManyParts(maxFiles);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return tooManyParts(maxFiles);
  const message = err instanceof Error ? err.message : '';
  if (
    code === 'ECONNRESET' ||
    code === 'FST_REQ_PREMATURE_CLOSE' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE' ||
    /unexpected end of (form|file|multipart)|malformed|boundary|multipart|terminated early|premature/i.test(
      message,
    )
  ) {
    return malformedUpload();
  }
  return err;
}

/**
 * An upload opened by the pipeline: the text fields read so far (everything before the first
 * file part), and the file parts, one at a time. A field after a file is a 400; a file
 * larger than `maxBytes` fails its stream (the blob store drops what it had) and the call is
 * a 413; a body cut off fails the stream and the call is a 400.
 */
interface OpenedUpload {
  fields: Record<string, string | string[]>;
  files(): AsyncGenerator<UploadedFile>;
  /** Reads and drops whatever the handler left unread. */
  drain(): Promise<void>;
}

export async function openUpload(
  req: FastifyRequest,
  spec: UploadSpec,
  limits: { maxBytes: number },
): Promise<OpenedUpload> {
  if (!req.isMultipart()) throw notMultipart();
  const maxFiles = spec.max ?? 1;
  // busboy stops a file one byte past the limit (and would pass the rest off as whole): the
  // counter in wrap() sees that byte and fails the stream, so nothing of it is kept.
  const parts = req.parts({
    limits: {
      files: maxFiles,
      fileSize: limits.maxBytes + 1,
      fields: 100,
      fieldSize: 64 * 1024,
      parts: maxFiles + 100,
    },
  });
  const iterator = parts[Symbol.asyncIterator]();
  const next = async () => {
    try {
      return await iterator.next();
    } catch (err) {
      throw uploadError(err, limits.maxBytes, maxFiles);
    }
  };

  const fields: Record<string, string | string[]> = {};
  let pending: MultipartFile | undefined;
  for (;;) {
    const step = await next();
    if (step.done) break;
    const part = step.value as MultipartFile | MultipartValue;
    if (part.type === 'file') {
      pending = part;
      break;
    }
    const value = String(part.value);
    const seen = fields[part.fieldname];
    fields[part.fieldname] = seen === undefined ? value : ([] as string[]).concat(seen, value);
  }

  // The part after the file being read, fetched before that file's stream may end: a field
  // after a file then fails the file (nothing stored) instead of being silently ignored.
  let lookahead: IteratorResult<MultipartFile | MultipartValue> | undefined;
  let current: Readable | undefined;
  const settle = async () => {
    // The handler moved on without reading a file to its end: read and drop the rest.
    if (current && !current.readableEnded && !current.destroyed) {
      current.resume();
      await new Promise<void>((resolve) => {
        current?.once('end', resolve);
        current?.once('close', resolve);
        current?.once('error', () => resolve());
      });
    }
  };
  const wrap = (part: MultipartFile): UploadedFile => {
    if (part.fieldname !== spec.field) throw unexpectedFile(part.fieldname);
    current = part.file;
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > limits.maxBytes) return done(uploadTooLarge(limits.maxBytes));
        done(null, chunk);
      },
      flush(done) {
        next().then((step) => {
          lookahead = step;
          const after = step.done ? undefined : step.value;
          if (after && after.type !== 'file') return done(fieldAfterFile(after.fieldname));
          if (after && after.type === 'file' && (after.fieldname !== spec.field || ++filesSeen > maxFiles))
            return done(
              after.fieldname !== spec.field ? unexpectedFile(after.fieldname) : tooManyParts(maxFiles),
            );
          done();
        }, done);
      },
    });
    // `finished` also fails `counted` when busboy already destroyed the file (the body was cut
    // off while the fields were being checked): the handler's read then fails, never hangs.
    // Piped by hand rather than by pipeline(), which makes an AbortController per call and
    // aborts it on finishing: its DOMException (a stack trace) cost 0.2 ms of CPU an upload.
    part.file.pipe(counted);
    finished(part.file, (err) => {
      if (err) counted.destroy(uploadError(err, limits.maxBytes, maxFiles) as Error);
    });
    finished(counted, (err) => {
      if (err) part.file.destroy();
    });
    return { field: part.fieldname, filename: part.filename, claimedType: part.mimetype, stream: counted };
  };
  let filesSeen = pending ? 1 : 0;

  return {
    fields,
    async *files() {
      if (!pending) return;
      const first = pending;
      pending = undefined;
      yield wrap(first);
      for (;;) {
        await settle();
        const step = lookahead ?? (await next());
        lookahead = undefined;
        if (step.done) return;
        const part = step.value;
        if (part.type !== 'file') throw fieldAfterFile(part.fieldname);
        yield wrap(part);
      }
    },
    async drain() {
      if (pending) {
        current = pending.file;
        pending = undefined;
      }
      for (;;) {
        await settle();
        const step =
          lookahead ?? (await iterator.next().catch(() => ({ done: true as const, value: undefined })));
        lookahead = undefined;
        if (step.done) return;
        const part = step.value as MultipartFile | MultipartValue;
        if (part.type === 'file') current = part.file;
      }
    },
  };
}
