// The body of POST /api/new-upload as the benches send it: a multipart form with the
// `folder_id` field, then the one `file`. files.ts streams a big file between the frame's
// head and tail; intake.ts and small-uploads.ts send small files whole (uploadPayload).
import { randomBytes } from 'node:crypto';
import http from 'node:http';

/** The multipart frame around one file: write `head`, the file's bytes, then `tail`. */
export function uploadFrame(
  folderId: number,
  name: string,
  mimeType: string,
  boundary = `bench${randomBytes(6).toString('hex')}`,
) {
  return {
    head: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="folder_id"\r\n\r\n${folderId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        `Content-Type: ${mimeType}\r\n\r\n`,
    ),
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A whole small upload's body in one buffer, with its content type. */
export function uploadPayload(
  folderId: number,
  file: { name: string; type: string; content: Buffer },
  boundary?: string,
) {
  const frame = uploadFrame(folderId, file.name, file.type, boundary);
  return { payload: Buffer.concat([frame.head, file.content, frame.tail]), contentType: frame.contentType };
}

/**
 * Opens POST /api/new-upload for a body of `length` bytes; the caller writes the body into
 * `req`. `answer` resolves with the status and the text of the response once it has ended.
 */
export function postUpload(o: {
  port: number;
  token: string;
  contentType: string;
  length: number;
  agent?: http.Agent;
}) {
  let req!: http.ClientRequest;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req = http.request(
      {
        ...(o.agent ? { agent: o.agent } : {}),
        host: '127.0.0.1',
        port: o.port,
        method: 'POST',
        path: '/api/new-upload',
        headers: {
          authorization: `Bearer ${o.token}`,
          'content-type': o.contentType,
          'content-length': o.length,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
  });
  return { req, answer };
}
