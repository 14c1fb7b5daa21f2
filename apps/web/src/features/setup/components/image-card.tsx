import { BACKGROUND_MAX_BYTES, BRANDING_IMAGE_TYPES, LOGO_MAX_BYTES } from '@quire/contract';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FileDropZone } from '../../../components/drop-zone';
import { useNotify } from '../../../components/notifications/notification-context';
import { formatBytes } from '../../../lib/format';
import { useRemoveImage } from '../api/remove-image';
import { type BrandingImage, useUploadImage } from '../api/upload-image';

const TEXT: Record<BrandingImage, { title: string; lead: string; max: number }> = {
  logo: {
    title: 'Logo',
    lead: 'Shown on the sign-in page and at the top of every page.',
    max: LOGO_MAX_BYTES,
  },
  background: {
    title: 'Sign-in background',
    lead: 'Fills the sign-in page behind the sign-in card.',
    max: BACKGROUND_MAX_BYTES,
  },
};

/** One branding image: what is set now (a preview), a new one to upload, or none. */
export function ImageCard({
  what,
  url,
  canWrite,
}: {
  what: BrandingImage;
  url: string | null;
  canWrite: boolean;
}) {
  const notify = useNotify();
  const upload = useUploadImage();
  const remove = useRemoveImage();
  const [removing, setRemoving] = useState(false);
  const text = TEXT[what];
  return (
    <section className="card" aria-labelledby={`${what}-title`}>
      <h2 id={`${what}-title`}>{text.title}</h2>
      <p className="muted">{text.lead}</p>
      <div className={`branding-preview branding-preview--${what}`}>
        {url ? (
          <img src={url} alt={`The current ${text.title.toLowerCase()}`} />
        ) : (
          <span className="muted">None set</span>
        )}
      </div>
      {canWrite ? (
        <>
          <FileDropZone
            label={`PNG, JPEG or WebP, at most ${formatBytes(text.max)}`}
            accept={[...BRANDING_IMAGE_TYPES]}
            multiple={false}
            maxBytes={text.max}
            disabled={upload.isPending}
            onFiles={([file]) =>
              file &&
              upload.mutate(
                { what, file },
                {
                  onSuccess: () =>
                    notify.success(
                      `${text.title} saved`,
                      `${file.name} is the new ${text.title.toLowerCase()}.`,
                    ),
                  onError: (e) =>
                    notify.notifyFailure(`Failed to upload the ${text.title.toLowerCase()}!`, e),
                },
              )
            }
          />
          {upload.isPending ? (
            <p className="muted" role="status">
              <span className="spinner" aria-hidden="true" /> Uploading…
            </p>
          ) : null}
          {url ? (
            <Button variant="ghost" small onClick={() => setRemoving(true)}>
              Remove {text.title.toLowerCase()}
            </Button>
          ) : null}
        </>
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove the ${text.title.toLowerCase()}?`}
          confirmLabel="Remove"
          pendingLabel="Removing…"
          tone="danger"
          pending={remove.isPending}
          onCancel={() => setRemoving(false)}
          onConfirm={() =>
            remove.mutate(what, {
              onSuccess: () => {
                notify.success(`${text.title} removed`, 'The plain Quire look is back.');
                setRemoving(false);
              },
              onError: (e) => notify.notifyFailure(`Failed to remove the ${text.title.toLowerCase()}!`, e),
            })
          }
        >
          <p>Pages show the plain Quire look instead.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
