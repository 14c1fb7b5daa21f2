import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore, ByteRange } from './blob-store.js';

/** Types a browser may show inline without running anything: everything else downloads. */
const SAFE_INLINE_TYPES = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'text/plain',
]);

export interface FileToSend {
  /** The blob's id (its sha256), which is also its strong ETag. */
  blobId: string;
  size: number;
  /** The type detected from the content when it was stored. */
  mimeType: string;
  /** The name to offer (display only; sanitised here for the header). */
  filename: string;
  /** `inline` is honoured only for SAFE_INLINE_TYPES. */
  disposition?: 'inline' | 'attachment';
  /** Cache-Control (default: private, revalidated with the ETag). */
  cacheControl?: string;
}

/** `attachment; filename="plain"; filename*=UTF-8''encoded` (RFC 6266 / RFC 8187). */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  // Control characters, quotes, backslashes and slashes become "_": never a header break or a path.
  const clean =
    [...filename]
      .map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || '"\\/'.includes(c) ? '_' : c))
      .join('')
      .trim() || 'file';
  const ascii = clean.replace(/[^\u0020-\u007e]/g, '_');
  const encoded = encodeURIComponent(clean).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The one range of a `Range: bytes=…` header, null for none or several, 'bad' when unsatisfiable. */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'bad' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return header.includes(',') ? null : 'bad';
  const [, from, to] = match;
  if (from === '' && to === '') return 'bad';
  let start: number;
  let end: number;
  if (from === '') {
    // the last N bytes
    const n = Number(to);
    if (n === 0) return 'bad';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start >= size || start > end) return 'bad';
  return { start, end };
}

/**
 * Streams a stored blob as a download: strong ETag (the content address) with 304 on
 * If-None-Match, one byte range (206, or 416 when unsatisfiable, If-Range honoured),
 * Content-Disposition with the UTF-8 filename, inline only for types safe to show, and a
 * `sandbox` content security policy so a file can never run as a page of this site.
 */
export async function sendBlob(
  blobs: BlobStore,
  req: FastifyRequest,
  reply: FastifyReply,
  file: FileToSend,
): Promise<FastifyReply> {
  const etag = `"${file.blobId}"`;
  const inline = file.disposition === 'inline' && SAFE_INLINE_TYPES.has(file.mimeType);
  reply
    .header('etag', etag)
    .header('accept-ranges', 'bytes')
    .header('cache-control', file.cacheControl ?? 'private, no-cache')
    .header('content-security-policy', 'sandbox')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', contentDisposition(inline ? 'inline' : 'attachment', file.filename))
    .type(
      inline ? file.mimeType : file.mimeType === 'text/html' ? 'application/octet-stream' : file.mimeType,
    );

  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch?.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
    return reply.status(304).send();
  }
  const ifRange = req.headers['if-range'];
  const range = ifRange && ifRange !== etag ? null : parseRange(req.headers.range, file.size);
  if (range === 'bad') {
    return reply.status(416).header('content-range', `bytes */${file.size}`).send();
  }
  if (range) {
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', range.end - range.start + 1);
  } else {
    reply.header('content-length', file.size);
  }
  return sendChunks(req, reply, blobs.readChunks(file.blobId, range ?? undefined, DOWNLOAD_CHUNK));
}

/** Bytes read and written at a time by a download: two such buffers per download in flight. */
const DOWNLOAD_CHUNK = 512 * 1024;

/**
 * Writes `chunks` as the body on the raw response, with the headers and status set on
 * `reply`, each chunk only once the one before has gone to the socket (its write callback):
 * the chunks may be reused buffers (lib/file-chunks.ts). Through `reply.send(stream)` every
 * read allocated a new Buffer, and each 64 MiB of that external memory woke V8's garbage
 * collector over the whole heap: about 4 s of CPU per GiB downloaded. A read error or a
 * client gone half way ends the response there.
 */
async function sendChunks(
  req: FastifyRequest,
  reply: FastifyReply,
  chunks: AsyncIterable<Buffer>,
): Promise<FastifyReply> {
  reply.hijack();
  const res = reply.raw;
  const headers = Object.entries(reply.getHeaders()).filter(
    (entry): entry is [string, string | number | string[]] => entry[1] !== undefined,
  );
  res.writeHead(reply.statusCode, Object.fromEntries(headers));
  if (req.method === 'HEAD') {
    res.end();
    return reply;
  }
  const gone = new Promise<Error>((resolve) => res.once('close', () => resolve(new Error('closed'))));
  try {
    for await (const chunk of chunks) {
      const written = new Promise<Error | null | undefined>((resolve) => res.write(chunk, resolve));
      const failed = await Promise.race([written, gone]);
      if (failed) throw failed;
    }
    res.end();
  } catch (err) {
    res.destroy(err as Error);
  }
  return reply;
}

/**
 * Sends content made for this answer (a spreadsheet, a combined PDF) as a download, with the
 * same protective headers as a stored file: never cached, never run, named per RFC 6266.
 */
export function sendGenerated(
  reply: FastifyReply,
  file: { content: Buffer | Readable; mimeType: string; filename: string },
): FastifyReply {
  reply
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', 'sandbox')
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', contentDisposition('attachment', file.filename))
    .type(file.mimeType);
  if (Buffer.isBuffer(file.content)) reply.header('content-length', file.content.length);
  return reply.send(file.content);
}
