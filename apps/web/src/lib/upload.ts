// File uploads with progress and cancel, shared by every upload screen. fetch() cannot report
// upload progress, so this is XMLHttpRequest: the same bearer token, URL building and error
// shape as callApi (an ApiError for a refusal), and an AbortSignal that cancels the transfer.
import type { Data, EndpointDef, Params } from '@quire/contract';
import { type ApiResult, type EndpointRef, urlFor } from './api-client';
import { ApiError } from './api-error';
import { getAccessToken } from './storage';

export interface UploadProgress {
  /** Bytes sent so far. */
  loaded: number;
  /** Bytes to send in all (the multipart body, a little more than the file). */
  total: number;
}

export interface UploadOptions<E extends EndpointDef> {
  params?: Params<E>;
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
}

/** The request could not reach the server (offline, connection dropped). */
export class UploadNetworkError extends Error {
  override name = 'UploadNetworkError';
  constructor() {
    super('The upload could not reach Quire. Check your connection and try again.');
  }
}

const abortError = () => new DOMException('The upload was cancelled.', 'AbortError');

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/**
 * Sends `formData` to a multipart contract entry. Resolves with the unwrapped envelope;
 * rejects with an ApiError for a refusal, an AbortError once `signal` aborts (the transfer
 * stops), or an UploadNetworkError.
 */
export function uploadForm<E extends EndpointDef>(
  entry: E | EndpointRef<E>,
  formData: FormData,
  { params, signal, onProgress }: UploadOptions<E> = {},
): Promise<ApiResult<Data<E>>> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.open(entry.method, urlFor(entry, { params }));
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getAccessToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    };
    xhr.onload = () => {
      done();
      const body = parse(xhr.responseText);
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiError(xhr.status, body));
        return;
      }
      const envelope = (body ?? {}) as { data?: unknown; message?: unknown };
      resolve({
        data: envelope.data as Data<E>,
        message: typeof envelope.message === 'string' ? envelope.message : undefined,
      });
    };
    xhr.onerror = () => {
      done();
      reject(new UploadNetworkError());
    };
    xhr.onabort = () => {
      done();
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort);
    xhr.send(formData);
  });
}
