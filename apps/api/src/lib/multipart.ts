import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AppError, createError, invalidInput } from './errors.js';

export const notMultipart = () =>
  invalidInput('Send the file as multipart/form-data', [{ path: 'body.file', message: 'Required' }]);

export const malformedUpload = createError({
  code: 'upload.malformed',
  statusCode: 400,
  message: 'The upload is not a valid multipart form. Choose the file again and retry.',
});

/** busboy's and @fastify/multipart's words for a body that is not a valid form. */
function isMalformed(err: unknown): boolean {
  if (err instanceof AppError) return false;
  const message = err instanceof Error ? err.message : '';
  return /unexpected end of (form|file)|malformed|boundary|multipart/i.test(message);
}

/**
 * The parts of a multipart upload: text fields are collected, each file part is handed to
 * `onFile` in turn (which must consume or `resume()` its stream). A body that is not a valid
 * form is a 400, whether parsing fails between parts or inside a file's stream.
 */
export async function readParts(
  req: FastifyRequest,
  limits: { fileSize: number; files?: number },
  onFile: (part: MultipartFile) => Promise<void>,
): Promise<Record<string, string>> {
  if (!req.isMultipart()) throw notMultipart();
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts({ limits: { files: 1, ...limits } })) {
      if (part.type === 'file') await onFile(part);
      else fields[part.fieldname] = String(part.value);
    }
  } catch (err) {
    throw isMalformed(err) ? malformedUpload() : err;
  }
  return fields;
}
