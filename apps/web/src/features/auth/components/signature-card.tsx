import { SIGNATURE_MAX_BYTES, type TUser } from '@quire/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-error';
import { apiFieldErrors } from '../../../lib/field-errors';
import { useUploadSignature } from '../api/upload-signature';
import { useUserSignature } from '../api/user-signature';

const SIGNATURE_TYPES = ['image/png', 'image/jpeg'];

/** An object URL for a Blob, revoked when the Blob changes or the component goes. */
function useObjectUrl(blob: Blob | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

export function SignatureCard({ user }: { user: TUser }) {
  const notify = useNotify();
  const signature = useUserSignature(user.id);
  const upload = useUploadSignature();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();
  const currentUrl = useObjectUrl(signature.data);
  const previewUrl = useObjectUrl(file);
  const missing = signature.error instanceof ApiError && signature.error.status === 404;

  function choose(chosen: File | undefined) {
    setError(undefined);
    setFile(null);
    if (!chosen) return;
    if (!SIGNATURE_TYPES.includes(chosen.type)) {
      setError('Choose a PNG or JPEG image');
      return;
    }
    if (chosen.size > SIGNATURE_MAX_BYTES) {
      setError('The image is larger than 1 MB');
      return;
    }
    setFile(chosen);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (upload.isPending) return;
    if (!file) {
      setError('Choose a PNG or JPEG image');
      inputRef.current?.focus();
      return;
    }
    upload.mutate(file, {
      onSuccess: () => {
        notify.success('Signature uploaded');
        setFile(null);
        if (inputRef.current) inputRef.current.value = '';
      },
      onError: (err) => {
        setError(apiFieldErrors(err, ['file'] as const).file);
        notify.notifyFailure('Failed to upload signature', err);
      },
    });
  }

  return (
    <section className="card" aria-labelledby="profile-signature">
      <h2 id="profile-signature">Signature</h2>
      <div className="signature">
        <p className="signature__label">Current signature</p>
        <div className="signature__frame">
          {signature.isPending ? (
            <span className="muted">Loading…</span>
          ) : currentUrl ? (
            <img src={currentUrl} alt="Your current signature" />
          ) : missing ? (
            <span className="muted">No signature uploaded yet.</span>
          ) : (
            <span className="muted">Your signature could not be loaded.</span>
          )}
        </div>
      </div>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={upload.isPending}>
        <div className="field">
          <label htmlFor="signature-file">New signature image</label>
          <input
            ref={inputRef}
            id="signature-file"
            name="file"
            type="file"
            accept="image/png,image/jpeg"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'signature-file-error signature-file-hint' : 'signature-file-hint'}
            onChange={(e) => choose(e.target.files?.[0])}
          />
          {error ? (
            <p className="field__error" id="signature-file-error">
              {error}
            </p>
          ) : null}
          <p className="field__hint" id="signature-file-hint">
            PNG or JPEG, at most 1 MB.
          </p>
        </div>
        {previewUrl ? (
          <div className="signature__frame">
            <img src={previewUrl} alt="Preview of the new signature" />
          </div>
        ) : null}
        <div className="form-actions">
          <PendingButton pending={upload.isPending} pendingLabel="Uploading…" disabled={!file}>
            Upload signature
          </PendingButton>
        </div>
      </form>
    </section>
  );
}
