import type { Readable } from 'node:stream';

/**
 * A whole stream as one Buffer: only for content the pipeline already bounded to a few MiB
 * (a spreadsheet to import), never for files in general.
 */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
