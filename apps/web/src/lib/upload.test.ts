import type { contract } from '@quire/contract';
import { describe, expect, it, vi } from 'vitest';
import { installFakeXhr } from '../testing/fake-xhr';
import { aLogin } from '../testing/fixtures';
import { endpointRef } from './api-client';
import { ApiError, isAbortError } from './api-error';
import { authRecordFrom, setAuth } from './storage';
import { UploadNetworkError, uploadForm } from './upload';

const signature = endpointRef<typeof contract.user.uploadSignature>({
  method: 'POST',
  path: '/api/upload-user-signature',
});

const form = () => {
  const data = new FormData();
  data.append('file', new File(['png'], 'sig.png', { type: 'image/png' }));
  return data;
};

describe('uploadForm', () => {
  it('sends the form with the bearer token, reports progress and unwraps the answer', async () => {
    const Xhr = installFakeXhr();
    setAuth(authRecordFrom(aLogin('user', 'General staff')));
    const onProgress = vi.fn();
    const done = uploadForm(signature, form(), { onProgress });
    const xhr = Xhr.sent[0]!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/upload-user-signature');
    expect(xhr.headers.authorization).toBe('Bearer token-123');
    expect((xhr.body as FormData).get('file')).toBeInstanceOf(File);
    xhr.progress(50, 200);
    xhr.progress(200, 200);
    expect(onProgress.mock.calls).toEqual([[{ loaded: 50, total: 200 }], [{ loaded: 200, total: 200 }]]);
    xhr.respond(200, { message: 'Signature uploaded', data: null });
    await expect(done).resolves.toEqual({ data: null, message: 'Signature uploaded' });
  });

  it('stops the transfer when its signal aborts, and rejects with an AbortError', async () => {
    const Xhr = installFakeXhr();
    const controller = new AbortController();
    const done = uploadForm(signature, form(), { signal: controller.signal });
    controller.abort();
    expect(Xhr.sent[0]!.aborted).toBe(true);
    const error = await done.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
  });

  it('never starts with a signal already aborted', async () => {
    const Xhr = installFakeXhr();
    const controller = new AbortController();
    controller.abort();
    const error = await uploadForm(signature, form(), { signal: controller.signal }).catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(Xhr.sent).toHaveLength(0);
  });

  it('rejects a refusal as an ApiError, and a lost connection in words', async () => {
    const Xhr = installFakeXhr();
    const refused = uploadForm(signature, form());
    Xhr.sent[0]!.respond(413, { message: 'The file is larger than 1 MB', code: 'payload_too_large' });
    const error = await refused.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 413, message: 'The file is larger than 1 MB' });

    const lost = uploadForm(signature, form());
    Xhr.sent[1]!.fail();
    await expect(lost).rejects.toBeInstanceOf(UploadNetworkError);
  });
});
